import { formatPath, jsonPointerToPath, type PathSegment } from '../../lib/k8s/paths';

describe('formatPath', () => {
  it.each<[PathSegment[], string]>([
    [
      ['spec', 'containers', { key: 'name', value: 'kafka' }, 'resources', 'requests', 'cpu'],
      'spec.containers[name=kafka].resources.requests.cpu',
    ],
    [['metadata', 'labels', 'app.kubernetes.io/name'], 'metadata.labels["app.kubernetes.io/name"]'],
    [['metadata', 'labels', 'brokerId'], 'metadata.labels.brokerId'],
    [['metadata', 'labels', 'kafka_cr'], 'metadata.labels.kafka_cr'],
    [['spec', 'volumes', { key: 'name', value: 'data-0' }], 'spec.volumes[name=data-0]'],
    [
      [
        'spec',
        'containers',
        { key: 'name', value: 'kafka' },
        'ports',
        { key: 'containerPort', value: '9092' },
      ],
      'spec.containers[name=kafka].ports[containerPort=9092]',
    ],
    [
      [
        'spec',
        'containers',
        { key: 'name', value: 'kafka' },
        'volumeMounts',
        { key: 'mountPath', value: '/kafka-logs' },
      ],
      'spec.containers[name=kafka].volumeMounts[mountPath=/kafka-logs]',
    ],
    [['spec', 'tolerations'], 'spec.tolerations'],
    [['metadata', 'annotations', 'a b'], 'metadata.annotations["a b"]'],
    [['spec', 'x', { key: 'name', value: 'we]ird' }], 'spec.x[name="we]ird"]'],
    [[], ''],
  ])('%j -> %s', (segments, path) => {
    expect(formatPath(segments)).toBe(path);
  });
});

describe('jsonPointerToPath', () => {
  const stored = {
    metadata: { labels: { app: 'kafka' }, annotations: { 'scaleops.sh/applied-policy': 'production' } },
    spec: {
      containers: [
        {
          name: 'kafka',
          ports: [{ containerPort: 9092 }],
          env: [
            { name: 'A', value: '1' },
            { name: 'KAFKA_HEAP_OPTS', value: '-Xmx1G' },
          ],
        },
        { name: 'fluent-bit' },
      ],
      tolerations: [{ key: 'a', operator: 'Exists' }],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100 }] } },
    },
  };

  it.each<[string, string]>([
    ['/spec/containers/0/resources/requests/cpu', 'spec.containers[name=kafka].resources.requests.cpu'],
    [
      '/spec/containers/1/resources/requests/memory',
      'spec.containers[name=fluent-bit].resources.requests.memory',
    ],
    ['/spec/containers/0/env/1/value', 'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value'],
    ['/spec/containers/0/ports/0', 'spec.containers[name=kafka].ports[containerPort=9092]'],
    [
      '/metadata/annotations/scaleops.sh~1applied-policy',
      'metadata.annotations["scaleops.sh/applied-policy"]',
    ],
    ['/metadata/annotations/a~0b', 'metadata.annotations["a~b"]'],
    ['/metadata/labels/team', 'metadata.labels.team'],
    ['/spec/tolerations/-', 'spec.tolerations'],
    ['/spec/tolerations/0', 'spec.tolerations'],
    ['/spec/tolerations/0/key', 'spec.tolerations'],
    ['/spec/tolerations', 'spec.tolerations'],
    [
      '/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/1',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
    ],
    ['/spec/containers/-', 'spec.containers'], // appended element with no value given: the list
    ['/spec/containers/7/image', 'spec.containers'], // index not in the stored object: the list
    ['/spec/nodeSelector', 'spec.nodeSelector'],
    ['', ''],
  ])('%s -> %s', (pointer, path) => {
    expect(jsonPointerToPath(pointer, stored)).toBe(path);
  });

  it('names an appended element by the op value when given one', () => {
    expect(jsonPointerToPath('/spec/containers/-', stored, { name: 'istio-proxy' })).toBe(
      'spec.containers[name=istio-proxy]',
    );
  });

  it('works without a stored object, collapsing what it cannot resolve', () => {
    expect(jsonPointerToPath('/spec/containers/0/image', undefined)).toBe('spec.containers');
    expect(jsonPointerToPath('/metadata/labels/app.kubernetes.io~1name', undefined)).toBe(
      'metadata.labels["app.kubernetes.io/name"]',
    );
  });
});
