// The analysis builds one broker's objects at a time (lib/analyze/partition.ts). Its parts
// must give every broker pod exactly the facts the whole-timeline build gives it: same pods,
// same creates, writes, deletions and operator lines, and the same operator users.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { partitionFacts } from '../../lib/analyze/partition';
import { assembleIncarnations, type Incarnation } from '../../lib/analyze/timeline';
import { FactStore } from '../../lib/facts/store';
import type { Fact, OperatorFact, PodWriteFact } from '../../lib/model/facts';
import { simulateCluster } from '../../sim';
import { laterConfirmedOperatorFacts } from '../facts/fixtures';
import { simulatedFacts } from '../support/sim-facts';
import { buildTimeline } from '../support/whole-timeline';

const factsOf = simulatedFacts;

/** An incarnation as the facts it holds, by auditID (or message and time for lines). */
function summary(inc: Incarnation): string {
  return JSON.stringify({
    pod: `${inc.namespace}/${inc.name}`,
    uid: inc.uid,
    broker: inc.broker,
    byName: inc.brokerFromName,
    create: inc.create?.auditID ?? null,
    writes: inc.writes.map((w) => w.auditID),
    deletion: inc.deletion && { ...inc.deletion, facts: inc.deletion.facts.map((f) => f.auditID) },
    refused: inc.refusedEvictions.map((f) => f.auditID),
    lines: inc.operatorLines.map((l) => `${l.at} ${l.msg}`),
  });
}

function byParts(facts: Fact[]): { incarnations: string[]; users: string[] } {
  const store = FactStore.of(facts);
  const split = partitionFacts(store);
  const users = new Set(split.learnedUsers);
  const incarnations: string[] = [];
  // Twice, as the analysis does when a later part confirms a user.
  for (let pass = 0; pass < 2; pass++) {
    incarnations.length = 0;
    for (const part of split.parts) {
      const pods = part.pods.map((i) => store.fact(i) as PodWriteFact);
      const lines = part.lines.map((i) => store.fact(i) as OperatorFact);
      for (const inc of assembleIncarnations(pods, lines, users, true)) incarnations.push(summary(inc));
    }
  }
  return { incarnations: incarnations.sort(), users: [...users].sort() };
}

describe.each(['RequestResponse', 'Metadata'] as const)('parts at audit level %s', (auditLevel) => {
  it.each([1, 2, 3, 7])('seed %d: every broker pod gets the facts the whole timeline gives it', (seed) => {
    const facts = factsOf(simulateCluster({ seed, start: '2026-11-03T08:00:00Z', auditLevel }));
    const whole = buildTimeline(facts);
    const parts = byParts(facts);
    expect(parts.incarnations).toEqual(whole.incarnations.map(summary).sort());
    expect(parts.users).toEqual([...whole.operatorUsers].sort());
    // What every part shares: the end of the data and the CR and ConfigMap writes, in order.
    const split = partitionFacts(FactStore.of(facts));
    expect(split.newestAt).toBe(whole.newestAt);
    expect(split.kafkaClusterWrites.map((f) => f.auditID)).toEqual(
      whole.kafkaClusterWrites.map((f) => f.auditID),
    );
    expect(split.configMapWrites.map((f) => f.auditID)).toEqual(whole.configMapWrites.map((f) => f.auditID));
    expect(parts.incarnations.length).toBeGreaterThan(20);
  });
});

it('keeps an unnamed create (Metadata level, generateName) with the binding that names it', () => {
  const base = {
    src: { source: 'sim', line: 0 },
    stage: 'ResponseComplete',
    level: 'Metadata',
    user: 'system:serviceaccount:kafka:kafka-operator',
    namespace: 'kafka',
    uid: null,
    code: 201,
  };
  const facts: PodWriteFact[] = [
    {
      ...base,
      type: 'pod',
      at: '2026-11-03T08:00:00Z',
      doneAt: '2026-11-03T08:00:00Z',
      auditID: 'c1',
      verb: 'create',
      name: null,
      subresource: null,
    },
    {
      ...base,
      type: 'pod',
      at: '2026-11-03T08:00:01Z',
      doneAt: '2026-11-03T08:00:01Z',
      auditID: 'c2',
      verb: 'create',
      name: null,
      subresource: null,
    },
    {
      ...base,
      type: 'pod',
      at: '2026-11-03T08:00:02Z',
      doneAt: '2026-11-03T08:00:02Z',
      auditID: 'b1',
      verb: 'create',
      name: 'orders-kafka-2-bbbbb',
      subresource: 'binding',
      user: 'system:kube-scheduler',
    },
    {
      ...base,
      type: 'pod',
      at: '2026-11-03T08:00:03Z',
      doneAt: '2026-11-03T08:00:03Z',
      auditID: 'b2',
      verb: 'create',
      name: 'orders-kafka-1-aaaaa',
      subresource: 'binding',
      user: 'system:kube-scheduler',
    },
  ];
  const store = FactStore.of(facts);
  const split = partitionFacts(store);
  const auditIDs = split.parts.map((p) => p.pods.map((i) => (store.fact(i) as PodWriteFact).auditID));
  // The first binding takes the first create, as buildTimeline pairs them.
  expect(auditIDs).toEqual([
    ['c1', 'b1'],
    ['c2', 'b2'],
  ]);
});

it('counts a user a later broker confirms as the operator for the brokers already done', () => {
  // Metadata level: no owner references, so the operator is learned from its own
  // "broker pod deleted" line, which only broker 1 (analysed second) has.
  const facts = laterConfirmedOperatorFacts();
  const whole = buildTimeline(facts)
    .incarnations.filter((i) => i.deletion)
    .map((i) => i.name);
  const found = analyzeFacts(facts, defaultAnalysisOptions()).recreations.map((r) => r.deletedPod.name);
  expect(whole.sort()).toEqual(['orders-kafka-0-aaaaa', 'orders-kafka-1-ccccc']);
  expect(found.sort()).toEqual(whole);
});
