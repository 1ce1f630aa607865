// Pod fields the API server and the cluster fill in, never a pod's author: defaulting
// (restartPolicy, dnsPolicy, schedulerName, terminationGracePeriodSeconds, securityContext,
// enableServiceLinks, a container's terminationMessagePath/Policy and imagePullPolicy, a
// port's protocol, a probe's thresholds, a downward-API fieldRef's apiVersion, a volume's
// defaultMode), the built-in admission plugins (the service-account token volume and its
// mounts, serviceAccountName, DefaultTolerationSeconds' tolerations, priority and
// preemptionPolicy), the scheduler (nodeName), and the object's identity and bookkeeping
// (name from generateName, uid, resourceVersion, creationTimestamp, managedFields, status).
// A desired pod copied from `kubectl get pod -o yaml` carries all of them; koperator's own
// desired pod carries none, so a difference there says nothing about the KafkaCluster.
// Paths are in the contract's syntax (findings-contract.md).

const CONTAINER = String.raw`spec\.(?:containers|initContainers|ephemeralContainers)\[name=[^\]]+\]`;

const SERVER_FILLED: RegExp[] = [
  /^(?:apiVersion|kind|status)(?:$|[.[])/,
  /^metadata\.(?:name|uid|resourceVersion|generation|creationTimestamp|managedFields|selfLink)(?:$|[.[])/,
  /^spec\.(?:nodeName|restartPolicy|dnsPolicy|schedulerName|terminationGracePeriodSeconds|securityContext|enableServiceLinks|serviceAccount|serviceAccountName|priority|preemptionPolicy)$/,
  /^spec\.volumes\[name=kube-api-access-[^\]]+\]$/,
  new RegExp(`^${CONTAINER}\\.(?:terminationMessagePath|terminationMessagePolicy|imagePullPolicy)$`),
  new RegExp(`^${CONTAINER}\\.volumeMounts\\[mountPath=/var/run/secrets/kubernetes\\.io/serviceaccount\\]$`),
  new RegExp(`^${CONTAINER}\\.ports\\[containerPort=[^\\]]+\\]\\.protocol$`),
  new RegExp(
    `^${CONTAINER}\\.(?:readinessProbe|livenessProbe|startupProbe)\\.(?:timeoutSeconds|periodSeconds|successThreshold|failureThreshold)$`,
  ),
  new RegExp(`^${CONTAINER}\\.env\\[name=[^\\]]+\\]\\.valueFrom\\.fieldRef\\.apiVersion$`),
  /^spec\.volumes\[name=[^\]]+\]\.(?:configMap|secret|projected|downwardAPI)\.defaultMode$/,
];

/** The tolerations DefaultTolerationSeconds adds to a pod that tolerates neither taint. */
export const DEFAULT_TOLERATION_KEYS: readonly string[] = [
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
];

/** A path whose value the API server or the cluster fills in, never the pod's author. */
export function isServerFilledPodPath(path: string): boolean {
  return SERVER_FILLED.some((re) => re.test(path));
}

/**
 * Whether `to` is `from` with only DefaultTolerationSeconds' tolerations added (the atomic
 * `spec.tolerations` list of a pod copied from the live one).
 */
export function onlyDefaultTolerationsAdded(from: unknown, to: unknown): boolean {
  if (!Array.isArray(to)) return false;
  const before = Array.isArray(from) ? from : [];
  const added = to.filter((t) => !before.some((b) => JSON.stringify(b) === JSON.stringify(t)));
  const kept = to.length - added.length === before.length;
  return (
    kept &&
    added.length > 0 &&
    added.every(
      (t) =>
        t !== null &&
        typeof t === 'object' &&
        DEFAULT_TOLERATION_KEYS.includes(String((t as Record<string, unknown>).key)) &&
        (t as Record<string, unknown>).effect === 'NoExecute',
    )
  );
}
