// How NiFiKop's findings are said to people (reports, alerts): "NiFiKop (NifiCluster nifi/prod,
// node 2)", and the advice for one recreation by class.
import type { Classification } from '../model/findings';
import type { OperatorWords } from '../operators/profile';
import { nifikopLoopRecommendation } from './recommendation';

function recreationAdvice(c: Classification): string {
  switch (c) {
    case 'external-mutation-revert':
      return 'Something outside NiFiKop changes a field NiFiKop declares, so NiFiKop re-creates the node pod. Keep that webhook or controller off the NiFi pods, or upgrade NiFiKop to a version whose steps tolerate it.';
    case 'intent-change':
      return 'The NifiCluster spec changed; a rolling restart is expected. Check the change was intended.';
    case 'config-change':
      return 'The node configuration changed (Secret <cluster>-config-<id>, ConfigOutOfSync); the restart applies it. Check who changed it.';
    case 'tainted-restart':
      return 'NiFiKop has no tainted-pod check: this class should not occur for it.';
    case 'container-terminated':
      return 'A NiFi container terminated or the pod was evicted or shut down; look at its limits and node.';
    case 'external-deletion':
      return 'Someone other than NiFiKop deleted or evicted the pod (kubectl, drain, autoscaler). Check it was planned.';
    case 'unknown':
      return 'The logs do not show why. Make sure the audit policy logs pod writes at RequestResponse and NiFiKop logs at debug reach the bucket.';
  }
}

export const NIFIKOP_WORDS: OperatorWords = {
  operator: 'NiFiKop',
  unit: 'node',
  unitNoun: 'NiFi node',
  unitOf: (namespace, cluster, unit) => `NiFiKop (NifiCluster ${namespace}/${cluster}, node ${unit})`,
  missingLogs:
    `NiFiKop's own diff (its "resource diffs" debug line) cannot confirm the fields it acted on, ` +
    `its word that it deleted a pod ("Deleting pod") is missing, and its order-only "in sync" line, ` +
    `which tells a 1.15 or later version, cannot name the version`,
  recreationAdvice,
  revertAdvice: (written) => nifikopLoopRecommendation('external-mutation-revert', written),
  // summary.fixImpact is koperator's upgrade (lib/analyze/fix-impact.ts counts koperator's
  // findings only): NiFiKop's loops name their own version (`stoppedByVersion`).
  fixImpact: {
    headline: () => '',
    basis: () => '',
    tampers: () => null,
    loopUpgradeReason: () => null,
  },
};
