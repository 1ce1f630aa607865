// streamFindings hands out each recreation once, as its broker is classified, and finds the
// same loops: sorted by deletion time, what it hands out is analyzeFacts' result exactly,
// also when a later broker confirms an operator user (the analysis's restart).
import { analyzeFacts, streamFindings } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { sortByKey } from '../../lib/analyze/sort-by-key';
import { epochMicros } from '../../lib/analyze/time';
import type { Fact } from '../../lib/model/facts';
import type { Recreation } from '../../lib/model/findings';
import { simulateCluster } from '../../sim';
import { laterConfirmedOperatorFacts } from '../facts/fixtures';
import { simulatedFacts } from '../support/sim-facts';

function streamed(facts: Fact[], opts = defaultAnalysisOptions()) {
  const handed: Recreation[] = [];
  const { loops, recreations } = streamFindings(facts, opts, (r) => handed.push(r));
  expect(recreations).toBe(handed.length);
  sortByKey(handed, (r) => epochMicros(r.deletedPod.deletedAt));
  return { recreations: handed, loops };
}

describe.each(['RequestResponse', 'Metadata'] as const)('at audit level %s', (auditLevel) => {
  it.each([1, 2, 3])('seed %d: the recreations and loops of analyzeFacts', (seed) => {
    const facts = simulatedFacts(simulateCluster({ seed, start: '2026-11-03T08:00:00Z', auditLevel }));
    const want = analyzeFacts(facts, defaultAnalysisOptions());
    expect(want.recreations.length).toBeGreaterThan(3);
    expect(streamed(facts)).toEqual(want);
  });
});

it('scoped to a window: only recreations inside it are handed out, loops found on all', () => {
  const facts = simulatedFacts(simulateCluster({ seed: 2, start: '2026-11-03T08:00:00Z' }));
  const all = analyzeFacts(facts, defaultAnalysisOptions());
  const mid = all.recreations[all.recreations.length >> 1].deletedPod.deletedAt;
  const opts = { ...defaultAnalysisOptions(), since: mid };
  const want = analyzeFacts(facts, opts);
  expect(want.recreations.length).toBeLessThan(all.recreations.length);
  expect(streamed(facts, opts)).toEqual(want);
});

it('a user a later broker confirms: nothing is handed out that the restart would take back', () => {
  // Metadata level: the operator is learned from its "broker pod deleted" line, which only
  // broker 1 (analysed second) has; broker 0's deletion is the operator's all the same.
  const facts = laterConfirmedOperatorFacts();
  const want = analyzeFacts(facts, defaultAnalysisOptions());
  const got = streamed(facts);
  expect(got.recreations.map((r) => r.deletedPod.name).sort()).toEqual([
    'orders-kafka-0-aaaaa',
    'orders-kafka-1-ccccc',
  ]);
  expect(got).toEqual(want);
});
