// How NiFiKop names and labels a node's pod and its configuration (pkg/resources/nifi/pod.go,
// read at commit 0730ea28…): generateName and hostname `<cluster>-<id>-node` (the API server
// adds five characters), labels `app: nifi`, `nifi_cr: <cluster>`, `nodeId: <id>`, a controller
// owner reference to the NifiCluster, and the node's configuration in the Secret
// `<cluster>-config-<id>`. Labels and owners are authoritative; the name is read only when the
// logs hold nothing else (Metadata-level audit).
import type { UnitIdentity } from '../operators/profile';
import { getIn, isObject } from '../k8s/json-value';

export const NIFI_CLUSTER_KIND = 'NifiCluster';

function metaOf(pod: unknown): Record<string, unknown> | null {
  const m = getIn(pod, ['metadata']);
  return isObject(m) ? m : null;
}

/** The NifiCluster named by the pod's owner references. */
export function nifiClusterOwner(pod: unknown): string | null {
  const owners = metaOf(pod)?.ownerReferences;
  if (!Array.isArray(owners)) return null;
  for (const o of owners)
    if (isObject(o) && o.kind === NIFI_CLUSTER_KIND && typeof o.name === 'string') return o.name;
  return null;
}

/** The node a pod belongs to, from its labels (`nodeId`, and `nifi_cr` or the owner). */
export function nodeOfPod(pod: unknown): UnitIdentity | null {
  const labels = metaOf(pod)?.labels;
  if (!isObject(labels) || typeof labels.nodeId !== 'string') return null;
  const cluster = typeof labels.nifi_cr === 'string' ? labels.nifi_cr : nifiClusterOwner(pod);
  return cluster ? { cluster, unit: labels.nodeId } : null;
}

const POD_NAME = /^(.+?)-(\d+)-node[a-z0-9]{5}$/;

/** The node a pod name points at, by NiFiKop's generateName `<cluster>-<id>-node`. */
export function nodeOfPodName(name: string): UnitIdentity | null {
  const m = POD_NAME.exec(name);
  return m ? { cluster: m[1], unit: m[2] } : null;
}

/** Whether a pod could be one of NiFiKop's by anything it shows; not an identification. */
export function mayBeNifikopPod(pod: unknown): boolean {
  const meta = metaOf(pod);
  if (!meta) return false;
  const labels = isObject(meta.labels) ? meta.labels : {};
  if (labels.app === 'nifi' || labels.nifi_cr !== undefined) return true;
  if (nifiClusterOwner(pod) !== null) return true;
  if (typeof meta.name === 'string' && nodeOfPodName(meta.name) !== null) return true;
  return typeof meta.generateName === 'string' && /-\d+-node$/.test(meta.generateName);
}

/** The Secret holding a node's configuration (templates.NodeConfigTemplate). */
export function nodeConfigSecretName(cluster: string, nodeId: string): string {
  return `${cluster}-config-${nodeId}`;
}
