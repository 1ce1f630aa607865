// The analysis against the project's own simulator: every scenario (all seven classes,
// loops, benign webhooks, downscale, in-place resize), at RequestResponse level and at
// Metadata level with a --verbose operator, over several seeds (other names and timings);
// with NiFiKop beside koperator in the same logs, one version range per seed, its scenarios
// (Istio, Istio native sidecar order, Istio's HTTP probe rewrite, Linkerd, Zarf, a registry
// mirror, a config change) judged by the simulator's own model of that version.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { allOperators, contractMistakes, type ExpectedDocument } from '../support/contract-match';

const factsOf = simulatedFacts;

// One NiFiKop version per seed: every range that decides differently, at both levels.
const NIFIKOP_VERSION: Record<number, string> = { 1: '1.11.4', 2: '1.13.0', 3: '1.14.2', 7: '1.17.0' };

// Its loops, by namespace, with the range that stops each (no range: null): Istio stops at 1.12,
// Zarf at 1.14, Linkerd and the order-only initContainers patch at 1.15; Istio's readiness probe
// rewrite and a registry mirror at none. At Metadata level the logs show no answer by version.
const NIFI_LOOPS: Record<string, string[]> = {
  '1.11.4': [
    'nifi-airgap 1.14',
    'nifi-mesh 1.12-1.13',
    'nifi-mirror null',
    'nifi-native >=1.15',
    'nifi-probes null',
  ],
  '1.13.0': [
    'nifi-airgap 1.14',
    'nifi-linkerd >=1.15',
    'nifi-mirror null',
    'nifi-native >=1.15',
    'nifi-probes null',
  ],
  '1.14.2': ['nifi-linkerd >=1.15', 'nifi-mirror null', 'nifi-native >=1.15', 'nifi-probes null'],
  '1.17.0': ['nifi-mirror null', 'nifi-probes null'],
};

describe.each(['RequestResponse', 'Metadata'] as const)('simulated cluster, audit level %s', (auditLevel) => {
  it.each([1, 2, 3, 7])('seed %d: every recreation and loop matches the truth, nothing extra', (seed) => {
    const version = NIFIKOP_VERSION[seed];
    // NiFiKop's debug lines hold the pods' states where the audit log holds no bodies.
    const nifikop = { version, debug: auditLevel === 'Metadata' };
    const sim = simulateCluster({ seed, start: '2026-11-03T08:00:00Z', auditLevel, nifikop });
    const opts = { ...defaultAnalysisOptions(), operatorVersions: { nifikop: version } };
    const result = analyzeFacts(factsOf(sim), opts);
    const truth = allOperators(sim.truth as ExpectedDocument & { nifikop?: ExpectedDocument });
    expect(contractMistakes(truth, { ...result, summary: {} })).toEqual([]);
    expect(result.recreations.filter((r) => !r.operator).length).toBeGreaterThan(20);
    expect(result.recreations.filter((r) => r.operator === 'nifikop').length).toBeGreaterThanOrEqual(8);
    // The truth's own loops: where each range's steps fall short, and the range that stops each.
    const nifi = sim.truth.nifikop!;
    expect(nifi.recreations.some((r) => r.classification === 'config-change')).toBe(true);
    const loops = nifi.loops.map((l) => `${l.namespace} ${String(l.stoppedByVersion)}`).sort();
    expect(loops).toEqual(
      auditLevel === 'Metadata'
        ? NIFI_LOOPS[version].map((l) => l.replace(/ .*/, ' undefined'))
        : NIFI_LOOPS[version],
    );
  });
});

it('the simulator exercises every class of the contract', () => {
  const sim = simulateCluster({ seed: 1, start: '2026-11-03T08:00:00Z' });
  const classes = new Set(sim.truth.recreations.map((r) => r.classification));
  expect([...classes].sort()).toEqual([...CLASSIFICATIONS].sort());
});
