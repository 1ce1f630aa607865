// SNS messages for alert events: the JSON body subscribers read, a subject email
// subscribers see, and message attributes that subscription filter policies match on.
//
// SNS limits shape this file: a subject must be ASCII, single-line and under 100
// characters; a message (with its attributes) at most 256 KiB. A finding is normally a
// few KiB, but a recreation's `fields` may carry whole affinity blocks and `evidence` can
// be long, so the body is trimmed step by step when needed and always points at the full
// report in S3.
import type { AlertSource } from '../alerts/sources';
import { changeOf } from '../report/change-lines';
import type { Classification, Drift, DriftField, Fight, Loop, Recreation } from '../model/findings';
import { isBrokerRemoval } from '../analyze/removal';
import { fightLabel } from '../fights/key';
import type { AlertEvent, AlertEventName } from '../alerts/types';
import { wordsOf } from '../operators/words-registry';

export const ALERT_SCHEMA = 'koperator-audit/alert';
export const ALERT_SCHEMA_VERSION = 1;
/** SNS's limit on a published message, attributes included. */
export const SNS_MAX_BYTES = 256 * 1024;
export const SUBJECT_MAX_CHARS = 99;

export type Severity = 'critical' | 'warning' | 'info';

export interface ReportPointer {
  /** s3://bucket/key of the run's full JSON report, for machines; never shown to people. */
  uri: string;
  /** Its HTTPS URL: the report-link function's (a token), pre-signed, or under the configured base URL. */
  url?: string;
  /** The same run as a self-contained HTML page for people: s3:// URI and HTTPS URL. */
  html?: { uri: string; url?: string };
  /** When the link stops working (RFC 3339); absent for URLs that do not expire. */
  expiresAt?: string;
  /**
   * `exact` (token links always), or `at-most` (or absent, in older messages): a pre-signed
   * URL may stop sooner, when the signing session ends.
   */
  expiry?: 'exact' | 'at-most';
}

interface AlertMessageBase {
  schema: typeof ALERT_SCHEMA;
  version: typeof ALERT_SCHEMA_VERSION;
  event: AlertEventName;
  id: string;
  cluster: string;
  severity: Severity;
  window: { from: string; to: string };
  report: ReportPointer | null;
  /** What was cut to fit SNS's size limit; the report holds it whole. */
  truncated?: string[];
  /** The run read no operator log line: the cause comes from the audit log alone (the report says what that costs). */
  operatorLogs?: 'absent';
  /** The raw log records (object, line, request id) the alert rests on, at most five. */
  sources?: AlertSource[];
}

export interface LoopAlertMessage extends AlertMessageBase {
  findingType: 'loop';
  /** One per loop, shared by all its announcements (chat threads). */
  threadId?: string;
  finding: Loop & { cluster: string };
  totalCount: number;
  latestRecreation: Recreation | null;
}

export interface RecreationAlertMessage extends AlertMessageBase {
  findingType: 'recreation';
  finding: Recreation & { cluster: string };
}

/** Another controller's fight (fights.md), announced as loops are. */
export interface FightAlertMessage extends AlertMessageBase {
  findingType: 'fight';
  threadId: string;
  finding: Fight & { cluster: string };
  totalCount: number;
}

/** A live drift (drift.md): one out-of-band write to a running broker pod, announced once. */
export interface DriftAlertMessage extends AlertMessageBase {
  findingType: 'drift';
  finding: Drift & { cluster: string };
}

export type AlertMessage = LoopAlertMessage | RecreationAlertMessage | FightAlertMessage | DriftAlertMessage;

export interface SnsMessage {
  subject: string;
  body: string;
  attributes: Record<string, { DataType: 'String'; StringValue: string }>;
}

const RECREATION_SEVERITY: Record<Classification, Severity> = {
  'external-mutation-revert': 'warning',
  unknown: 'warning',
  'container-terminated': 'warning',
  'tainted-restart': 'warning',
  'intent-change': 'info',
  'config-change': 'info',
  'external-deletion': 'info',
};

export function severityOf(ev: AlertEvent): Severity {
  if (ev.kind === 'recreation') return RECREATION_SEVERITY[ev.recreation.classification];
  if (ev.kind === 'drift') return driftSeverity(ev.drift);
  if (ev.event === 'loop-ended' || ev.event === 'fight-ended') return 'info';
  // A loop still going is an outage in the making; one already over is for the record.
  return (ev.kind === 'loop' ? ev.loop.active : ev.fight.active) ? 'critical' : 'warning';
}

/**
 * A tampered broker still running as tampered is the urgent case; one already deleted or
 * put back is for the record. Other drifts are announced only where configured.
 */
function driftSeverity(d: Drift): Severity {
  const stands = d.ended === null;
  if (d.severity === 'tamper') return stands ? 'critical' : 'warning';
  if (d.severity === 'change') return stands ? 'warning' : 'info';
  return 'info';
}

export function toAlertMessage(
  ev: AlertEvent,
  ctx: {
    window: { from: string; to: string };
    report: ReportPointer | null;
    operatorLogs?: 'absent';
    sources?: AlertSource[];
  },
): AlertMessage {
  const base = {
    schema: ALERT_SCHEMA,
    version: ALERT_SCHEMA_VERSION,
    event: ev.event,
    id: ev.id,
    cluster: ev.cluster,
    severity: severityOf(ev),
    window: ctx.window,
    report: ctx.report,
    ...(ctx.operatorLogs ? { operatorLogs: ctx.operatorLogs } : {}),
    ...(ctx.sources?.length ? { sources: ctx.sources } : {}),
  } as const;
  if (ev.kind === 'loop') {
    return {
      ...base,
      findingType: 'loop',
      ...(ev.threadId ? { threadId: ev.threadId } : {}),
      finding: { ...ev.loop, cluster: ev.cluster },
      totalCount: ev.totalCount,
      latestRecreation: ev.latest,
    };
  }
  if (ev.kind === 'fight') {
    return {
      ...base,
      findingType: 'fight',
      threadId: ev.threadId,
      finding: { ...ev.fight, cluster: ev.cluster },
      totalCount: ev.totalCount,
    };
  }
  if (ev.kind === 'drift')
    return { ...base, findingType: 'drift', finding: { ...ev.drift, cluster: ev.cluster } };
  return { ...base, findingType: 'recreation', finding: { ...ev.recreation, cluster: ev.cluster } };
}

const EVENT_WORDS: Record<AlertEventName, string> = {
  'loop-started': 'loop started',
  'loop-escalated': 'loop escalated',
  'loop-ended': 'loop ended',
  'fight-started': 'fight started',
  'fight-escalated': 'fight escalated',
  'fight-ended': 'fight ended',
  recreation: 'broker pod re-created',
  'drift-detected': 'live drift',
};

/** SNS subjects: ASCII, no control characters, under 100 characters. */
export function sanitiseSubject(s: string): string {
  const ascii = s
    .normalize('NFKD')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  return ascii.length <= SUBJECT_MAX_CHARS ? ascii : ascii.slice(0, SUBJECT_MAX_CHARS - 3) + '...';
}

export function alertSubject(m: AlertMessage): string {
  if (m.findingType === 'fight') {
    const f = m.finding;
    return sanitiseSubject(
      `[${m.cluster}] ${EVENT_WORDS[m.event]}: ${f.kind} ${fightLabel(f)} (${m.totalCount}x)`,
    );
  }
  if (m.findingType === 'drift') {
    const d = m.finding;
    const status = d.ended === null ? 'stands' : d.ended.how;
    return sanitiseSubject(
      `[${m.cluster}] ${EVENT_WORDS[m.event]}: ${wordsOf().unitOf(d.namespace, d.kafkaCluster, d.brokerId)} (${d.kind} by ${d.by}, ${status})`,
    );
  }
  const f = m.finding;
  const broker = wordsOf(f.operator).unitOf(f.namespace, f.kafkaCluster, f.brokerId);
  const detail = m.findingType === 'loop' ? `${f.classification}, ${m.totalCount}x` : f.classification;
  // A broker removed by a downscale re-created nothing: its subject says what happened.
  const event =
    m.findingType === 'recreation' && isBrokerRemoval(m.finding)
      ? 'broker removed (downscale)'
      : EVENT_WORDS[m.event];
  return sanitiseSubject(`[${m.cluster}] ${event}: ${broker} (${detail})`);
}

function attr(v: string): { DataType: 'String'; StringValue: string } {
  // SNS rejects empty attribute values; a filter policy can still match the placeholder.
  return { DataType: 'String', StringValue: v === '' ? 'none' : v };
}

export function alertAttributes(m: AlertMessage): SnsMessage['attributes'] {
  if (m.findingType === 'fight') {
    // The same keys as for brokers, so one filter policy can take or leave fights: the kind
    // stands where the class does, and there is no KafkaCluster.
    return {
      event: attr(m.event),
      classification: attr(m.finding.kind),
      severity: attr(m.severity),
      namespace: attr(m.finding.namespace ?? ''),
      kafkaCluster: attr(''),
      cluster: attr(m.cluster),
    };
  }
  if (m.findingType === 'drift') {
    // The drift's kind where the class stands (as for fights), and its own severity
    // (tamper, autoscaler, change) for a filter policy that takes only some.
    return {
      event: attr(m.event),
      classification: attr(m.finding.kind),
      severity: attr(m.severity),
      driftSeverity: attr(m.finding.severity),
      namespace: attr(m.finding.namespace),
      kafkaCluster: attr(m.finding.kafkaCluster),
      cluster: attr(m.cluster),
    };
  }
  return {
    event: attr(m.event),
    classification: attr(m.finding.classification),
    severity: attr(m.severity),
    namespace: attr(m.finding.namespace),
    kafkaCluster: attr(m.finding.kafkaCluster),
    cluster: attr(m.cluster),
  };
}

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

const VALUE_MAX_CHARS = 1024;
const EVIDENCE_KEEP = 20;
const PATHS_KEEP = 50;

function shortValue(v: unknown): unknown {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s === undefined || s.length <= VALUE_MAX_CHARS) return v;
  return s.slice(0, VALUE_MAX_CHARS) + `... (${s.length} chars, see report)`;
}

function trimRecreation(r: Recreation, step: number): Recreation {
  if (step === 1) {
    return {
      ...r,
      // The steps are worked out before the values are cut, so the alert still says what changed.
      fields: r.fields.map((f) => ({
        ...f,
        from: shortValue(f.from),
        to: shortValue(f.to),
        change: changeOf(f).map((c) => ({ ...c, from: shortValue(c.from), to: shortValue(c.to) })),
      })),
      evidence:
        r.evidence.length > EVIDENCE_KEEP
          ? [...r.evidence.slice(0, EVIDENCE_KEEP), `... ${r.evidence.length - EVIDENCE_KEEP} more in report`]
          : r.evidence,
    };
  }
  // Last resort: keep the paths (what changed) and who, drop the values and evidence.
  return {
    ...r,
    fields: r.fields.slice(0, PATHS_KEEP).map((f) => ({ ...f, from: null, to: null })),
    evidence: [],
    wouldRestart: r.wouldRestart,
  };
}

/** A debug container or a whole container list can be large: values first, then all but the paths. */
function trimDriftFields(fields: DriftField[], step: number): DriftField[] {
  return step === 1
    ? fields.map((f) => ({ ...f, declared: shortValue(f.declared), to: shortValue(f.to) }))
    : fields.slice(0, PATHS_KEEP).map((f) => ({ ...f, declared: null, to: null }));
}

function trimmed(m: AlertMessage, step: number): AlertMessage {
  const note = step === 1 ? ['fields.from', 'fields.to', 'evidence'] : ['fields', 'evidence', 'values'];
  if (m.findingType === 'drift') {
    const f = m.finding;
    return {
      ...m,
      finding: {
        ...f,
        fields: trimDriftFields(f.fields, step),
        evidence: step === 1 ? f.evidence.slice(0, EVIDENCE_KEEP) : f.evidence.slice(0, 1),
      },
      truncated: step === 1 ? ['fields.declared', 'fields.to', 'evidence'] : ['fields', 'evidence', 'values'],
    };
  }
  if (m.findingType === 'fight') {
    const f = m.finding;
    return {
      ...m,
      finding: {
        ...f,
        fields: f.fields.slice(0, step === 1 ? PATHS_KEEP * 4 : PATHS_KEEP),
        evidence: step === 1 ? f.evidence.slice(0, EVIDENCE_KEEP) : [],
      },
      truncated: ['fields', 'evidence'],
    };
  }
  if (m.findingType === 'loop') {
    const f = m.finding;
    return {
      ...m,
      finding: { ...f, fields: f.fields.slice(0, PATHS_KEEP), mutators: f.mutators.slice(0, PATHS_KEEP) },
      latestRecreation: m.latestRecreation ? trimRecreation(m.latestRecreation, step) : null,
      truncated: note,
    };
  }
  return {
    ...m,
    finding: { ...trimRecreation(m.finding, step), cluster: m.finding.cluster },
    truncated: note,
  };
}

/**
 * Builds subject, body and attributes, trimming the body until the whole message fits
 * `maxBytes` (SNS's limit by default). Throws only if even the identity of the finding
 * does not fit, which no real finding reaches.
 */
export function buildSnsMessage(m: AlertMessage, maxBytes: number = SNS_MAX_BYTES): SnsMessage {
  const subject = alertSubject(m);
  const attributes = alertAttributes(m);
  const overhead =
    bytes(subject) +
    Object.entries(attributes).reduce(
      (n, [k, v]) => n + bytes(k) + bytes(v.DataType) + bytes(v.StringValue),
      0,
    );
  const budget = maxBytes - overhead;
  for (const candidate of [m, trimmed(m, 1), trimmed(m, 2)]) {
    const body = JSON.stringify(candidate);
    if (bytes(body) <= budget) return { subject, body, attributes };
  }
  throw new Error(`alert ${m.id} does not fit in ${maxBytes} bytes even trimmed`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads an alert message back (the Slack notifier's input); throws on anything else. */
export function parseAlertMessage(text: string): AlertMessage {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error('SNS message is not JSON');
  }
  if (!isRecord(v) || v.schema !== ALERT_SCHEMA)
    throw new Error('SNS message is not a koperator-audit alert');
  if (v.version !== ALERT_SCHEMA_VERSION)
    throw new Error(`alert message version ${String(v.version)} is not ${ALERT_SCHEMA_VERSION}`);
  if (
    (v.findingType !== 'loop' &&
      v.findingType !== 'recreation' &&
      v.findingType !== 'fight' &&
      v.findingType !== 'drift') ||
    !isRecord(v.finding)
  ) {
    throw new Error('alert message has no finding');
  }
  return v as unknown as AlertMessage;
}
