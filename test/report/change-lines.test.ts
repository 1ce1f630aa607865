// The line every output prints for a field change: one case per kind of field a webhook or a
// person writes in the corpora (quantities, an image, an env value, an anti-affinity term
// appended, a debug container, tolerations, the pod-identity webhook's env and volumes), and
// the hand-made ones the issue names (a sidecar injected, an env var added, a toleration
// changed, an order-only change, resources, an annotation map).
import { changeLines } from '../../lib/report/change-lines';

const term = (weight: number, topologyKey: string, cluster = 'search-kafka') => ({
  weight,
  podAffinityTerm: { labelSelector: { matchLabels: { app: 'kafka', kafka_cr: cluster } }, topologyKey },
});
// The same term as another serializer writes it: keys in another order.
const termReordered = (weight: number, topologyKey: string, cluster = 'search-kafka') => ({
  podAffinityTerm: { topologyKey, labelSelector: { matchLabels: { kafka_cr: cluster, app: 'kafka' } } },
  weight,
});
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' };
const notReady = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const kafka = { name: 'kafka', image: 'ghcr.io/adobe/kafka:2.13-3.7.2' };
const sidecar = {
  name: 'istio-proxy',
  image: 'docker.io/istio/proxyv2:1.20.0',
  args: ['proxy', 'sidecar'],
  resources: { requests: { cpu: '100m', memory: '128Mi' } },
};
const ANTI = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution';

const cases: Array<[string, string, unknown, unknown, string[]]> = [
  // --- kinds written in the corpora ---
  ['cpu request (ScaleOps)', 'spec.containers[name=kafka].resources.requests.cpu', '1', '392m', ['1 → 392m']],
  [
    'memory request in bytes (ScaleOps)',
    'spec.containers[name=fluent-bit].resources.requests.memory',
    '256Mi',
    '71420084',
    ['256Mi → 71420084'],
  ],
  [
    'image (a person, drift)',
    'spec.containers[name=kafka].image',
    'ghcr.io/adobe/kafka:2.13-3.7.2',
    'ghcr.io/adobe/kafka:2.13-4.0.0',
    ['ghcr.io/adobe/kafka:2.13-3.7.2 → ghcr.io/adobe/kafka:2.13-4.0.0'],
  ],
  [
    'env value',
    'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
    '-Xmx2G -Xms2G',
    '-Xmx3G -Xms3G',
    ['-Xmx2G -Xms2G → -Xmx3G -Xms3G'],
  ],
  [
    'anti-affinity term appended, keys reordered (zone-spread injector)',
    ANTI,
    [term(100, 'kubernetes.io/hostname')],
    [termReordered(100, 'kubernetes.io/hostname'), term(50, 'topology.kubernetes.io/zone')],
    ['+ [1] {weight: 50, podAffinityTerm.topologyKey: topology.kubernetes.io/zone, …}'],
  ],
  [
    'debug container added (kubectl debug, drift)',
    'spec.ephemeralContainers[name=debugger-65rkw]',
    null,
    { name: 'debugger-65rkw', image: 'busybox:1.36', targetContainerName: 'kafka', resources: {} },
    ['+ {name: debugger-65rkw, image: busybox:1.36, resources: {}, targetContainerName: kafka}'],
  ],
  [
    'tolerations defaulted by the API server (drift)',
    'spec.tolerations',
    [dedicated],
    [{ ...dedicated }, notReady],
    ['+ [key=node.kubernetes.io/not-ready,effect=NoExecute] {operator: Exists, tolerationSeconds: 300}'],
  ],
  [
    'env var injected (EKS pod identity webhook)',
    'spec.containers[name=postgres].env[name=AWS_REGION]',
    null,
    { name: 'AWS_REGION', value: 'eu-west-1' },
    ['+ {name: AWS_REGION, value: eu-west-1}'],
  ],
  [
    'projected volume injected (EKS pod identity webhook)',
    'spec.volumes[name=aws-iam-token]',
    null,
    {
      name: 'aws-iam-token',
      projected: { sources: [{ serviceAccountToken: { audience: 'sts.amazonaws.com', path: 'token' } }] },
    },
    ['+ {name: aws-iam-token, projected.sources[0].serviceAccountToken.audience: sts.amazonaws.com, …}'],
  ],
  // --- hand-made ---
  [
    'sidecar injected into the container list',
    'spec.containers',
    [kafka],
    [kafka, sidecar],
    [
      '+ [name=istio-proxy] {image: docker.io/istio/proxyv2:1.20.0, args: [proxy, sidecar], resources.requests.cpu: 100m, …}',
    ],
  ],
  [
    'env var added to a container',
    'spec.containers[name=kafka].env',
    [{ name: 'KAFKA_HEAP_OPTS', value: '-Xmx4G' }],
    [
      { name: 'KAFKA_HEAP_OPTS', value: '-Xmx4G' },
      { name: 'JAVA_TOOL_OPTIONS', value: '-javaagent:/otel/agent.jar' },
    ],
    ['+ [name=JAVA_TOOL_OPTIONS] {value: -javaagent:/otel/agent.jar}'],
  ],
  [
    'toleration changed, found by key and effect',
    'spec.tolerations',
    [dedicated, notReady],
    [dedicated, { ...notReady, tolerationSeconds: 30 }],
    ['~ [key=node.kubernetes.io/not-ready,effect=NoExecute].tolerationSeconds: 300 → 30'],
  ],
  [
    'toleration removed',
    'spec.tolerations',
    [dedicated, notReady],
    [notReady],
    ['- [key=dedicated,effect=NoSchedule] {operator: Equal, value: kafka}'],
  ],
  [
    'order only, by merge key',
    'spec.containers',
    [kafka, sidecar],
    [sidecar, kafka],
    ['order changed: kafka, istio-proxy → istio-proxy, kafka'],
  ],
  [
    'order only, scalar list',
    'spec.containers[name=kafka].args',
    ['a', 'b'],
    ['b', 'a'],
    ['order changed: a, b → b, a'],
  ],
  [
    'order only, terms without a key',
    ANTI,
    [term(100, 'kubernetes.io/hostname'), term(50, 'topology.kubernetes.io/zone')],
    [termReordered(50, 'topology.kubernetes.io/zone'), term(100, 'kubernetes.io/hostname')],
    ['order changed: {weight: 100, …}, {weight: 50, …} → {weight: 50, …}, {weight: 100, …}'],
  ],
  [
    'resources of a container, nested paths',
    'spec.containers[name=kafka].resources',
    { limits: { memory: '8Gi' }, requests: { cpu: '1', memory: '6Gi' } },
    { requests: { memory: '6Gi', cpu: '500m' }, limits: { memory: '12Gi', cpu: '2' } },
    ['+ limits.cpu: 2', '~ limits.memory: 8Gi → 12Gi', '~ requests.cpu: 1 → 500m'],
  ],
  [
    'annotation map: one key added, one changed',
    'metadata.annotations',
    { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9020' },
    {
      'prometheus.io/port': '9404',
      'prometheus.io/scrape': 'true',
      'sidecar.istio.io/status': '{"version":"1"}',
    },
    ['~ ["prometheus.io/port"]: 9020 → 9404', '+ ["sidecar.istio.io/status"]: {"version":"1"}'],
  ],
  [
    'term changed in place, by position',
    ANTI,
    [term(100, 'kubernetes.io/hostname')],
    [term(40, 'kubernetes.io/hostname')],
    ['~ [0].weight: 100 → 40'],
  ],
  [
    'scalar set where it was unset',
    'spec.priorityClassName',
    null,
    'kafka-critical',
    ['(unset) → kafka-critical'],
  ],
  [
    'empty string is quoted, not blank',
    'spec.containers[name=kafka].env[name=OPTS].value',
    '',
    '-v',
    ['"" → -v'],
  ],
];

describe('changeLines', () => {
  it.each(cases)('%s', (_name, path, from, to, expected) => {
    expect(changeLines({ path, from, to })).toEqual(expected);
  });

  it('keeps the identity whole and cuts the content when the line is narrow', () => {
    const [line] = changeLines({ path: 'spec.containers', from: [kafka], to: [kafka, sidecar] }, { max: 40 });
    expect(line.startsWith('+ [name=istio-proxy] {')).toBe(true);
    expect(line.endsWith('…}')).toBe(true);
    expect([...line].length).toBeLessThanOrEqual(40);
  });

  it('counts the steps past the last line it prints', () => {
    const from = Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, '1']));
    const to = Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, '2']));
    expect(changeLines({ path: 'metadata.labels', from, to }, { maxLines: 3 })).toEqual([
      '~ a: 1 → 2',
      '~ b: 1 → 2',
      '… 2 more changes',
    ]);
  });

  it('says what each side held when the values are equal', () => {
    expect(changeLines({ path: 'spec.x', from: 'same', to: 'same' })).toEqual(['same → same']);
  });

  it('uses the steps a field carries rather than its shortened values', () => {
    const change = [{ op: 'add' as const, at: '[1]', to: { weight: 50 } }];
    expect(
      changeLines({ path: ANTI, from: '[{"weig… (900 chars)', to: '[{"po… (1800 chars)', change }),
    ).toEqual(['+ [1] {weight: 50}']);
  });
});
