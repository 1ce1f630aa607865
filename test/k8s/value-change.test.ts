// The structured steps behind every rendering (and the JSON's `fields[].change`): what each
// step names and carries, so a tool reading the JSON gets the element, not a text to parse.
import { valueChanges } from '../../lib/k8s/value-change';

const ANTI = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution';
const hostname = { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } };
const zone = { weight: 50, podAffinityTerm: { topologyKey: 'topology.kubernetes.io/zone' } };

const cases: Array<[string, string, unknown, unknown, unknown[]]> = [
  [
    'equal values, keys in another order',
    ANTI,
    [hostname],
    [{ podAffinityTerm: hostname.podAffinityTerm, weight: 100 }],
    [],
  ],
  [
    'element appended to an atomic list, by position',
    ANTI,
    [hostname],
    [hostname, zone],
    [{ op: 'add', at: '[1]', to: zone }],
  ],
  ['element inserted first', ANTI, [hostname], [zone, hostname], [{ op: 'add', at: '[0]', to: zone }]],
  [
    'element removed, at its old position',
    ANTI,
    [zone, hostname],
    [hostname],
    [{ op: 'remove', at: '[0]', from: zone }],
  ],
  [
    'container by merge key',
    'spec.containers',
    [{ name: 'kafka', image: 'a' }],
    [{ name: 'kafka', image: 'b' }],
    [{ op: 'change', at: '[name=kafka].image', from: 'a', to: 'b' }],
  ],
  [
    'volume mount by mountPath',
    'spec.containers[name=kafka].volumeMounts',
    [],
    [{ mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', name: 'aws-iam-token' }],
    [
      {
        op: 'add',
        at: '[mountPath=/var/run/secrets/eks.amazonaws.com/serviceaccount]',
        to: { mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', name: 'aws-iam-token' },
      },
    ],
  ],
  [
    'port by containerPort',
    'spec.containers[name=kafka].ports',
    [{ containerPort: 9092, name: 'tcp-internal' }],
    [{ containerPort: 9092, name: 'tcp-internal', protocol: 'TCP' }],
    [{ op: 'add', at: '[containerPort=9092].protocol', to: 'TCP' }],
  ],
  [
    'duplicate tolerations fall back to position',
    'spec.tolerations',
    [{ key: 'a', effect: 'NoSchedule' }],
    [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', effect: 'NoSchedule' },
    ],
    [{ op: 'add', at: '[1]', to: { key: 'a', effect: 'NoSchedule' } }],
  ],
  [
    'order only',
    'spec.containers[name=kafka].args',
    ['a', 'b'],
    ['b', 'a'],
    [{ op: 'order', at: '', from: ['a', 'b'], to: ['b', 'a'] }],
  ],
  [
    'a list that appears is its elements added',
    'spec.tolerations',
    null,
    [{ key: 'dedicated', effect: 'NoSchedule' }],
    [{ op: 'add', at: '[key=dedicated,effect=NoSchedule]', to: { key: 'dedicated', effect: 'NoSchedule' } }],
  ],
  [
    'a scalar unset',
    'spec.priorityClassName',
    'high',
    null,
    [{ op: 'change', at: '', from: 'high', to: null }],
  ],
  [
    'a map key holding dots is quoted',
    'metadata.labels',
    {},
    { 'app.kubernetes.io/name': 'kafka' },
    [{ op: 'add', at: '["app.kubernetes.io/name"]', to: 'kafka' }],
  ],
];

describe('valueChanges', () => {
  it.each(cases)('%s', (_name, path, from, to, expected) => {
    expect(valueChanges(path, from, to)).toEqual(expected);
  });
});
