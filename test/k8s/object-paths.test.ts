// Any object's fields as the fight detectors read them (lib/k8s/object-paths.ts), table-driven
// in the style of apimachinery's strategicpatch tests: object or patch in, paths and tokens out.
import {
  ABSENT,
  defaultedPaths,
  leavesUnder,
  mergePatchLeaves,
  objectLeaves,
  pointerPath,
  resourceOfKind,
  valueToken,
} from '../../lib/k8s/object-paths';

describe('objectLeaves', () => {
  const cases: Array<{ what: string; obj: unknown; paths: string[] }> = [
    {
      what: 'server-owned metadata, kind and status left out',
      obj: {
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        metadata: {
          name: 'a',
          uid: 'u',
          resourceVersion: '1',
          generation: 3,
          managedFields: [{}],
          labels: { app: 'a' },
        },
        spec: { replicas: 3 },
        status: { replicas: 3 },
      },
      paths: ['metadata.labels.app', 'spec.replicas'],
    },
    {
      what: 'a webhook configuration keyed by webhook name',
      obj: {
        webhooks: [
          { name: 'w.x.io', clientConfig: { caBundle: 'Q0E=' } },
          { name: 'w.y.io', sideEffects: 'None' },
        ],
      },
      paths: ['webhooks[name=w.x.io].clientConfig.caBundle', 'webhooks[name=w.y.io].sideEffects'],
    },
    {
      what: 'a pod template read with the Pod schema (containers by name, ports by containerPort, args atomic)',
      obj: {
        spec: {
          template: {
            metadata: { creationTimestamp: null, labels: { app: 'a' } },
            spec: {
              containers: [{ name: 'c', args: ['-x'], ports: [{ containerPort: 80, protocol: 'TCP' }] }],
            },
          },
        },
      },
      paths: [
        'spec.template.metadata.labels.app',
        'spec.template.spec.containers[name=c].args',
        'spec.template.spec.containers[name=c].ports[containerPort=80].protocol',
      ],
    },
    {
      what: 'a list of unnamed objects is one value',
      obj: { spec: { rules: [{ host: 'a' }, { host: 'b' }] } },
      paths: ['spec.rules'],
    },
    {
      what: 'map keys with dots or slashes quoted',
      obj: { metadata: { annotations: { 'example.com/x': 'y' } } },
      paths: ['metadata.annotations["example.com/x"]'],
    },
  ];
  it.each(cases)('$what', ({ obj, paths }) => {
    expect([...objectLeaves(obj).keys()]).toEqual(paths);
  });
});

describe('mergePatchLeaves', () => {
  const cases: Array<{ what: string; body: unknown; want: Record<string, string> }> = [
    { what: 'a scalar', body: { spec: { replicas: 3 } }, want: { 'spec.replicas': '3' } },
    {
      what: 'a null removes',
      body: { metadata: { labels: { x: null } } },
      want: { 'metadata.labels.x': ABSENT },
    },
    {
      what: 'directives skipped, keyed elements by key',
      body: {
        '$setElementOrder/webhooks': [{ name: 'a' }],
        webhooks: [{ name: 'a', clientConfig: { caBundle: '' } }],
      },
      want: { 'webhooks[name=a].clientConfig.caBundle': valueToken('') },
    },
    {
      what: '$patch: delete of an element removes it',
      body: { webhooks: [{ name: 'a', $patch: 'delete' }] },
      want: { 'webhooks[name=a]': ABSENT },
    },
  ];
  it.each(cases)('$what', ({ body, want }) => {
    expect(Object.fromEntries(mergePatchLeaves(body))).toEqual(want);
  });
});

describe('valueToken', () => {
  it('numbers and booleans as they are, strings and structures hashed (no value survives)', () => {
    expect([valueToken(3), valueToken(true), valueToken(null)]).toEqual(['3', 'true', ABSENT]);
    const secret = 'hunter2-s3cr3t-password';
    expect(valueToken(secret)).not.toContain('hunter2');
    expect(valueToken({ password: secret })).not.toContain('hunter2');
    expect(valueToken('a')).not.toEqual(valueToken('b'));
    expect(valueToken({ a: 1, b: 2 })).toEqual(valueToken({ b: 2, a: 1 }));
  });
});

describe('leavesUnder', () => {
  it('reads what a patch set back from the stored object, and ABSENT where nothing is left', () => {
    const after = objectLeaves({ spec: { replicas: 6, template: { spec: { dnsPolicy: 'ClusterFirst' } } } });
    expect(Object.fromEntries(leavesUnder(['spec.replicas', 'spec.template', 'spec.paused'], after))).toEqual(
      {
        'spec.replicas': '6',
        'spec.template.spec.dnsPolicy': valueToken('ClusterFirst'),
        'spec.paused': ABSENT,
      },
    );
  });
});

describe('pointerPath', () => {
  const obj = { webhooks: [{ name: 'a' }, { name: 'b' }], spec: { args: ['x'] } };
  it.each([
    { pointer: '/webhooks/1/clientConfig/caBundle', want: 'webhooks[name=b].clientConfig.caBundle' },
    { pointer: '/spec/args/0', want: 'spec.args' },
    { pointer: '/metadata/labels/a~1b', want: 'metadata.labels["a/b"]' },
  ])('$pointer → $want', ({ pointer, want }) => {
    expect(pointerPath(pointer, obj)).toBe(want);
  });
});

describe('defaultedPaths', () => {
  it('the top-most paths the response has and the request lacks, outside metadata and status', () => {
    const request = {
      metadata: { name: 'a' },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const response = {
      metadata: { name: 'a', uid: 'u', generation: 2 },
      spec: {
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain' },
        template: {
          spec: {
            securityContext: {},
            dnsPolicy: 'ClusterFirst',
            containers: [{ name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent' }],
          },
        },
      },
      status: { replicas: 1 },
    };
    expect(defaultedPaths(request, response)).toEqual([
      'spec.revisionHistoryLimit',
      'spec.persistentVolumeClaimRetentionPolicy',
      'spec.template.spec.dnsPolicy',
      'spec.template.spec.containers[name=c].imagePullPolicy',
    ]);
  });
});

describe('resourceOfKind', () => {
  it.each([
    ['Cluster', 'clusters'],
    ['CatalogSource', 'catalogsources'],
    ['ReplicaSet', 'replicasets'],
    ['Ingress', 'ingresses'],
    ['NetworkPolicy', 'networkpolicies'],
  ])('%s → %s', (kind, resource) => expect(resourceOfKind(kind)).toBe(resource));
});
