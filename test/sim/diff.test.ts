// The simulator's own model of koperator's diff, on the cases its truth depends on.
import { deltaPatch, threeWayDelta, twoWayDiff } from '../../sim/diff';
import type { JsonObject } from '../../sim/json';
import { formatPath, parsePath, pointerToPath } from '../../sim/paths';
import { canonicalQuantity, quantitiesEqual } from '../../sim/quantity';

const pod = (cpu: string, extra: JsonObject = {}): JsonObject => ({
  spec: {
    containers: [
      {
        name: 'kafka',
        image: 'k:1',
        resources: { requests: { cpu, memory: '2Gi' } },
        env: [{ name: 'A', value: '1' }],
      },
    ],
    affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100 }] } },
    ...extra,
  },
});

describe('threeWayDelta', () => {
  test('names a changed request by the container’s merge key', () => {
    expect(threeWayDelta(pod('1'), pod('350m')).map((d) => [d.path, d.from, d.to])).toEqual([
      ['spec.containers[name=kafka].resources.requests.cpu', '1', '350m'],
    ]);
  });

  test('compares quantities by value', () => {
    expect(threeWayDelta(pod('1'), pod('1000m'))).toEqual([]);
  });

  test('ignores what only the live pod has, and list order of merge-keyed lists', () => {
    const live = pod('1', {
      containers: [
        { name: 'sidecar' },
        {
          name: 'kafka',
          image: 'k:1',
          resources: { requests: { cpu: '1', memory: '2Gi' } },
          env: [{ name: 'A', value: '1' }],
          terminationMessagePath: '/dev/termination-log',
        },
      ],
    });
    expect(threeWayDelta(pod('1'), live)).toEqual([]);
  });

  test('treats an atomic list as one field', () => {
    const live = pod('1');
    (
      (live.spec as JsonObject).affinity as {
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: JsonObject[] };
      }
    ).podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.push({ weight: 50 });
    expect(threeWayDelta(pod('1'), live).map((d) => d.path)).toEqual([
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
    ]);
  });
});

describe('twoWayDiff', () => {
  test('finds additions, removals and changes between two desired pods', () => {
    const a = pod('1');
    const b = pod('2', { nodeSelector: { pool: 'kafka' } });
    expect(
      twoWayDiff(a, b)
        .map((d) => d.path)
        .sort(),
    ).toEqual(['spec.containers[name=kafka].resources.requests.cpu', 'spec.nodeSelector']);
  });
});

describe('deltaPatch', () => {
  test('builds a strategic-merge patch with the containers’ order', () => {
    const patch = deltaPatch(threeWayDelta(pod('1'), pod('350m')), pod('1'));
    expect(patch).toEqual({
      spec: {
        containers: [{ name: 'kafka', resources: { requests: { cpu: '1' } } }],
        '$setElementOrder/containers': [{ name: 'kafka' }],
      },
    });
  });
});

describe('paths', () => {
  test('round-trip, with quoted map keys', () => {
    for (const p of [
      'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
      'metadata.labels["app.kubernetes.io/name"]',
      'spec.containers[name=kafka].ports[containerPort=9092].name',
    ]) {
      expect(formatPath(parsePath(p))).toBe(p);
    }
  });

  test('JSON pointers resolve into merge keys and stop at atomic lists', () => {
    const doc = pod('1');
    expect(pointerToPath(doc, '/spec/containers/0/resources/requests/cpu')).toBe(
      'spec.containers[name=kafka].resources.requests.cpu',
    );
    expect(
      pointerToPath(doc, '/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/-', {
        weight: 50,
      }),
    ).toBe('spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution');
    expect(pointerToPath(doc, '/spec/containers/-', { name: 'istio-proxy' })).toBe(
      'spec.containers[name=istio-proxy]',
    );
    expect(pointerToPath(doc, '/metadata/labels/app.kubernetes.io~1name')).toBe(
      'metadata.labels["app.kubernetes.io/name"]',
    );
  });
});

describe('quantities', () => {
  test.each([
    ['1000m', '1'],
    ['1024Mi', '1Gi'],
    ['3072Mi', '3Gi'],
    ['1500m', '1500m'],
    ['2896Mi', '2896Mi'],
    ['0.5', '500m'],
  ])('%s is stored as %s', (input, stored) => {
    expect(canonicalQuantity(input)).toBe(stored);
    expect(quantitiesEqual(input, stored)).toBe(true);
  });
});
