// How koperator's findings are said to people (notifications; reports to follow): the
// operator's, its CR's and its member's names, and the advice for one recreation by class.
import type { Classification } from '../model/findings';
import type { OperatorWords } from '../operators/profile';
import { fixImpactBasis, fixImpactHeadline, fixImpactTampers, loopUpgradeReason } from './fix-impact-words';
import { loopRecommendation } from './recommendation';

function recreationAdvice(c: Classification): string {
  switch (c) {
    case 'external-mutation-revert':
      return 'Something outside koperator changes a field koperator declares, so koperator reverts it by re-creating the pod. Exclude the broker pods from that webhook or controller, or declare the same value in the KafkaCluster spec.';
    case 'intent-change':
      return 'The KafkaCluster spec changed; a rolling restart is expected. Check the change was intended.';
    case 'config-change':
      return 'The broker configuration changed (per-broker ConfigMap); the restart applies it. Check who changed it.';
    case 'tainted-restart':
      return 'The broker pod carried labels matching the tainted-brokers selector. Find who set the label.';
    case 'container-terminated':
      return 'A broker container terminated (crash, OOM kill) or the pod was evicted; look at its limits and node.';
    case 'external-deletion':
      return 'Someone other than koperator deleted or evicted the pod (kubectl, drain, autoscaler). Check it was planned.';
    case 'unknown':
      return 'The logs do not show why. Make sure the audit policy logs pod writes at RequestResponse and koperator logs reach the bucket.';
  }
}

export const KOPERATOR_WORDS: OperatorWords = {
  operator: 'koperator',
  unit: 'broker',
  unitNoun: 'broker',
  unitOf: (namespace, cluster, unit) => `${namespace}/${cluster} broker ${unit}`,
  missingLogs:
    `koperator's own diff (its "resource diffs" debug line) cannot confirm the fields it acted on, ` +
    `its word that it deleted a pod is missing, and a restart it only logs (a terminated container, ` +
    `tainted labels) may show as unknown`,
  recreationAdvice,
  revertAdvice: (written) => loopRecommendation('external-mutation-revert', written),
  fixImpact: {
    headline: fixImpactHeadline,
    basis: fixImpactBasis,
    tampers: fixImpactTampers,
    loopUpgradeReason,
  },
};
