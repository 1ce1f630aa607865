// What the API server, the scheduler and the kubelet do to a broker pod, as audit events:
// create (defaulting, built-in admission, webhooks, registry), binding, status reports, patches,
// graceful and final deletes, evictions.
import { applyPatch, type Operation } from 'fast-json-patch';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Actor, RequestRecord } from './audit-event';
import { clone, fromJson, isObject, toJson, type JsonObject, type JsonValue } from './json';
import { pointerToPath, formatPath, type PathSegment } from './paths';
import { apiDefaults, builtinAdmission, storePod } from './admission';
import { lastAppliedOf } from './pods';
import { newContainerIDs, podStatus, statusPatchBody, type PodPhaseView } from './pod-status';
import { podJson } from './pod-json';
import { fmtSeconds, MS, SEC, type Micros } from './time';
import { runWebhooks, type FieldWrite } from './webhooks';
import type { LivePod, NodeInfo, World } from './world';

function ms(world: World, min: number, max: number): Micros {
  return Math.round(world.rng.float(min, max) * MS);
}

export interface CreatedPod {
  pod: LivePod;
  record: RequestRecord;
}

export interface Admitted {
  requested: Pod;
  stored: Pod;
  name: string;
  uid: string;
  annotations: Record<string, string>;
  writes: FieldWrite[];
  mutatedBy: string[];
}

/** Priority values of the priority classes the simulated clusters use. */
const PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'kafka-high': 1_000_000,
  'system-cluster-critical': 2_000_000_000,
};

/**
 * What the API server makes of a pod create at `at`: defaulting (the audit requestObject), the
 * built-in plugins, the installed webhooks, and the registry's name, uid and status.
 */
/** The audit objectRef fields of a request about this pod. */
function podRef(pod: LivePod): { resource: 'pods'; apiVersion: 'v1'; namespace: string; name: string } {
  return { resource: 'pods', apiVersion: 'v1', namespace: pod.namespace, name: pod.name };
}

export function admitPod(world: World, stamped: Pod, at: Micros, manager = 'manager'): Admitted {
  const namespace = stamped.metadata?.namespace ?? world.opts.namespace;
  const requested = apiDefaults(stamped);
  const priority = PRIORITY_CLASSES[stamped.spec?.priorityClassName ?? ''] ?? 0;
  const admitted = builtinAdmission(requested, world.rng.nameSuffix(), priority);
  const admission = runWebhooks(admitted, world.calledWebhooks(namespace, at), world.rng);
  const name = `${stamped.metadata?.generateName ?? 'pod-'}${world.rng.nameSuffix()}`;
  const uid = world.rng.uuid();
  const stored = storePod(admission.pod, {
    name,
    uid,
    resourceVersion: world.nextResourceVersion(),
    createdAt: at,
    manager,
  });
  return {
    requested,
    stored,
    name,
    uid,
    annotations: admission.annotations,
    writes: admission.writes,
    mutatedBy: admission.mutatedBy,
  };
}

/** The tracked pod for an admitted broker pod. */
export function livePod(
  world: World,
  stamped: Pod,
  a: Admitted,
  meta: {
    cluster: string;
    brokerId: string;
    node: NodeInfo;
    createdAt: Micros;
    createAuditID: string | null;
  },
): LivePod {
  return {
    cluster: meta.cluster,
    namespace: a.stored.metadata?.namespace ?? world.opts.namespace,
    brokerId: meta.brokerId,
    name: a.name,
    uid: a.uid,
    node: meta.node,
    podIP: world.podIP(),
    createdAt: meta.createdAt,
    createAuditID: meta.createAuditID,
    lastApplied: lastAppliedOf(stamped),
    live: a.stored,
    writes: a.writes,
    mutatedBy: a.mutatedBy,
    containerIDs: newContainerIDs(a.stored, world.rng),
    terminated: null,
    causeAuditIDs: [],
  };
}

/** A broker pod create by `actor` at `at`, logged. */
export function createPod(
  world: World,
  stamped: Pod,
  actor: Actor,
  at: Micros,
  meta: { cluster: string; brokerId: string; node: NodeInfo },
): CreatedPod {
  const a = admitPod(world, stamped, at);
  const record = world.request({
    at,
    latency: ms(world, 8, 45),
    actor,
    verb: 'create',
    resource: 'pods',
    apiVersion: 'v1',
    namespace: a.stored.metadata?.namespace,
    requestObject: podJson(a.requested, { nullCreationTimestamp: true }),
    responseObject: podJson(a.stored),
    code: 201,
    admission: { ...a.annotations, 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' },
  });
  const pod = livePod(world, stamped, a, {
    ...meta,
    createdAt: record.receivedAt,
    createAuditID: record.auditID,
  });
  world.podLifetimes.push({
    namespace: pod.namespace,
    name: pod.name,
    from: record.receivedAt,
    to: Infinity,
  });
  return { pod, record };
}

/** The scheduler's binding: names the new pod and carries its uid even at Metadata level. */
export function bindPod(world: World, pod: LivePod, at: Micros): RequestRecord {
  const rec = world.request({
    at,
    latency: ms(world, 6, 30),
    actor: world.scheduler,
    verb: 'create',
    ...podRef(pod),
    uid: pod.uid,
    subresource: 'binding',
    requestObject: {
      kind: 'Binding',
      apiVersion: 'v1',
      metadata: { name: pod.name, namespace: pod.namespace, uid: pod.uid, creationTimestamp: null },
      target: { kind: 'Node', name: pod.node.name },
    },
    responseObject: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
    code: 201,
  });
  pod.live = { ...pod.live, spec: { ...(pod.live.spec ?? { containers: [] }), nodeName: pod.node.name } };
  bump(world, pod);
  return rec;
}

function bump(world: World, pod: LivePod): void {
  pod.live = {
    ...pod.live,
    metadata: { ...pod.live.metadata, resourceVersion: world.nextResourceVersion() },
  };
}

/** A kubelet status report (strategic merge on pods/status; logged at Request level). */
export function reportStatus(
  world: World,
  pod: LivePod,
  view: PodPhaseView,
  at: Micros,
  startedAt: Micros,
): RequestRecord {
  const status = podStatus(pod.live, view, {
    hostIP: pod.node.ip,
    podIP: pod.podIP,
    startedAt,
    now: at,
    containerIDs: pod.containerIDs,
  });
  const rec = world.request({
    at,
    latency: ms(world, 5, 25),
    actor: world.kubelet(pod.node),
    verb: 'patch',
    ...podRef(pod),
    subresource: 'status',
    requestObject: statusPatchBody(pod.uid, status),
    code: 200,
  });
  pod.live = { ...pod.live, status };
  bump(world, pod);
  return rec;
}

/** The pod from pending to ready: binding, then two status reports. Returns when it is ready. */
export function startPod(
  world: World,
  pod: LivePod,
  createdDone: Micros,
  opts: { slow?: boolean } = {},
): { readyAt: Micros; bindingAuditID: string } {
  const binding = bindPod(world, pod, createdDone + ms(world, 15, 120));
  const started = binding.doneAt + ms(world, 500, 1400);
  reportStatus(world, pod, 'initializing', started, started);
  const readyAt = started + Math.round(world.rng.float(opts.slow ? 4 : 2, opts.slow ? 9 : 3.6) * SEC);
  reportStatus(world, pod, 'running', readyAt, started);
  return { readyAt, bindingAuditID: binding.auditID };
}

/** What a graceful delete or an eviction stamps on the pod's metadata. */
function deletionMarks(
  at: Micros,
  grace: number,
): { deletionTimestamp: string; deletionGracePeriodSeconds: number } {
  return { deletionTimestamp: fmtSeconds(at + grace * SEC), deletionGracePeriodSeconds: grace };
}

/** The pod as a delete at `at` returns it: the live pod with the deletion marks. */
function deletingPod(pod: LivePod, at: Micros, grace: number): JsonObject {
  const p = podJson(pod.live);
  const meta = isObject(p.metadata) ? p.metadata : {};
  return podJson(fromJson<Pod>({ ...p, metadata: { ...meta, ...deletionMarks(at, grace) } }));
}

/** The live pod from now on carries the deletion marks (the kubelet finishes the delete later). */
function markDeleting(pod: LivePod, at: Micros, grace: number): void {
  pod.live = { ...pod.live, metadata: { ...pod.live.metadata, ...deletionMarks(at, grace) } };
}

/** A graceful delete: only sets deletionTimestamp; the kubelet finishes it later. */
export function gracefulDelete(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  deleteOptions: JsonObject = {},
): RequestRecord {
  const grace = pod.live.spec?.terminationGracePeriodSeconds ?? 30;
  bump(world, pod);
  const rec = world.request({
    at,
    latency: ms(world, 10, 40),
    actor,
    verb: 'delete',
    ...podRef(pod),
    requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...deleteOptions },
    responseObject: deletingPod(pod, at, grace),
    code: 200,
  });
  markDeleting(pod, at, grace);
  return rec;
}

/** The kubelet's own final delete, once the containers stopped: grace 0, uid precondition. */
export function kubeletFinalDelete(
  world: World,
  pod: LivePod,
  at: Micros,
  opts: { reportTermination?: boolean } = {},
): RequestRecord {
  if (opts.reportTermination !== false) {
    const started = pod.createdAt + 2 * SEC;
    reportStatus(world, pod, 'terminating', at - ms(world, 150, 600), started);
  }
  const rec = world.request({
    at,
    latency: ms(world, 6, 25),
    actor: world.kubelet(pod.node),
    verb: 'delete',
    ...podRef(pod),
    requestObject: {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.uid },
    },
    responseObject: deletingPod(pod, at, 0),
    code: 200,
  });
  const life = world.podLifetimes.find((l) => l.name === pod.name && l.namespace === pod.namespace);
  if (life) life.to = rec.doneAt;
  return rec;
}

/** An eviction (`kubectl drain`, an autoscaler): create on pods/eviction; no delete event is written. */
export function evictPod(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  opts: { refusedBy?: string } = {},
): RequestRecord {
  const requestObject: JsonValue = {
    kind: 'Eviction',
    apiVersion: 'policy/v1',
    metadata: { name: pod.name, namespace: pod.namespace, creationTimestamp: null },
  };
  if (opts.refusedBy) {
    const message = "Cannot evict pod as it would violate the pod's disruption budget.";
    return world.request({
      at,
      latency: ms(world, 4, 15),
      actor,
      verb: 'create',
      ...podRef(pod),
      subresource: 'eviction',
      requestObject,
      responseObject: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'TooManyRequests',
        details: {
          causes: [
            {
              reason: 'DisruptionBudget',
              message: `The disruption budget ${opts.refusedBy} needs 2 healthy pods and has 2 currently`,
            },
          ],
        },
        code: 429,
      },
      code: 429,
      failure: { reason: 'TooManyRequests', message },
    });
  }
  const grace = pod.live.spec?.terminationGracePeriodSeconds ?? 30;
  bump(world, pod);
  const rec = world.request({
    at,
    latency: ms(world, 12, 45),
    actor,
    verb: 'create',
    ...podRef(pod),
    subresource: 'eviction',
    requestObject,
    responseObject: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
    code: 201,
  });
  markDeleting(pod, at, grace);
  return rec;
}

/**
 * The leaf paths a merge body writes (directives skipped). The scenarios only send map patches
 * (labels) this way; lists, which would need their merge keys, go as JSON patches instead.
 */
function mergeBodyPaths(body: JsonValue, segs: PathSegment[], out: string[]): void {
  if (!isObject(body)) {
    out.push(formatPath(segs));
    return;
  }
  for (const [k, v] of Object.entries(body)) {
    if (k.startsWith('$')) continue;
    mergeBodyPaths(v, [...segs, { key: k }], out);
  }
}

export type PatchBody = { type: 'json'; ops: Operation[] } | { type: 'merge'; body: JsonObject };

/**
 * A patch to a live pod (or its resize subresource) by someone other than koperator: applies it,
 * and remembers which fields it wrote and who wrote them.
 */
export function patchPod(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  patch: PatchBody,
  subresource?: string,
): RequestRecord {
  const before = toJson(pod.live);
  let after: JsonObject;
  const written: string[] = [];
  if (patch.type === 'json') {
    for (const op of patch.ops)
      written.push(pointerToPath(before, op.path, 'value' in op ? (op.value as JsonValue) : undefined));
    after = applyPatch(clone(before), patch.ops, false, true).newDocument;
  } else {
    mergeBodyPaths(patch.body, [], written);
    after = mergeInto(before, patch.body);
  }
  pod.live = fromJson<Pod>(after);
  bump(world, pod);
  for (const path of written) pod.writes.push({ path, by: actor.username });
  const rec = world.request({
    at,
    latency: ms(world, 8, 30),
    actor,
    verb: 'patch',
    ...podRef(pod),
    ...(subresource ? { subresource } : {}),
    requestObject: patch.type === 'json' ? patch.ops.map((o) => toJson(o)) : patch.body,
    responseObject: podJson(pod.live),
    code: 200,
  });
  pod.causeAuditIDs.push(rec.auditID);
  return rec;
}

/** RFC 7386 merge (enough for the label and resource patches the scenarios send). */
function mergeInto(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else if (isObject(v) && isObject(out[k])) out[k] = mergeInto(out[k] as JsonObject, v);
    else out[k] = v;
  }
  return out;
}

/**
 * `kubectl set image`: a strategic-merge patch of the pod naming the container by its merge
 * key, with `$setElementOrder/containers` listing every container (as kubectl sends it).
 */
export function setImage(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  container: string,
  image: string,
): RequestRecord {
  const containers = pod.live.spec?.containers ?? [];
  pod.live = {
    ...pod.live,
    spec: {
      ...pod.live.spec!,
      containers: containers.map((c) => (c.name === container ? { ...c, image } : c)),
    },
  };
  bump(world, pod);
  pod.writes.push({ path: `spec.containers[name=${container}].image`, by: actor.username });
  const rec = world.request({
    at,
    latency: ms(world, 8, 30),
    actor,
    verb: 'patch',
    ...podRef(pod),
    query: 'fieldManager=kubectl-set',
    requestObject: {
      spec: {
        '$setElementOrder/containers': containers.map((c) => ({ name: c.name })),
        containers: [{ image, name: container }],
      },
    },
    responseObject: podJson(pod.live),
    code: 200,
  });
  pod.causeAuditIDs.push(rec.auditID);
  return rec;
}

/**
 * `kubectl debug` on Kubernetes before 1.22: an update of `pods/ephemeralcontainers` whose
 * bodies are of kind `EphemeralContainers` (the pod's identity and the list), not `Pod`.
 */
export function addEphemeralContainer(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  container: JsonObject,
): RequestRecord {
  const before = (pod.live.spec?.ephemeralContainers ?? []).map((c) => toJson(c));
  const list = [...before, container];
  const body = (resourceVersion: string | undefined): JsonObject => ({
    kind: 'EphemeralContainers',
    apiVersion: 'v1',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      uid: pod.uid,
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    ephemeralContainers: list,
  });
  const sent = body(pod.live.metadata?.resourceVersion);
  pod.live = fromJson<Pod>({
    ...toJson(pod.live),
    spec: { ...(toJson(pod.live).spec as JsonObject), ephemeralContainers: list },
  });
  bump(world, pod);
  return world.request({
    at,
    latency: ms(world, 5, 20),
    actor,
    verb: 'update',
    ...podRef(pod),
    uid: pod.uid,
    subresource: 'ephemeralcontainers',
    requestObject: sent,
    responseObject: body(pod.live.metadata?.resourceVersion),
    code: 200,
  });
}

/** How a client sends an in-place resize: each form an autoscaler or kubectl may use. */
export type ResizeForm = 'json' | 'merge' | 'strategic' | 'update';

export const RESIZE_FORMS: readonly ResizeForm[] = ['json', 'merge', 'strategic', 'update'];

/**
 * An in-place resize of one container's cpu request through the pod's `resize` subresource
 * (Kubernetes 1.33+), sent in the given form: a JSON patch by index, a JSON merge patch (which
 * replaces the whole containers list), a strategic-merge patch naming the container by its merge
 * key, or a PUT of the whole pod.
 */
export function resizePod(
  world: World,
  pod: LivePod,
  actor: Actor,
  at: Micros,
  container: string,
  cpu: string,
  form: ResizeForm,
): RequestRecord {
  const containers = (pod.live.spec?.containers ?? []).map((c) =>
    c.name === container
      ? { ...c, resources: { ...c.resources, requests: { ...c.resources?.requests, cpu } } }
      : c,
  );
  pod.live = { ...pod.live, spec: { ...pod.live.spec!, containers } };
  bump(world, pod);
  const path = `spec.containers[name=${container}].resources.requests.cpu`;
  pod.writes.push({ path, by: actor.username });
  const idx = containers.findIndex((c) => c.name === container);
  const body: JsonValue =
    form === 'json'
      ? [{ op: 'replace', path: `/spec/containers/${idx}/resources/requests/cpu`, value: cpu }]
      : form === 'merge'
        ? { spec: { containers: clone(containers) as unknown as JsonValue } }
        : form === 'strategic'
          ? { spec: { containers: [{ name: container, resources: { requests: { cpu } } }] } }
          : (podJson(pod.live) as JsonValue);
  const rec = world.request({
    at,
    latency: ms(world, 8, 30),
    actor,
    verb: form === 'update' ? 'update' : 'patch',
    ...podRef(pod),
    subresource: 'resize',
    requestObject: body,
    responseObject: podJson(pod.live),
    code: 200,
  });
  pod.causeAuditIDs.push(rec.auditID);
  return rec;
}
