// What a mutating webhook is shown of a pod create. The audit `requestObject` is the pod as
// decoded (defaulted), but the API server's built-in mutating admission plugins run before
// any webhook, and webhooks write their JSON patches against the pod those plugins left:
//   - ServiceAccount: the projected token volume (`kube-api-access-<random>`) appended to
//     spec.volumes, its mount appended to every container's and init container's mounts;
//   - DefaultTolerationSeconds: NoExecute tolerations for node.kubernetes.io/not-ready and
//     unreachable appended, unless the pod already tolerates those taints;
//   - Priority: spec.priority (and preemptionPolicy) from the priority class.
// A patch replayed on the bare request fails where it leans on them (`add
// /spec/tolerations/-` on a pod that declared none), and with it every change the webhook
// made. The plugins' output is read back from the stored pod (`responseObject`) rather than
// invented: only what the stored pod shows is added, with its values (a cluster may run the
// plugins with other settings, or without them).
import { isObject, type JsonObject } from './json-value';

export const SA_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
const DEFAULT_TOLERATION_KEYS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export interface BeforeWebhooks {
  /** The pod the first webhook saw: the request with the plugins' additions. */
  pod: unknown;
  /** The additions alone, with the token volume's name as `?`: equal for every pod of a loop. */
  additionsKey: string;
  /** The token volume's name, random per pod, or null when none was added. */
  tokenVolume: string | null;
}

/** The request as the webhooks saw it, from what the stored pod shows the plugins did. */
export function beforeWebhooks(request: unknown, stored: unknown): BeforeWebhooks {
  const none: BeforeWebhooks = { pod: request, additionsKey: '', tokenVolume: null };
  if (!isObject(request) || !isObject(request.spec) || !isObject(stored) || !isObject(stored.spec))
    return none;
  const spec: JsonObject = { ...request.spec };
  const storedSpec = stored.spec;
  const added: unknown[] = [];

  const token = tokenVolumeOf(storedSpec, spec);
  if (token !== null) {
    spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), token.volume];
    for (const kind of ['initContainers', 'containers'] as const) {
      if (Array.isArray(spec[kind]))
        spec[kind] = (spec[kind] as unknown[]).map((c) => withTokenMount(c, storedSpec[kind]));
    }
    added.push({ ...token.volume, name: '?' });
  }

  const tolerations = defaultTolerations(storedSpec, spec);
  if (tolerations.length > 0) {
    spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...tolerations];
    added.push(tolerations);
  }

  for (const field of ['priority', 'preemptionPolicy', 'serviceAccountName', 'serviceAccount'] as const) {
    if (spec[field] === undefined && storedSpec[field] !== undefined) {
      spec[field] = storedSpec[field];
      added.push([field, storedSpec[field]]);
    }
  }

  if (added.length === 0) return none;
  return {
    pod: { ...request, spec },
    additionsKey: JSON.stringify(added),
    tokenVolume: token === null ? null : token.name,
  };
}

/** The stored pod's token volume, when the request has no volume of that name. */
function tokenVolumeOf(stored: JsonObject, request: JsonObject): { name: string; volume: JsonObject } | null {
  const volumes = Array.isArray(stored.volumes) ? stored.volumes : [];
  const volume = volumes.find(
    (v): v is JsonObject =>
      isObject(v) &&
      typeof v.name === 'string' &&
      v.name.startsWith(TOKEN_VOLUME_PREFIX) &&
      isObject(v.projected),
  );
  if (!volume) return null;
  const name = volume.name as string;
  const requested = Array.isArray(request.volumes) ? request.volumes : [];
  if (requested.some((v) => isObject(v) && v.name === name)) return null;
  return { name, volume };
}

/** The container with the stored container's token mount appended, if it had none at that path. */
function withTokenMount(container: unknown, storedContainers: unknown): unknown {
  if (!isObject(container) || !Array.isArray(storedContainers)) return container;
  const stored = storedContainers.find((c) => isObject(c) && c.name === container.name);
  if (!isObject(stored) || !Array.isArray(stored.volumeMounts)) return container;
  const mount = stored.volumeMounts.find((m) => isObject(m) && m.mountPath === SA_TOKEN_MOUNT_PATH);
  const mounts = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
  if (mount === undefined || mounts.some((m) => isObject(m) && m.mountPath === SA_TOKEN_MOUNT_PATH)) {
    return container;
  }
  return { ...container, volumeMounts: [...mounts, mount] };
}

/**
 * DefaultTolerationSeconds' additions: for each of its taints the request does not tolerate
 * (a toleration with that key or no key, and effect NoExecute or none), the stored pod's
 * toleration for it, if it has one.
 */
function defaultTolerations(stored: JsonObject, request: JsonObject): unknown[] {
  const requested = Array.isArray(request.tolerations) ? request.tolerations.filter(isObject) : [];
  const storedList = Array.isArray(stored.tolerations) ? stored.tolerations.filter(isObject) : [];
  const out: unknown[] = [];
  for (const key of DEFAULT_TOLERATION_KEYS) {
    const tolerated = requested.some(
      (t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect),
    );
    if (tolerated) continue;
    const added = storedList.find(
      (t) => t.key === key && t.effect === 'NoExecute' && t.operator === 'Exists',
    );
    if (added) out.push(added);
  }
  return out;
}
