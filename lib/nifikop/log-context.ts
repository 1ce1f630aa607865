// NiFiKop's log lines the analysis reads (pkg/resources/nifi/nifi.go, reconcileNifiPod), and
// where each belongs. Its zap lines name no NifiCluster in a controller-runtime context: the
// pod is in the message (`Deleting pod <name>`) or in `podName`, the node in `nodeId`, the
// cluster in `clusterName` where logged; `resource diffs` names its pod only inside `current`.
import { nonEmptyString as str } from '../k8s/json-value';
import type { LogContext, LogRole } from '../operators/profile';

export const NIFIKOP_MSG = {
  resourceDiffs: 'resource diffs',
  /** Followed by the pod's name. */
  deletingPod: 'Deleting pod ',
  /** PR #607 (1.15.0 and later) only: a tell of the version. */
  orderOnlyInSync: 'pod resource is in sync (order-only diff ignored)',
} as const;

export const NIFIKOP_MESSAGES: Readonly<Record<LogRole, readonly string[]>> = {
  resourceDiffs: [NIFIKOP_MSG.resourceDiffs],
  unitPodDeleted: [NIFIKOP_MSG.deletingPod],
  taintedDeleting: [],
  terminatedContainer: [],
  specChanged: [],
  resourceUpdated: [],
  resourceCreated: [],
  orderOnlyInSync: [NIFIKOP_MSG.orderOnlyInSync],
};

export function nifikopRoleOf(msg: string): LogRole | null {
  // Called on any fact's `msg`, which only operator lines have.
  if (typeof msg !== 'string') return null;
  if (msg === NIFIKOP_MSG.resourceDiffs) return 'resourceDiffs';
  if (msg.startsWith(NIFIKOP_MSG.deletingPod) && msg.length > NIFIKOP_MSG.deletingPod.length)
    return 'unitPodDeleted';
  if (msg === NIFIKOP_MSG.orderOnlyInSync) return 'orderOnlyInSync';
  return null;
}

/** Keys of NiFiKop's own log calls the analysis reads. */
export const NIFIKOP_KEPT_KEYS: readonly string[] = ['patch', 'current', 'modified', 'original'];

export function nifikopLogContext(msg: string, f: Record<string, unknown>): LogContext {
  const fromMsg = msg.startsWith(NIFIKOP_MSG.deletingPod) ? msg.slice(NIFIKOP_MSG.deletingPod.length) : null;
  return {
    cluster: str(f.clusterName),
    namespace: str(f.namespace),
    pod: str(fromMsg) ?? str(f.podName),
    unit: typeof f.nodeId === 'string' ? f.nodeId : typeof f.nodeId === 'number' ? String(f.nodeId) : null,
    marks: {},
  };
}
