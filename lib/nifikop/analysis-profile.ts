// NiFiKop's replay as an operator profile (lib/operators/profile.ts): one DiffVersion per range
// of NiFiKop versions whose reconcileNifiPod decides differently (versions.ts, steps.ts), its
// checks before deleting a node's pod, and its advice.
import { intentDecision, lastAppliedConfiguration } from '../koperator/pod-diff';
import type { DiffVersion, OperatorAnalysis } from '../operators/profile';
import { nifikopLoopRecommendation } from './recommendation';
import { nifikopDecision } from './steps';
import { NIFIKOP_VERSION_RANGES } from './versions';

const DIFF_VERSIONS: readonly DiffVersion[] = NIFIKOP_VERSION_RANGES.map((r, i) => ({
  since: i === 0 ? null : r.from,
  label: r.label,
  steps: r.source,
  // The node's ConfigurationState is the `unitConfigChanged` step's: here it is taken as in sync.
  decide: (original, modified, current) =>
    nifikopDecision(r.representative, { lastApplied: original, desired: modified, live: current }),
}));

export const NIFIKOP_ANALYSIS: OperatorAnalysis = {
  id: 'nifikop',
  // reconcileNifiPod: a node removed from the spec is deleted on its own path; then the diff;
  // an empty patch still deletes when the node is ConfigOutOfSync or the pod terminated.
  reconcileSteps: ['unitRemoved', 'podDiff', 'unitConfigChanged', 'terminatedContainer'],
  diffVersions: DIFF_VERSIONS,
  // The first that keeps an order-only patch and Linkerd's pods: the newest steps.
  fixedVersion: NIFIKOP_VERSION_RANGES[NIFIKOP_VERSION_RANGES.length - 1].from,
  // Unknown, NiFiKop is taken to be of the newest range, and the finding says so.
  assumeNewest: true,
  intent: intentDecision,
  lastAppliedOf: lastAppliedConfiguration,
  loopRecommendation: nifikopLoopRecommendation,
};
