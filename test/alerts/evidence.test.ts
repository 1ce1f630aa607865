// Which ingested facts ask for their cluster's analysis at once (lib/alerts/evidence.ts), and
// the time that request carries: each rule as a table of facts, then the decision.
import {
  evidenceClock,
  evidenceRules,
  findEvidence,
  triggerDecision,
  type EvidenceRule,
} from '../../lib/alerts/evidence';
import { fightEvidence } from '../../lib/fights/evidence';
import { isBrokerPodDelete } from '../../lib/operators/evidence';
import type { Fact, ObjectWriteFact } from '../../lib/model/facts';
import { operatorFact, podFact } from '../facts/fixtures';

const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
const brokerPod = {
  metadata: {
    name: 'orders-kafka-1-abcde',
    labels: { app: 'kafka', kafka_cr: 'orders-kafka', brokerId: '1' },
  },
};
const otherPod = { metadata: { name: 'web-7d9f8-xk2lp', labels: { app: 'web' } } };

function objectFact(over: Partial<ObjectWriteFact> = {}): ObjectWriteFact {
  return {
    type: 'object',
    at: '2026-11-02T10:00:05Z',
    doneAt: '2026-11-02T10:00:05Z',
    src: { source: 'sim', line: 1 },
    auditID: 'o1',
    stage: 'ResponseComplete',
    level: 'RequestResponse',
    verb: 'patch',
    user: 'system:serviceaccount:argocd:argocd-application-controller',
    namespace: 'checkout',
    name: 'checkout-api',
    uid: null,
    subresource: null,
    code: 200,
    apiGroup: 'apps',
    resource: 'deployments',
    ...over,
  };
}

describe('a broker pod deleted on the operator’s behalf (lib/koperator/evidence.ts)', () => {
  const del = (over: Parameters<typeof podFact>[0]) =>
    podFact({ verb: 'delete', code: 200, user: OPERATOR, response: brokerPod, ...over });
  it.each<[string, Fact, readonly string[], boolean]>([
    ['the operator deletes a labelled broker pod', del({}), [], true],
    [
      'at Metadata level, by the name pattern alone',
      del({ response: undefined, level: 'Metadata' }),
      [],
      true,
    ],
    ['a person deletes a broker pod (no operator users configured)', del({ user: 'alice' }), [], true],
    ['the operator, named in OPERATOR_USERS', del({}), [OPERATOR], true],
    ['someone not in OPERATOR_USERS', del({ user: 'alice' }), [OPERATOR], false],
    [
      'the kubelet’s final delete',
      del({ user: 'system:node:ip-10-0-0-1', gracePeriodSeconds: 0 }),
      [],
      false,
    ],
    [
      'the pod garbage collector',
      del({ user: 'system:serviceaccount:kube-system:pod-garbage-collector' }),
      [],
      false,
    ],
    ['a refused delete (403)', del({ code: 403 }), [], false],
    [
      'a delete of a pod that is not a broker',
      del({ name: 'web-7d9f8-xk2lp', response: otherPod }),
      [],
      false,
    ],
    ['the create of a broker pod', podFact({ verb: 'create', user: OPERATOR }), [], false],
    ['an eviction (a subresource)', del({ verb: 'create', subresource: 'eviction', code: 201 }), [], false],
    ['a koperator log line', operatorFact({ msg: 'broker pod deleted' }), [], false],
  ])('%s → %s', (_name, fact, users, expected) => {
    expect(isBrokerPodDelete(fact, users)).toBe(expected);
  });
});

describe('writes that may be a fight’s (lib/fights/evidence.ts)', () => {
  const argo = objectFact({ auditID: 'a1' });
  const hpa = objectFact({
    auditID: 'h1',
    user: 'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
    subresource: 'scale',
  });
  const impersonated = objectFact({ auditID: 'i1', user: 'system:admin', impersonated: 'flux' });
  const otherObject = objectFact({
    auditID: 'x1',
    name: 'cart-api',
    user: 'system:serviceaccount:kube-system:hpa',
  });
  const hot = objectFact({ auditID: 'p1', defaulted: ['spec.template.spec.dnsPolicy'] });
  const cnpgDelete = podFact({
    verb: 'delete',
    code: 200,
    user: 'system:serviceaccount:cnpg-system:cnpg-manager',
    namespace: 'db',
    name: 'pg-ledger-1',
    response: { metadata: { name: 'pg-ledger-1', labels: { 'cnpg.io/cluster': 'pg-ledger' } } },
  });
  it.each<[string, Fact[], string[]]>([
    ['one writer of an object: no fight yet', [argo, objectFact({ auditID: 'a2' })], []],
    ['two writers of one object: both writes', [argo, hpa], ['a1', 'h1']],
    ['two writers of two objects: none', [argo, otherObject], []],
    ['an impersonated writer counts as the user it acts for', [argo, impersonated], ['a1', 'i1']],
    ['a refused write does not make a second writer', [argo, { ...hpa, code: 409 }], []],
    ['a patch that left out defaulted fields (a hot loop’s shape)', [hot], ['p1']],
    ['an operator deleting its own pod (a recreate loop’s cycle)', [cnpgDelete], [cnpgDelete.auditID]],
    [
      'the built-in ReplicaSet controller deleting a pod',
      [{ ...cnpgDelete, user: 'system:serviceaccount:kube-system:replicaset-controller' }],
      [],
    ],
    [
      'koperator deleting a broker pod is koperator’s, not a fight',
      [podFact({ verb: 'delete', response: brokerPod })],
      [],
    ],
  ])('%s', (_name, facts, ids) => {
    expect(fightEvidence(facts).map((f) => (f.type === 'operator' ? '' : f.auditID))).toEqual(ids);
  });
});

describe('the evidence of an ingested batch and the request it makes', () => {
  const rules = evidenceRules();
  const brokerDelete = podFact({
    verb: 'delete',
    code: 200,
    at: '2026-11-02T10:00:01.123456Z',
    response: brokerPod,
  });
  const later = operatorFact({ at: '2026-11-02T10:00:02.5Z' });

  it('counts each kind and takes the newest event of all the facts, rounded up to the millisecond', () => {
    const e = findEvidence([brokerDelete, later, objectFact({ at: '2026-11-02T10:00:00Z' })], rules);
    expect(e).toEqual({
      counts: { 'broker-pod-delete': 1 },
      newestMs: Date.parse('2026-11-02T10:00:02.500Z'),
    });
    // Microseconds past the millisecond: a window ending at ...123Z would miss the delete at ...123456Z.
    expect(new Date(findEvidence([brokerDelete], rules).newestMs!).toISOString()).toBe(
      '2026-11-02T10:00:01.124Z',
    );
  });

  it('leaves out facts without a readable time (no facts object holds them)', () => {
    expect(findEvidence([{ ...brokerDelete, at: 'yesterday' }], rules)).toEqual({
      counts: {},
      newestMs: null,
    });
  });

  it('takes a rule a detector adds, beside the built-in ones', () => {
    const custom: EvidenceRule = {
      kind: 'custom-write',
      select: (facts) => facts.filter((f) => f.type === 'object'),
    };
    expect(findEvidence([objectFact()], [...rules, custom]).counts).toEqual({ 'custom-write': 1 });
  });

  it('names every built-in rule: koperator’s deletes, fights and live drift', () => {
    expect(rules.map((r) => r.kind)).toEqual(['broker-pod-delete', 'fight-write', 'drift-write']);
  });

  const swap = podFact({
    verb: 'patch',
    code: 200,
    user: 'bob@corp.example',
    at: '2026-11-02T10:00:03Z',
    request: { spec: { containers: [{ name: 'kafka', image: 'kafka:4.0.0' }] } },
    response: brokerPod,
  });
  it.each<[string, Fact[], readonly string[], Record<string, number>]>([
    ['a person’s patch of a broker pod asks at once', [swap], [], { 'drift-write': 1 }],
    [
      'so does kubectl debug at Metadata level',
      [
        {
          ...swap,
          verb: 'update',
          subresource: 'ephemeralcontainers',
          request: undefined,
          response: undefined,
          level: 'Metadata',
        },
      ],
      [],
      { 'drift-write': 1 },
    ],
    [
      'the operator’s own patch, named in OPERATOR_USERS, does not',
      [{ ...swap, user: OPERATOR }],
      [OPERATOR],
      {},
    ],
    [
      'beside a delete of the same batch, both count',
      [brokerDelete, swap],
      [],
      { 'broker-pod-delete': 1, 'drift-write': 1 },
    ],
  ])('drift-write: %s', (_name, facts, users, counts) => {
    expect(findEvidence(facts, evidenceRules({ operatorUsers: users })).counts).toEqual(counts);
  });

  const now = Date.parse('2026-11-02T10:01:00Z');
  const evidence = findEvidence([brokerDelete, later], rules);
  it.each([
    ['no evidence', findEvidence([later], rules), now, { action: 'none' }],
    [
      'evidence a minute old',
      evidence,
      now,
      {
        action: 'request',
        request: { cluster: 'eks-a', time: '2026-11-02T10:00:02.500Z' },
        counts: { 'broker-pod-delete': 1 },
      },
    ],
    [
      'evidence stamped after the clock (a cluster clock ahead of Lambda’s)',
      evidence,
      Date.parse('2026-11-02T10:00:00Z'),
      {
        action: 'request',
        request: { cluster: 'eks-a', time: '2026-11-02T10:00:02.500Z' },
        counts: { 'broker-pod-delete': 1 },
      },
    ],
    [
      'evidence older than the maximum age (a backfill)',
      evidence,
      Date.parse('2026-11-02T10:15:03Z'),
      { action: 'too-old', time: '2026-11-02T10:00:02.500Z', counts: { 'broker-pod-delete': 1 } },
    ],
  ])('%s', (_name, e, clock, expected) => {
    expect(triggerDecision('eks-a', e, clock, 900_000)).toEqual(expected);
  });
});

describe('the clock evidence is judged by: the object’s arrival in S3', () => {
  const now = Date.parse('2026-11-02T11:00:00Z');
  it.each<[string, string | undefined, number]>([
    ['the arrival, when S3 says it', '2026-11-02T10:40:00Z', Date.parse('2026-11-02T10:40:00Z')],
    ['now, for an arrival after our clock (skew)', '2026-11-02T11:00:05Z', now],
    ['now, when no arrival is known', undefined, now],
    ['now, for an arrival that does not parse', 'yesterday', now],
  ])('%s', (_name, arrivedAt, want) => {
    expect(evidenceClock(arrivedAt, now)).toBe(want);
  });

  it('keeps live evidence live when our own retry reads the object 20 minutes after it arrived', () => {
    const evidence = { counts: { 'broker-pod-delete': 1 }, newestMs: Date.parse('2026-11-02T10:39:58Z') };
    const maxAge = 15 * 60_000;
    // Judged by the clock, the retry would leave it to the schedule as a backfill.
    expect(triggerDecision('eks-a', evidence, now, maxAge).action).toBe('too-old');
    expect(
      triggerDecision('eks-a', evidence, evidenceClock('2026-11-02T10:40:00Z', now), maxAge),
    ).toMatchObject({
      action: 'request',
      request: { cluster: 'eks-a', time: '2026-11-02T10:39:58.000Z' },
    });
  });
});
