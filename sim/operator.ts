// koperator as the simulator models it (before the fix): for each broker it compares the live
// pod with the pod it would build now, in its own order (tainted labels, then the three-way diff,
// then a dead container, then an out-of-sync broker configuration), and replaces the pod when
// any of them holds. Every decision is also the ground truth for that recreation.
import type { Classification, FieldChange } from '../lib/model/findings';
import type { LivePod, NodeInfo, World, ClusterState } from './world';
import type { RequestRecord } from './audit-event';
import {
  deltaPatch,
  declaredDeletions,
  threeWayDelta,
  twoWayDiff,
  withLiveTolerations,
  type DiffEntry,
} from './diff';
import { isObject, sortKeys, stripNullsAndEmpty, toJson, type JsonObject, type JsonValue } from './json';
import { brokerPod, lastAppliedOf, stampLastApplied } from './pods';
import { LAST_APPLIED_ANNOTATION } from '../lib/k8s/last-applied';
import { createPod, gracefulDelete, kubeletFinalDelete, startPod } from './kube';
import type { ReconcileContext } from './operator-log';
import { MS, SEC, type Micros } from './time';
import type { SimRecreation } from './truth';
import type { FieldWrite } from './webhooks';

export interface Decision {
  kind: 'tainted' | 'diff' | 'terminated' | 'config' | 'in-sync';
  classification: Classification | null;
  fields: FieldChange[];
  wouldRestart: { threeWayMerge: boolean; intentDiff: boolean };
  delta: DiffEntry[];
  original: JsonObject;
  modified: JsonObject;
  current: JsonObject;
}

function ms(world: World, min: number, max: number): Micros {
  return Math.round(world.rng.float(min, max) * MS);
}

function secs(world: World, min: number, max: number): Micros {
  return Math.round(world.rng.float(min, max) * SEC);
}

/** The last writer of a field (or of a list or map holding it, or of something inside it). */
export function attribute(writes: readonly FieldWrite[], path: string): string | null {
  for (let i = writes.length - 1; i >= 0; i--) {
    const w = writes[i].path;
    const within = (a: string, b: string): boolean =>
      a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
    if (within(path, w) || within(w, path)) return writes[i].by;
  }
  return null;
}

/** The pod less its last-applied annotation and managed fields: what objectmatcher compares. */
export function withoutLastApplied(pod: JsonObject): JsonObject {
  const meta = isObject(pod.metadata) ? { ...pod.metadata } : {};
  if (isObject(meta.annotations)) {
    const a = { ...meta.annotations };
    delete a[LAST_APPLIED_ANNOTATION];
    meta.annotations = a;
  }
  delete meta.managedFields;
  return { ...pod, metadata: meta };
}

function taintedBy(cluster: ClusterState, pod: LivePod): boolean {
  const sel = cluster.spec.taintedBrokersSelector;
  if (!sel || Object.keys(sel).length === 0) return false;
  const labels = pod.live.metadata?.labels ?? {};
  return Object.entries(sel).every(([k, v]) => labels[k] === v);
}

function lastSpecWriter(cluster: ClusterState, before: Micros): string | null {
  const w = cluster.specWrites.filter((x) => x.at < before);
  return w.length > 0 ? w[w.length - 1].user : null;
}

function value(v: JsonValue | undefined): unknown {
  return v === undefined ? null : v;
}

/** koperator's restart decision for a broker's live pod at `at`, with the truth's fields. */
export function evaluate(cluster: ClusterState, pod: LivePod, at: Micros): Decision {
  const original = pod.lastApplied;
  const modified = lastAppliedOf(brokerPod(cluster.spec, pod.brokerId));
  const current = sortKeys(stripNullsAndEmpty(withoutLastApplied(toJson(pod.live)))) as JsonObject;
  const delta = [
    ...threeWayDelta(withLiveTolerations(modified, current), current),
    ...declaredDeletions(original, modified),
  ];
  const intent = twoWayDiff(original, modified);
  const wouldRestart = { threeWayMerge: delta.length > 0, intentDiff: intent.length > 0 };
  const base = { wouldRestart, delta, original, modified, current };
  if (taintedBy(cluster, pod))
    return { ...base, kind: 'tainted', classification: 'tainted-restart', fields: [] };
  if (delta.length > 0) {
    if (intent.length > 0) {
      const by = lastSpecWriter(cluster, at);
      return {
        ...base,
        kind: 'diff',
        classification: 'intent-change',
        fields: intent.map((d) => ({ path: d.path, from: value(d.from), to: value(d.to), by })),
      };
    }
    return {
      ...base,
      kind: 'diff',
      classification: 'external-mutation-revert',
      fields: delta.map((d) => ({
        path: d.path,
        from: value(d.from),
        to: value(d.to),
        by: attribute(pod.writes, d.path),
      })),
    };
  }
  if (pod.terminated)
    return { ...base, kind: 'terminated', classification: 'container-terminated', fields: [] };
  if (cluster.configOutOfSync.has(pod.brokerId))
    return { ...base, kind: 'config', classification: 'config-change', fields: [] };
  return { ...base, kind: 'in-sync', classification: null, fields: [] };
}

/** The start of a reconcile: a new reconcileID and the "Reconciling KafkaCluster" line. */
export function reconcile(world: World, cluster: ClusterState, at: Micros): ReconcileContext {
  const ctx = {
    cluster: cluster.spec.name,
    namespace: cluster.spec.namespace,
    reconcileID: world.rng.uuid(),
  };
  world.log.line(at, ctx, 'Reconciling KafkaCluster');
  return ctx;
}

/** koperator's status subresource writes (never the intent author). */
export function statusUpdate(world: World, cluster: ClusterState, at: Micros): RequestRecord {
  return world.request({
    at,
    latency: ms(world, 6, 20),
    actor: world.operator,
    verb: 'update',
    resource: 'kafkaclusters',
    apiGroup: 'kafka.banzaicloud.io',
    apiVersion: 'v1beta1',
    namespace: cluster.spec.namespace,
    name: cluster.spec.name,
    subresource: 'status',
    code: 200,
  });
}

export function setClusterState(
  world: World,
  cluster: ClusterState,
  ctx: ReconcileContext,
  at: Micros,
  state: ClusterState['state'],
): Micros {
  const rec = statusUpdate(world, cluster, at);
  world.log.line(rec.doneAt + ms(world, 1, 6), ctx, 'CR status updated', [['status', state]]);
  cluster.state = state;
  return rec.doneAt;
}

function pickNode(world: World, cluster: ClusterState, exclude?: NodeInfo): NodeInfo {
  const used = new Set([...cluster.brokers.values()].map((p) => p.node.name));
  const candidates = world
    .kafkaNodes()
    .filter((n) => !world.cordoned.has(n.name) && n.name !== exclude?.name);
  const free = candidates.filter((n) => !used.has(n.name));
  return world.rng.pick(free.length > 0 ? free : candidates);
}

export interface Created {
  pod: LivePod;
  record: RequestRecord;
  readyAt: Micros;
}

/** koperator creates the broker's pod (no pod matched its labels), and the pod starts. */
export function operatorCreate(
  world: World,
  cluster: ClusterState,
  brokerId: string,
  at: Micros,
  ctx: ReconcileContext,
  previousNode?: NodeInfo,
): Created {
  const stamped = stampLastApplied(brokerPod(cluster.spec, brokerId));
  const { pod, record } = createPod(world, stamped, world.operator, at, {
    cluster: cluster.spec.name,
    brokerId,
    node: pickNode(world, cluster, previousNode),
  });
  cluster.brokers.set(brokerId, pod);
  // UpdateBrokerStatus after the create (external listeners, configuration state, CC state).
  let t = record.doneAt + ms(world, 3, 12);
  for (let i = 0; i < 2; i++) t = statusUpdate(world, cluster, t).doneAt + ms(world, 2, 8);
  cluster.configOutOfSync.delete(brokerId);
  world.log.line(t, ctx, 'resource created', [], { resourceKind: '*v1.Pod' });
  const { readyAt } = startPod(world, pod, record.doneAt);
  return { pod, record, readyAt };
}

export interface Deleted {
  record: RequestRecord;
  /** When the kubelet's final delete completed: the pod is gone. */
  goneAt: Micros;
  ctx: ReconcileContext;
  diffLogged: boolean;
}

export interface DeleteOptions {
  /** Seconds the broker takes to shut down before the kubelet's final delete. */
  shutdown: readonly [number, number];
  downscale?: boolean;
}

/** koperator deletes a broker pod for `decision`, logging as it does. */
export function operatorDelete(
  world: World,
  cluster: ClusterState,
  pod: LivePod,
  at: Micros,
  decision: Decision,
  opts: DeleteOptions,
): Deleted {
  // One reconcile: the decision and its log lines, the status change, then the delete at `at`.
  const ctx = reconcile(world, cluster, at - ms(world, 400, 900));
  const decidedAt = at - ms(world, 200, 350);
  if (decision.kind === 'tainted') {
    world.log.line(
      decidedAt,
      ctx,
      world.log.taintedMessage(),
      [['pod', { apiVersion: 'v1', kind: 'Pod', namespace: pod.namespace, name: pod.name }]],
      { resourceKind: '*v1.Pod' },
    );
  }
  let diffLogged = false;
  if (decision.delta.length > 0 && world.isVerbose(decidedAt)) {
    world.log.line(
      decidedAt,
      ctx,
      'kafka pod resource diffs',
      [
        ['patch', JSON.stringify(deltaPatch(decision.delta, decision.modified))],
        ['current', JSON.stringify(decision.current)],
        ['modified', JSON.stringify(decision.modified)],
        ['original', JSON.stringify(decision.original)],
      ],
      { level: 'debug', resourceKind: '*v1.Pod' },
    );
    diffLogged = true;
  }
  if (!pod.terminated && !opts.downscale && cluster.state !== 'ClusterRollingUpgrading') {
    setClusterState(world, cluster, ctx, at - ms(world, 120, 160), 'ClusterRollingUpgrading');
  }
  let t = at;
  const record = gracefulDelete(world, pod, world.operator, t);
  t = record.doneAt + ms(world, 1, 8);
  if (pod.terminated) {
    world.log.line(
      t,
      ctx,
      'terminated container for broker pod',
      [
        ['pod', pod.name],
        ['brokerId', pod.brokerId],
        ['containerName', pod.terminated.containerName],
        ['exitCode', pod.terminated.exitCode],
        ['reason', pod.terminated.reason],
      ],
      { resourceKind: '*v1.Pod' },
    );
    t += ms(world, 0.2, 1);
  }
  // The rolling-upgrade path logs pod first; the downscale path logs brokerId first.
  const keys: ReadonlyArray<readonly [string, unknown]> = opts.downscale
    ? [
        ['brokerId', pod.brokerId],
        ['pod', pod.name],
      ]
    : [
        ['pod', pod.name],
        ['brokerId', pod.brokerId],
      ];
  world.log.line(t, ctx, 'broker pod deleted', keys, opts.downscale ? {} : { resourceKind: '*v1.Pod' });
  const final = kubeletFinalDelete(
    world,
    pod,
    record.doneAt + secs(world, opts.shutdown[0], opts.shutdown[1]),
    { reportTermination: !pod.terminated },
  );
  cluster.brokers.delete(pod.brokerId);
  return { record, goneAt: final.doneAt, ctx, diffLogged };
}

/**
 * After a broker pod is gone: the reconciles held by "pod is still terminating", then the
 * successor's create `createDelay` seconds after the pod disappeared, then (once it is ready)
 * the cluster back to ClusterRunning unless more brokers are still to roll.
 */
export function recreateAfter(
  world: World,
  cluster: ClusterState,
  brokerId: string,
  from: Micros,
  goneAt: Micros,
  opts: { createDelay?: readonly [number, number]; keepRolling?: boolean; previousNode?: NodeInfo } = {},
): Created {
  let t = from + secs(world, 0.8, 1.6);
  while (t < goneAt - SEC) {
    const ctx = reconcile(world, cluster, t);
    world.log.line(t + ms(world, 20, 90), ctx, 'Rolling Upgrade in Progress');
    t += secs(world, 1.6, 3.2);
  }
  const delay = opts.createDelay ?? [0.25, 1.1];
  const createAt = goneAt + secs(world, delay[0], delay[1]);
  const ctx = reconcile(world, cluster, createAt - ms(world, 30, 200));
  const created = operatorCreate(world, cluster, brokerId, createAt, ctx, opts.previousNode);
  if (!opts.keepRolling && cluster.state === 'ClusterRollingUpgrading') {
    const at = created.readyAt + secs(world, 0.3, 0.8);
    setClusterState(world, cluster, reconcile(world, cluster, at), at + ms(world, 15, 60), 'ClusterRunning');
  }
  return created;
}

/** The truth's note of a broker pod koperator deleted. */
export function deletedByOperator(world: World, pod: LivePod, deleted: Deleted): SimRecreation['deleted'] {
  return { pod, at: deleted.record.receivedAt, by: world.operator.username, auditID: deleted.record.auditID };
}

/** The successor's create completes a recreation in the truth, and is part of its evidence. */
function recordSuccessor(recreation: SimRecreation, created: Created): void {
  recreation.created = { pod: created.pod, at: created.record.receivedAt, auditID: created.record.auditID };
  recreation.evidence.push(created.record.auditID);
}

export interface Restart {
  recreation: SimRecreation;
  deletedAt: Micros;
  createdAt: Micros;
  readyAt: Micros;
}

/**
 * koperator replaces a broker pod it finds out of sync at `at`: decision, delete, wait, create.
 * Records the recreation in the truth.
 */
export function operatorRestart(
  world: World,
  clusterName: string,
  brokerId: string,
  at: Micros,
  opts: {
    shutdown?: readonly [number, number];
    createDelay?: readonly [number, number];
    keepRolling?: boolean;
    evidence?: string[];
    /** Runs once the pod is deleted, before its successor is created (ends a loop, say). */
    onDeleted?: (at: Micros) => void;
  } = {},
): Restart {
  const cluster = world.cluster(clusterName);
  const pod = world.broker(clusterName, brokerId);
  const decision = evaluate(cluster, pod, at);
  if (decision.classification === null)
    throw new Error(`simulator: ${pod.name} is in sync at ${at}, nothing would restart it`);
  const deleted = operatorDelete(world, cluster, pod, at, decision, { shutdown: opts.shutdown ?? [3, 6] });
  const recreation: SimRecreation = {
    namespace: pod.namespace,
    kafkaCluster: clusterName,
    brokerId,
    deleted: deletedByOperator(world, pod, deleted),
    created: null,
    classification: decision.classification,
    fields: decision.fields,
    wouldRestart: decision.wouldRestart,
    evidence: [
      ...(opts.evidence ?? []),
      ...(decision.kind === 'diff' &&
      decision.classification === 'external-mutation-revert' &&
      pod.mutatedBy.length > 0 &&
      pod.createAuditID
        ? [pod.createAuditID]
        : []),
      ...pod.causeAuditIDs,
      deleted.record.auditID,
    ],
    diffLogged: deleted.diffLogged,
  };
  world.recreations.push(recreation);
  opts.onDeleted?.(deleted.record.doneAt + ms(world, 100, 400));
  const created = recreateAfter(world, cluster, brokerId, deleted.record.doneAt, deleted.goneAt, {
    createDelay: opts.createDelay,
    keepRolling: opts.keepRolling,
    previousNode: pod.node,
  });
  recordSuccessor(recreation, created);
  return {
    recreation,
    deletedAt: deleted.record.receivedAt,
    createdAt: created.record.receivedAt,
    readyAt: created.readyAt,
  };
}

/**
 * Someone other than koperator deleted or evicted a broker pod; koperator re-creates it once
 * it is gone. The recreation is an external deletion whatever the pod's diff would have said.
 */
export function externalLoss(
  world: World,
  clusterName: string,
  pod: LivePod,
  deletion: { at: Micros; doneAt: Micros; by: string; auditID: string; evidence: string[] },
  goneAt: Micros,
): Restart {
  const cluster = world.cluster(clusterName);
  const decision = evaluate(cluster, pod, deletion.at);
  cluster.brokers.delete(pod.brokerId);
  const recreation: SimRecreation = {
    namespace: pod.namespace,
    kafkaCluster: clusterName,
    brokerId: pod.brokerId,
    deleted: { pod, at: deletion.at, by: deletion.by, auditID: deletion.auditID },
    created: null,
    classification: 'external-deletion',
    fields: [],
    wouldRestart: decision.wouldRestart,
    evidence: [...deletion.evidence],
    diffLogged: false,
  };
  world.recreations.push(recreation);
  const created = recreateAfter(world, cluster, pod.brokerId, deletion.doneAt, goneAt, {
    previousNode: pod.node,
  });
  recordSuccessor(recreation, created);
  return {
    recreation,
    deletedAt: deletion.at,
    createdAt: created.record.receivedAt,
    readyAt: created.readyAt,
  };
}
