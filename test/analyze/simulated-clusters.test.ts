// The analysis against the project's own simulator: every scenario (all seven classes,
// loops, benign webhooks, downscale, in-place resize), at RequestResponse level and at
// Metadata level with a --verbose operator, over several seeds (other names and timings).
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';

const factsOf = simulatedFacts;

describe.each(['RequestResponse', 'Metadata'] as const)('simulated cluster, audit level %s', (auditLevel) => {
  it.each([1, 2, 3, 7])('seed %d: every recreation and loop matches the truth, nothing extra', (seed) => {
    const sim = simulateCluster({ seed, start: '2026-11-03T08:00:00Z', auditLevel });
    const result = analyzeFacts(factsOf(sim), defaultAnalysisOptions());
    expect(contractMistakes(sim.truth as ExpectedDocument, { ...result, summary: {} })).toEqual([]);
    expect(result.recreations.length).toBeGreaterThan(20);
  });
});

it('the simulator exercises every class of the contract', () => {
  const sim = simulateCluster({ seed: 1, start: '2026-11-03T08:00:00Z' });
  const classes = new Set(sim.truth.recreations.map((r) => r.classification));
  expect([...classes].sort()).toEqual([...CLASSIFICATIONS].sort());
});
