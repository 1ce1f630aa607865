// Which facts of an ingested batch may be a live drift (lib/drift/evidence.ts): a table of
// writes to pods, and the operator learned from a create in the same batch.
import { driftEvidence, isDriftWrite } from '../../lib/drift/evidence';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import type { Fact } from '../../lib/model/facts';
import { operatorFact, podFact } from '../facts/fixtures';

const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
const declared = {
  metadata: {
    labels: { app: 'kafka', kafka_cr: 'orders-kafka', brokerId: '1' },
    annotations: { 'prometheus.io/scrape': 'true' },
  },
  spec: { containers: [{ name: 'kafka', image: 'ghcr.io/adobe/kafka:2.13-3.9.1' }] },
};
const brokerPod = {
  metadata: {
    name: 'orders-kafka-1-abcde',
    labels: declared.metadata.labels,
    annotations: { ...declared.metadata.annotations, [LAST_APPLIED_ANNOTATION]: encodeLastApplied(declared) },
  },
  spec: { containers: [{ name: 'kafka', image: 'ghcr.io/adobe/kafka:2.13-4.0.0' }] },
};
const webPod = { metadata: { name: 'web-7d9f8-xk2lp', labels: { app: 'web' } } };

const write = (over: Parameters<typeof podFact>[0]) =>
  podFact({ verb: 'patch', code: 200, user: 'bob@corp.example', response: brokerPod, ...over });
const imageSwap = { spec: { containers: [{ name: 'kafka', image: 'ghcr.io/adobe/kafka:2.13-4.0.0' }] } };
const annotate = (key: string) => ({ metadata: { annotations: { [key]: 'x' } } });

describe('a write that may be a drift', () => {
  it.each<[string, Fact, string[], boolean]>([
    ['a person patches a broker pod’s image', write({ request: imageSwap }), [], true],
    ['a full update of a broker pod', write({ verb: 'update', request: brokerPod }), [], true],
    [
      'a JSON patch (an array body)',
      write({ request: [{ op: 'replace', path: '/spec/x', value: 1 }] }),
      [],
      true,
    ],
    [
      'through impersonation: the authenticated user is not the operator',
      write({ user: 'alice', impersonated: OPERATOR, request: imageSwap }),
      [OPERATOR],
      true,
    ],
    [
      'kubectl debug at Metadata level (no bodies)',
      write({ verb: 'update', subresource: 'ephemeralcontainers', response: undefined, level: 'Metadata' }),
      [],
      true,
    ],
    [
      'an in-place resize at Metadata level',
      write({ subresource: 'resize', response: undefined, level: 'Metadata' }),
      [],
      true,
    ],
    [
      'a label koperator declares',
      write({ request: { metadata: { labels: { brokerId: null } } } }),
      [],
      true,
    ],
    ['an annotation koperator declares', write({ request: annotate('prometheus.io/scrape') }), [], true],
    [
      'an annotation koperator does not declare (another controller)',
      write({ request: annotate('example.com/seen') }),
      [],
      false,
    ],
    ['a plain patch logged at Metadata level', write({ response: undefined, level: 'Metadata' }), [], false],
    ['the operator’s own write', write({ user: OPERATOR, request: imageSwap }), [OPERATOR], false],
    ['a dry run', write({ request: imageSwap, dryRun: true }), [], false],
    ['a refused write (422)', write({ request: imageSwap, code: 422 }), [], false],
    ['the kubelet’s status', write({ subresource: 'status', user: 'system:node:ip-10-0-0-1' }), [], false],
    [
      'the scheduler’s binding',
      write({ verb: 'create', subresource: 'binding', user: 'system:kube-scheduler' }),
      [],
      false,
    ],
    [
      'a built-in controller',
      write({ user: 'system:serviceaccount:kube-system:replicaset-controller', request: imageSwap }),
      [],
      false,
    ],
    [
      'a pod that is not a broker',
      write({ name: 'web-7d9f8-xk2lp', response: webPod, request: imageSwap }),
      [],
      false,
    ],
    ['a delete', write({ verb: 'delete' }), [], false],
    ['a koperator log line', operatorFact(), [], false],
  ])('%s → %s', (_name, fact, operators, expected) => {
    expect(isDriftWrite(fact, new Set(operators))).toBe(expected);
  });
});

describe('driftEvidence over a batch', () => {
  const create = podFact({ verb: 'create', user: OPERATOR, response: brokerPod, auditID: 'c1' });
  const operatorPatch = write({ user: OPERATOR, request: imageSwap, auditID: 'o1' });
  const bobPatch = write({ request: imageSwap, auditID: 'b1' });
  it.each<[string, Fact[], string[], string[]]>([
    [
      'the creator of a broker pod in the batch is the operator',
      [create, operatorPatch, bobPatch],
      [],
      ['b1'],
    ],
    [
      'without its create, the operator’s patch asks too (one extra run)',
      [operatorPatch, bobPatch],
      [],
      ['o1', 'b1'],
    ],
    ['OPERATOR_USERS configured', [operatorPatch, bobPatch], [OPERATOR], ['b1']],
  ])('%s', (_name, facts, users, ids) => {
    expect(driftEvidence(facts, users).map((f) => (f.type === 'operator' ? '' : f.auditID))).toEqual(ids);
  });
});
