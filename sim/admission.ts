// What the API server does to a pod on create, before and after the webhooks:
//
//   apiDefaults()      API defaulting: the create's audit `requestObject` (before admission)
//   builtinAdmission() the built-in mutating admission plugins that run before any webhook
//                      (ServiceAccount token volume, DefaultTolerationSeconds, Priority)
//   storePod()         what the registry adds on create (name, uid, resourceVersion, status)
import type { Container, Pod, VolumeMount, Volume } from 'kubernetes-types/core/v1';
import { clone, type JsonObject, type JsonValue } from './json';
import { canonicalQuantity, parseQuantityMilli } from './quantity';
import { fmtSeconds, type Micros } from './time';

function defaultContainer(c: Container): Container {
  const out = clone(c);
  out.ports = out.ports?.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' }));
  out.env = out.env?.map((e) =>
    e.valueFrom?.fieldRef
      ? { ...e, valueFrom: { ...e.valueFrom, fieldRef: { apiVersion: 'v1', ...e.valueFrom.fieldRef } } }
      : e,
  );
  out.resources = out.resources ?? {};
  out.terminationMessagePath = out.terminationMessagePath ?? '/dev/termination-log';
  out.terminationMessagePolicy = out.terminationMessagePolicy ?? 'File';
  const tagged = /:[^/]+$/.test(out.image ?? '') && !(out.image ?? '').endsWith(':latest');
  out.imagePullPolicy = out.imagePullPolicy ?? (tagged ? 'IfNotPresent' : 'Always');
  return out;
}

function defaultVolume(v: Volume): Volume {
  const out = clone(v);
  if (out.configMap) out.configMap.defaultMode = out.configMap.defaultMode ?? 420;
  if (out.secret) out.secret.defaultMode = out.secret.defaultMode ?? 420;
  if (out.projected) out.projected.defaultMode = out.projected.defaultMode ?? 420;
  if (out.downwardAPI) out.downwardAPI.defaultMode = out.downwardAPI.defaultMode ?? 420;
  return out;
}

/** API defaulting, as decoded before admission: the create's audit `requestObject`. */
export function apiDefaults(pod: Pod): Pod {
  const out = clone(pod);
  const spec = out.spec ?? { containers: [] };
  spec.volumes = spec.volumes?.map(defaultVolume);
  spec.initContainers = spec.initContainers?.map(defaultContainer);
  spec.containers = spec.containers.map(defaultContainer);
  spec.restartPolicy = spec.restartPolicy ?? 'Always';
  spec.terminationGracePeriodSeconds = spec.terminationGracePeriodSeconds ?? 30;
  spec.dnsPolicy = spec.dnsPolicy ?? 'ClusterFirst';
  spec.securityContext = spec.securityContext ?? {};
  spec.schedulerName = spec.schedulerName ?? 'default-scheduler';
  spec.enableServiceLinks = spec.enableServiceLinks ?? true;
  out.spec = spec;
  return { ...out, status: out.status ?? {} };
}

export const SA_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The built-in mutating admission plugins, which run before any webhook: the ServiceAccount
 * plugin (token volume and mounts), DefaultTolerationSeconds and Priority. Webhook patches are
 * relative to this object, not to the audit `requestObject`.
 */
export function builtinAdmission(pod: Pod, tokenVolumeSuffix: string, priority = 0): Pod {
  const out = clone(pod);
  const spec = out.spec ?? { containers: [] };
  spec.serviceAccountName = spec.serviceAccountName ?? 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const volumeName = `kube-api-access-${tokenVolumeSuffix}`;
  spec.volumes = [
    ...(spec.volumes ?? []),
    {
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
        defaultMode: 420,
      },
    },
  ];
  const mount: VolumeMount = { name: volumeName, readOnly: true, mountPath: SA_TOKEN_MOUNT_PATH };
  spec.initContainers = spec.initContainers?.map((c) => ({
    ...c,
    volumeMounts: [...(c.volumeMounts ?? []), mount],
  }));
  spec.containers = spec.containers.map((c) => ({ ...c, volumeMounts: [...(c.volumeMounts ?? []), mount] }));
  const tolerations = spec.tolerations ?? [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => t.key === key))
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
  spec.priority = priority;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  out.spec = spec;
  return out;
}

function milli(q: string | undefined): number | null {
  return q === undefined ? null : parseQuantityMilli(q);
}

/** The pod's QoS class (Guaranteed / Burstable / BestEffort), as the registry computes it on create. */
export function qosClass(pod: Pod): string {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length + Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = milli(lim[r]);
      const q = milli(req[r]) ?? l;
      if (l === null || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Quantities as the API server stores them (canonical spelling). */
export function canonicalizeResources(pod: Pod): Pod {
  const out = clone(pod);
  const fix = (c: Container): void => {
    for (const kind of ['requests', 'limits'] as const) {
      const m = c.resources?.[kind];
      if (m) for (const k of Object.keys(m)) m[k] = canonicalQuantity(m[k]);
    }
  };
  out.spec?.containers.forEach(fix);
  out.spec?.initContainers?.forEach(fix);
  return out;
}

export interface StoreMeta {
  name: string;
  uid: string;
  resourceVersion: string;
  createdAt: Micros;
  manager: string;
}

/** What the registry adds to an admitted pod on create. */
export function storePod(admitted: Pod, meta: StoreMeta): Pod {
  const pod = canonicalizeResources(admitted);
  const m = pod.metadata ?? {};
  pod.metadata = {
    ...m,
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    creationTimestamp: fmtSeconds(meta.createdAt),
    managedFields: [
      {
        manager: meta.manager,
        operation: 'Update',
        apiVersion: 'v1',
        time: fmtSeconds(meta.createdAt),
        fieldsType: 'FieldsV1',
        fieldsV1: managedFieldsOf(admitted),
      },
    ],
  };
  return { ...pod, status: { phase: 'Pending', qosClass: qosClass(pod) } };
}

/** A compact FieldsV1 set: top-level keys and list keys only (enough to look real, not exhaustive). */
function managedFieldsOf(pod: Pod): JsonObject {
  const f = (keys: string[]): JsonObject => Object.fromEntries(keys.map((k) => [`f:${k}`, {}]));
  const named = (items: Array<{ name: string }> | undefined): JsonObject =>
    Object.fromEntries([
      ['.', {}],
      ...(items ?? []).map((i): [string, JsonValue] => [`k:{"name":"${i.name}"}`, { '.': {}, 'f:name': {} }]),
    ]);
  return {
    'f:metadata': {
      ...f(['generateName', 'namespace']),
      'f:labels': { '.': {}, ...f(Object.keys(pod.metadata?.labels ?? {})) },
      ...(pod.metadata?.ownerReferences
        ? {
            'f:ownerReferences': {
              '.': {},
              ...Object.fromEntries(pod.metadata.ownerReferences.map((o) => [`k:{"uid":"${o.uid}"}`, {}])),
            },
          }
        : {}),
    },
    'f:spec': {
      'f:containers': named(pod.spec?.containers),
      ...(pod.spec?.initContainers ? { 'f:initContainers': named(pod.spec.initContainers) } : {}),
      'f:volumes': named(pod.spec?.volumes),
      ...f([
        'restartPolicy',
        'terminationGracePeriodSeconds',
        'dnsPolicy',
        'serviceAccountName',
        'affinity',
        'schedulerName',
        'enableServiceLinks',
      ]),
    },
  };
}
