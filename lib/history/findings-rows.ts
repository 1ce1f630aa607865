// The Athena findings history, as plain data: which columns a row has (the one definition
// the writer, the Glue table in the template and the DuckDB test all take), and the rows
// of one hour of a cluster's findings. One table for recreations, loops, fights and drifts
// (`record_type` tells them apart): the layout is one Hive prefix per cluster and day,
// `findings/cluster=…/dt=YYYY-MM-DD/`, and a table reads every file under its location, so
// two tables would need two prefixes; a union of columns costs nothing in JSON lines.
//
// What the fix saves (summary.fixImpact) is kept per recreation (`fix_verdict`,
// `downtime_seconds`), not as a row of sums per hour: each recreation is written once, in
// the hour of its deletion, so a week's saving is a plain SUM over recreation rows that can
// also be split by KafkaCluster, broker or webhook; an hourly total could be neither split
// nor summed beside the recreation rows without counting twice.
import { createHash } from 'crypto';
import { fixVerdict, recreationDowntime } from '../analyze/fix-impact';
import { isBrokerRemoval } from '../analyze/removal';
import { driftKey } from '../drift/key';
import type { Drift, Fight, Loop, Recreation } from '../model/findings';

const CHANGE = 'struct<path:string,old_value:string,new_value:string,set_by:string>';

/** Hive type names as Glue and Athena spell them. */
export type ColumnType =
  'string' | 'int' | 'double' | 'boolean' | 'array<string>' | `array<${typeof CHANGE}>`;

export interface Column {
  name: string;
  type: ColumnType;
  comment: string;
}

export const FINDINGS_COLUMNS = [
  { name: 'record_type', type: 'string', comment: 'recreation, loop, fight or drift' },
  {
    name: 'id',
    type: 'string',
    comment:
      "the finding's identity across runs: deleted pod uid (recreation), loop_id, fight id, namespace/pod@time (drift)",
  },
  { name: 'hour', type: 'string', comment: 'hour slot (UTC, yyyy-MM-dd-HH) the row describes' },
  { name: 'run_at', type: 'string', comment: 'scheduled time of the analysis run that wrote the row' },
  { name: 'namespace', type: 'string', comment: 'namespace (null for a cluster-scoped fight target)' },
  {
    name: 'kafka_cluster',
    type: 'string',
    comment: "KafkaCluster name (recreation, loop, drift); the NifiCluster's where operator is nifikop",
  },
  {
    name: 'broker_id',
    type: 'string',
    comment: "broker id (recreation, loop, drift); NiFi's node id where operator is nifikop",
  },
  { name: 'classification', type: 'string', comment: 'class of the recreation or loop' },
  {
    name: 'event_time',
    type: 'string',
    comment:
      "RFC 3339: the deletion (recreation), the loop's first deletion in the hour, the fight's first cycle, the write (drift)",
  },
  { name: 'deleted_pod', type: 'string', comment: 'recreation: deleted pod name' },
  { name: 'deleted_pod_uid', type: 'string', comment: 'recreation: deleted pod uid' },
  { name: 'deleted_by', type: 'string', comment: 'recreation: user that deleted it' },
  { name: 'created_pod', type: 'string', comment: 'recreation: successor pod name' },
  { name: 'created_pod_uid', type: 'string', comment: 'recreation: successor pod uid' },
  { name: 'created_at', type: 'string', comment: 'recreation: successor creation time' },
  {
    name: 'changes',
    type: `array<${CHANGE}>`,
    comment: 'recreation: each field that differed, values as text (JSON for non-strings), set_by the writer',
  },
  {
    name: 'would_restart_three_way',
    type: 'boolean',
    comment: "recreation: koperator's pre-fix diff restarts",
  },
  { name: 'would_restart_intent', type: 'boolean', comment: "recreation: the fix's intent diff restarts" },
  { name: 'loop_id', type: 'string', comment: 'loop identity (loop; recreation inside a loop)' },
  { name: 'loop_started_at', type: 'string', comment: 'loop: its first deletion as remembered across runs' },
  { name: 'cycles', type: 'int', comment: 'loop: deletions in this hour; fight: cycles seen by the run' },
  { name: 'first_at', type: 'string', comment: 'loop: first deletion in the hour; fight: first cycle' },
  { name: 'last_at', type: 'string', comment: 'loop: last deletion in the hour; fight: last cycle' },
  { name: 'period_seconds', type: 'double', comment: 'loop, fight: median period' },
  { name: 'paths', type: 'array<string>', comment: 'loop, fight: the paths fought over' },
  { name: 'mutators', type: 'array<string>', comment: 'loop, fight: the webhooks (configuration/webhook)' },
  { name: 'writers', type: 'array<string>', comment: 'fight: the users that write' },
  { name: 'active', type: 'boolean', comment: 'loop, fight: still going when the run looked' },
  { name: 'recommendation', type: 'string', comment: 'loop, fight: what to change' },
  { name: 'fight_kind', type: 'string', comment: 'fight: recreate-loop, field-fight or hot-loop' },
  { name: 'target_api_group', type: 'string', comment: 'fight: target apiGroup' },
  { name: 'target_resource', type: 'string', comment: 'fight: target resource' },
  { name: 'target_name', type: 'string', comment: 'fight: target name' },
  { name: 'target_slot', type: 'string', comment: 'fight (recreate-loop): pod name or generateName' },
  { name: 'evidence', type: 'array<string>', comment: 'audit IDs the finding rests on' },
  {
    name: 'fix_verdict',
    type: 'string',
    comment:
      "recreation: what koperator's fix (0.30.0-rc1) changes: avoidable (it would not happen), reverted-tamper (a person's change it reverted would now stand), other",
  },
  {
    name: 'downtime_seconds',
    type: 'double',
    comment:
      "recreation: deletion to the successor's first Ready=True (downtime_from ready), else to its create",
  },
  { name: 'downtime_from', type: 'string', comment: 'recreation: ready or create; null without a successor' },
  { name: 'ready_at', type: 'string', comment: "recreation: the successor's first Ready=True status write" },
  {
    name: 'broker_removed',
    type: 'boolean',
    comment:
      'recreation: true for a broker removed by a downscale (deleted, nothing re-created): not a recreation in any count',
  },
  { name: 'pod', type: 'string', comment: 'drift: the live broker pod written' },
  { name: 'pod_uid', type: 'string', comment: 'drift: its uid (null where the logs never show it)' },
  {
    name: 'written_by',
    type: 'string',
    comment: 'drift: the user who wrote (the impersonated user where there is one)',
  },
  { name: 'verb', type: 'string', comment: 'drift: patch or update' },
  { name: 'subresource', type: 'string', comment: 'drift: empty, ephemeralcontainers or resize' },
  {
    name: 'drift_kind',
    type: 'string',
    comment: 'drift: ephemeral-container, image, resources, tolerations, metadata or other',
  },
  { name: 'drift_severity', type: 'string', comment: 'drift: tamper, autoscaler or change' },
  {
    name: 'drift_fields',
    type: 'string',
    comment: 'drift: JSON array of {path, declared, to} (env values redacted)',
  },
  {
    name: 'ended_at',
    type: 'string',
    comment: 'drift: when it ended, as the run that wrote the hour saw it; null while it stood',
  },
  { name: 'ended_how', type: 'string', comment: 'drift: pod-deleted or reverted; null while it stood' },
  {
    name: 'pre_fix_would_revert',
    type: 'boolean',
    comment: 'drift: koperator before 0.30.0-rc1 would have re-created the pod for it',
  },
  // Last, so tables made before it keep their columns' positions; null is koperator's, as in
  // the findings document (a finding without `operator`) and in every row written before it.
  {
    name: 'operator',
    type: 'string',
    comment:
      'recreation, loop: the operator when not koperator (nifikop: kafka_cluster and broker_id are its NifiCluster and node id, would_restart_* are null)',
  },
] as const satisfies readonly Column[];

/** The partition columns, in key order: `cluster=<c>/dt=<yyyy-MM-dd>/`. */
export const FINDINGS_PARTITION_COLUMNS = [
  { name: 'cluster', type: 'string', comment: 'Kubernetes cluster (as in the key: percent-encoded)' },
  { name: 'dt', type: 'string', comment: 'UTC day, yyyy-MM-dd' },
] as const satisfies readonly Column[];

export interface FindingsChange {
  path: string;
  old_value: string | null;
  new_value: string | null;
  set_by: string | null;
}

type ValueOf<T extends ColumnType> = T extends 'string'
  ? string
  : T extends 'int' | 'double'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'array<string>'
        ? string[]
        : FindingsChange[];

/** A row: every column, null where it does not apply (the writer emits every key). */
export type FindingsRow = {
  [C in (typeof FINDINGS_COLUMNS)[number] as C['name']]: ValueOf<C['type']> | null;
};

export type RecordType = 'recreation' | 'loop' | 'fight' | 'drift';

const ms = (at: string): number => {
  const t = Date.parse(at);
  return Number.isNaN(t) ? NaN : t;
};

const digest = (parts: (string | null | undefined)[]): string =>
  createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('hex')
    .slice(0, 24);

/** A field value as text: strings as they are, anything else as JSON. */
function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function emptyRow(type: RecordType, id: string, hour: string, runAt: string): FindingsRow {
  const row = Object.fromEntries(FINDINGS_COLUMNS.map((c) => [c.name, null])) as FindingsRow;
  return { ...row, record_type: type, id, hour, run_at: runAt };
}

const brokerOf = (x: {
  namespace: string;
  operator?: string;
  kafkaCluster: string;
  brokerId: string;
}): string => `${x.namespace}/${x.kafkaCluster}/${x.brokerId}${x.operator ? `/${x.operator}` : ''}`;

/** A loop's identity: its broker and its first deletion as the alert state remembers it. */
export function loopId(cluster: string, loop: Loop, startedAt: string): string {
  return digest([cluster, brokerOf(loop), startedAt]);
}

export function fightId(cluster: string, f: Fight): string {
  return digest([
    cluster,
    f.kind,
    f.namespace,
    f.target.apiGroup,
    f.target.resource,
    f.target.name,
    f.target.slot,
    f.firstAt,
  ]);
}

/** A recreation's identity: the deleted pod's uid, else its name and deletion time (as the alerts key it). */
export function recreationId(r: Recreation): string {
  return r.deletedPod.uid ?? `${r.namespace}/${r.deletedPod.name}@${r.deletedPod.deletedAt}`;
}

/** Start of an hour slot `yyyy-MM-dd-HH` (UTC), in ms. */
export function hourStartMs(hour: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})$/.exec(hour);
  if (!m) throw new Error(`not an hour slot: ${hour}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]));
}

export function hourOfMs(t: number): string {
  return new Date(t).toISOString().slice(0, 13).replace('T', '-');
}

export interface HourFindings {
  recreations: readonly Recreation[];
  loops: readonly Loop[];
  fights?: readonly Fight[];
  drifts?: readonly Drift[];
}

/**
 * One recreation's downtime and what it runs to. To the microsecond, as logged: rounded per
 * row, a week's sum would drift from summary.fixImpact by up to half a tenth per recreation.
 */
function downtimeOf(r: Recreation): { seconds: number; from: 'ready' | 'create' } | null {
  const d = recreationDowntime(r);
  if (!d) return null;
  const seconds = d.toReady ?? d.toCreate;
  return { seconds: Math.round(seconds * 1e6) / 1e6, from: d.toReady !== null ? 'ready' : 'create' };
}

export interface HourContext {
  cluster: string;
  /** yyyy-MM-dd-HH, UTC. */
  hour: string;
  runAt: string;
  /** A loop's first deletion as remembered across runs (the alert state), else its own firstAt. */
  loopStartedAt: (loop: Loop) => string;
  /** Users counted as autoscalers for `fix_verdict` (summary.fixImpact's, `--autoscaler-user`). */
  autoscalerUsers?: readonly string[];
}

/**
 * The rows of one hour: each recreation deleted in it; per loop, the part of it in that
 * hour (its deletions there; `cycles`, `first_at`, `last_at` count only those); each fight
 * whose span overlaps it, as the run saw the fight; each drift written in it, its end as
 * the run saw it. Sorted, so the same findings give the same bytes.
 */
export function rowsForHour(f: HourFindings, ctx: HourContext): FindingsRow[] {
  const start = hourStartMs(ctx.hour);
  const end = start + 3_600_000;
  const inHour = (at: string): boolean => {
    const t = ms(at);
    return t >= start && t < end;
  };
  const loopOf = (r: Recreation): Loop | undefined =>
    f.loops.find(
      (l) =>
        brokerOf(l) === brokerOf(r) &&
        ms(r.deletedPod.deletedAt) >= ms(l.firstAt) &&
        ms(r.deletedPod.deletedAt) <= ms(l.lastAt),
    );
  const idOfLoop = (l: Loop): string => loopId(ctx.cluster, l, ctx.loopStartedAt(l));
  const rows: FindingsRow[] = [];

  const recs = f.recreations.filter((r) => inHour(r.deletedPod.deletedAt));
  for (const r of recs) {
    const loop = loopOf(r);
    const downtime = downtimeOf(r);
    rows.push({
      ...emptyRow('recreation', recreationId(r), ctx.hour, ctx.runAt),
      namespace: r.namespace,
      kafka_cluster: r.kafkaCluster,
      broker_id: r.brokerId,
      classification: r.classification,
      event_time: r.deletedPod.deletedAt,
      deleted_pod: r.deletedPod.name,
      deleted_pod_uid: r.deletedPod.uid,
      deleted_by: r.deletedPod.deletedBy,
      created_pod: r.createdPod?.name ?? null,
      created_pod_uid: r.createdPod?.uid ?? null,
      created_at: r.createdPod?.createdAt ?? null,
      changes: r.fields.map((c) => ({
        path: c.path,
        old_value: asText(c.from),
        new_value: asText(c.to),
        set_by: c.by,
      })),
      // koperator's two diffs; another operator's answers are per version (the JSON document's).
      would_restart_three_way: r.operator ? null : (r.wouldRestart?.threeWayMerge ?? null),
      would_restart_intent: r.operator ? null : (r.wouldRestart?.intentDiff ?? null),
      loop_id: loop ? idOfLoop(loop) : null,
      evidence: [...r.evidence],
      fix_verdict: fixVerdict(r, ctx.autoscalerUsers),
      downtime_seconds: downtime?.seconds ?? null,
      downtime_from: downtime?.from ?? null,
      ready_at: r.createdPod?.readyAt ?? null,
      broker_removed: isBrokerRemoval(r),
      operator: r.operator ?? null,
    });
  }

  for (const l of f.loops) {
    const members = recs
      .filter((r) => loopOf(r) === l)
      .map((r) => r.deletedPod.deletedAt)
      .sort((a, b) => ms(a) - ms(b));
    if (members.length === 0) continue;
    const id = idOfLoop(l);
    rows.push({
      ...emptyRow('loop', id, ctx.hour, ctx.runAt),
      namespace: l.namespace,
      kafka_cluster: l.kafkaCluster,
      broker_id: l.brokerId,
      classification: l.classification,
      event_time: members[0]!,
      loop_id: id,
      loop_started_at: ctx.loopStartedAt(l),
      cycles: members.length,
      first_at: members[0]!,
      last_at: members[members.length - 1]!,
      period_seconds: l.periodSeconds,
      paths: [...l.fields],
      mutators: [...l.mutators],
      active: l.active,
      recommendation: l.recommendation,
      operator: l.operator ?? null,
    });
  }

  for (const x of f.fights ?? []) {
    if (!(ms(x.firstAt) < end && ms(x.lastAt) >= start)) continue;
    rows.push({
      ...emptyRow('fight', fightId(ctx.cluster, x), ctx.hour, ctx.runAt),
      namespace: x.namespace,
      event_time: x.firstAt,
      cycles: x.count,
      first_at: x.firstAt,
      last_at: x.lastAt,
      period_seconds: x.periodSeconds,
      paths: [...x.fields],
      mutators: [...x.mutators],
      writers: [...x.writers],
      active: x.active,
      recommendation: x.recommendation,
      fight_kind: x.kind,
      target_api_group: x.target.apiGroup,
      target_resource: x.target.resource,
      target_name: x.target.name,
      target_slot: x.target.slot ?? null,
      evidence: [...x.evidence],
    });
  }
  for (const d of f.drifts ?? []) {
    if (!inHour(d.at)) continue;
    rows.push({
      ...emptyRow('drift', driftKey(d), ctx.hour, ctx.runAt),
      namespace: d.namespace,
      kafka_cluster: d.kafkaCluster,
      broker_id: d.brokerId,
      event_time: d.at,
      evidence: [...d.evidence],
      pod: d.pod.name,
      pod_uid: d.pod.uid,
      written_by: d.by,
      verb: d.verb,
      subresource: d.subresource,
      drift_kind: d.kind,
      drift_severity: d.severity,
      drift_fields: JSON.stringify(d.fields),
      ended_at: d.ended?.at ?? null,
      ended_how: d.ended?.how ?? null,
      pre_fix_would_revert: d.preFixWouldRevert,
    });
  }
  const order: Record<RecordType, number> = { recreation: 0, loop: 1, fight: 2, drift: 3 };
  return rows.sort(
    (a, b) =>
      order[a.record_type as RecordType] - order[b.record_type as RecordType] ||
      (a.event_time ?? '').localeCompare(b.event_time ?? '') ||
      (a.id ?? '').localeCompare(b.id ?? ''),
  );
}

/** One row as a JSON line, its keys in column order (every column present, null or not). */
export function encodeRow(row: FindingsRow): string {
  const ordered: Record<string, unknown> = {};
  for (const c of FINDINGS_COLUMNS) ordered[c.name] = row[c.name];
  return JSON.stringify(ordered);
}

/**
 * The hour slots a run writes: whole hours inside its window (so their findings had the
 * window's context) that ended at least `settleSeconds` before the run (so late logs are
 * in), after `writtenThrough` (the last hour an earlier run wrote), oldest first.
 */
export function settledHours(
  window: { from: string; to: string },
  settleSeconds: number,
  writtenThrough: string | null,
): string[] {
  const from = Math.ceil(ms(window.from) / 3_600_000) * 3_600_000;
  const until = ms(window.to) - settleSeconds * 1000;
  const after = writtenThrough === null ? -Infinity : hourStartMs(writtenThrough);
  const out: string[] = [];
  for (let t = from; t + 3_600_000 <= until; t += 3_600_000) if (t > after) out.push(hourOfMs(t));
  return out;
}

/** Glue's column list for the template (infra/athena.yml reads it through infra/findings-columns.cjs). */
export function glueColumns(
  columns: readonly Column[] = FINDINGS_COLUMNS,
): { Name: string; Type: string; Comment: string }[] {
  return columns.map((c) => ({ Name: c.name, Type: c.type, Comment: c.comment }));
}
