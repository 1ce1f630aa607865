import { parseFieldPath, pathsOverlap, sameFieldValue, valueAtPath } from '../../lib/analyze/field-value';

const pod = {
  metadata: { labels: { 'app.kubernetes.io/name': 'kafka', app: 'kafka' } },
  spec: {
    containers: [
      {
        name: 'kafka',
        resources: { requests: { cpu: '1' } },
        env: [{ name: 'KAFKA_HEAP_OPTS', value: '-Xmx2G' }],
      },
      { name: 'fluent-bit', resources: { requests: { cpu: '100m' } } },
    ],
    tolerations: [{ key: 'a', operator: 'Exists' }],
  },
};

describe('valueAtPath', () => {
  it.each([
    ['spec.containers[name=kafka].resources.requests.cpu', '1'],
    ['spec.containers[name=fluent-bit].resources.requests.cpu', '100m'],
    ['spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value', '-Xmx2G'],
    ['metadata.labels["app.kubernetes.io/name"]', 'kafka'],
    ['spec.tolerations', [{ key: 'a', operator: 'Exists' }]],
    ['spec.containers[name=missing].image', undefined],
    ['spec.nodeName', undefined],
  ])('%s', (path, expected) => {
    expect(valueAtPath(pod, path)).toEqual(expected);
  });

  it('rejects malformed paths', () => {
    expect(parseFieldPath('spec.containers[name=kafka')).toBeNull();
    expect(valueAtPath(pod, 'metadata.labels["open')).toBeUndefined();
  });
});

describe('sameFieldValue', () => {
  it.each([
    ['1', '1000m', true],
    ['1Gi', '1024Mi', true],
    ['2Gi', '3Gi', false],
    [undefined, null, true],
    [[{ a: 1 }], [{ a: 1 }], true],
    [[{ a: 1 }], [{ a: 2 }], false],
  ])('%p vs %p → %p', (a, b, same) => {
    expect(sameFieldValue(a, b)).toBe(same);
  });
});

describe('pathsOverlap', () => {
  it.each([
    ['spec.containers[name=kafka].resources.requests.cpu', 'spec.containers[name=kafka].resources', true],
    ['spec.containers[name=kafka].resources', 'spec.containers[name=kafka].resources.requests.cpu', true],
    ['spec.containers[name=kafka].resources.requests.cpu', 'spec.containers[name=kafka2]', false],
    ['metadata.labels.app', 'metadata.labels.application', false],
  ])('%s ~ %s = %p', (a, b, overlap) => {
    expect(pathsOverlap(a, b)).toBe(overlap);
  });
});
