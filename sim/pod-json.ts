// Pods as JSON in the order the API server writes them (Go struct field order), so the audit
// bodies read like real ones.
import type { Pod } from 'kubernetes-types/core/v1';
import { orderKeys, toJson, type JsonObject, type JsonValue } from './json';

const POD_ORDER = ['kind', 'apiVersion', 'metadata', 'spec', 'status'];
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];
const SPEC_ORDER = [
  'volumes',
  'initContainers',
  'containers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'nodeName',
  'hostNetwork',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'priorityClassName',
  'priority',
  'enableServiceLinks',
  'preemptionPolicy',
];
const CONTAINER_ORDER = [
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
];
const STATUS_ORDER = [
  'phase',
  'conditions',
  'message',
  'reason',
  'hostIP',
  'hostIPs',
  'podIP',
  'podIPs',
  'startTime',
  'initContainerStatuses',
  'containerStatuses',
  'qosClass',
];

function orderContainers(v: JsonValue | undefined): JsonValue | undefined {
  return Array.isArray(v)
    ? v.map((c) => (c && typeof c === 'object' && !Array.isArray(c) ? orderKeys(c, CONTAINER_ORDER) : c))
    : v;
}

/** The pod as JSON in the order the API server would write it (creationTimestamp null kept if asked). */
export function podJson(
  pod: Pod,
  opts: { kind?: boolean; nullCreationTimestamp?: boolean } = {},
): JsonObject {
  const json = toJson(opts.kind === false ? pod : { kind: 'Pod', apiVersion: 'v1', ...pod });
  const meta = json.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    if (opts.nullCreationTimestamp && meta.creationTimestamp === undefined) meta.creationTimestamp = null;
    json.metadata = orderKeys(meta, META_ORDER);
  }
  const spec = json.spec;
  if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
    const s = orderKeys(spec, SPEC_ORDER);
    for (const k of ['containers', 'initContainers']) if (k in s) s[k] = orderContainers(s[k]) ?? s[k];
    json.spec = s;
  }
  const status = json.status;
  if (status && typeof status === 'object' && !Array.isArray(status))
    json.status = orderKeys(status, STATUS_ORDER);
  return orderKeys(json, POD_ORDER);
}
