// The facts of an alert as people read them, shared by every human channel (Slack, chat,
// email): who changed what, over which period, what to do, and where the report is. Plain
// strings; each channel escapes and lays them out in its own markup.
import { isBrokerRemoval } from '../analyze/removal';
import type { Classification, FieldChange, Recreation } from '../model/findings';
import type { AlertMessage, ReportPointer } from './message';
import { fightLabel } from '../fights/key';
import { changeLines } from '../report/change-lines';

/** A change line in a chat message or mail; the report has the whole value. */
const CHANGE_LINE_CHARS = 150;
import { driftRecommendation, driftStatusWords, driftWriteWords } from './drift-words';
import { wordsOf } from '../operators/words-registry';

export const EVENT_TITLES: Record<AlertMessage['event'], string> = {
  'loop-started': 'Recreation loop started',
  'loop-escalated': 'Recreation loop escalated',
  'loop-ended': 'Recreation loop ended',
  'fight-started': 'Controller fight started',
  'fight-escalated': 'Controller fight escalated',
  'fight-ended': 'Controller fight ended',
  recreation: 'Broker pod re-created',
  'drift-detected': 'Live drift on a broker pod',
};

/** Whether a recreation alert is about a broker removed by a downscale: deleted, nothing re-created. */
export function isRemovalAlert(m: AlertMessage): boolean {
  return m.findingType === 'recreation' && isBrokerRemoval(m.finding);
}

/** The alert's title: a removal is said as one, never as a pod re-created. */
export function titleOf(m: AlertMessage): string {
  return isRemovalAlert(m) ? 'Broker removed (downscale)' : EVENT_TITLES[m.event];
}

/** Plain-words advice per class, for single recreations (loops carry the analysis' own). */
export function recommendationFor(c: Classification): string {
  return wordsOf().recreationAdvice(c);
}

/** A member removed by a downscale: nothing to undo, only to confirm. */
export function removalRecommendation(operator?: string): string {
  const w = wordsOf(operator);
  return `The ${w.unit} was removed from its cluster's spec (a downscale): ${w.operator} deleted its pod and re-creates none. Check the downscale was intended; no restart loop follows from it.`;
}

export function recommendationOf(m: AlertMessage): string {
  if (m.findingType === 'fight') return m.finding.recommendation;
  if (m.findingType === 'drift') return driftRecommendation(m.finding);
  if (m.findingType === 'loop')
    return m.finding.recommendation || recommendationFor(m.finding.classification);
  if (isBrokerRemoval(m.finding)) return removalRecommendation();
  // A revert whose writers the logs name gets their own remedies (how each wrote: at admission,
  // in place, by a patch), as a loop's advice does.
  if (m.finding.classification === 'external-mutation-revert' && m.finding.fields.some((f) => f.by))
    return wordsOf(m.finding.operator).revertAdvice(m.finding.fields);
  return recommendationFor(m.finding.classification);
}

/** For a loop the fix would end, the reason to upgrade (summary.fixImpact's, for this loop); else null. */
export function upgradeReasonOf(m: AlertMessage): string | null {
  return m.findingType === 'loop'
    ? wordsOf().fixImpact.loopUpgradeReason(m.finding, m.latestRecreation, m.totalCount)
    : null;
}

/** When the run read no operator log line: what the alert's cause lacks and the step that gives it; else null. */
export function operatorLogsStepOf(m: AlertMessage): string | null {
  if (m.operatorLogs !== 'absent') return null;
  const op = wordsOf(
    m.findingType === 'loop' || m.findingType === 'recreation' ? m.finding.operator : undefined,
  ).operator;
  return (
    `No ${op} log line reached the analysis: this cause comes from the audit log alone, without ${op}'s own diff ` +
    `or its word that it deleted the pod (the report's warnings say more). Ship its logs: eksOperatorLogs on EKS.`
  );
}

/**
 * The raw records the alert rests on, for people: each log object once (its bucket and key,
 * not an `s3://` URI no mail client opens) with its lines and request ids; null when none.
 */
export function sourcesText(m: AlertMessage): string | null {
  if (!m.sources?.length) return null;
  const byObject = new Map<string, { lines: number[]; ids: string[] }>();
  for (const s of m.sources) {
    const o = byObject.get(s.object) ?? { lines: [], ids: [] };
    o.lines.push(s.line);
    o.ids.push(s.auditID);
    byObject.set(s.object, o);
  }
  const parts = [...byObject].map(
    ([object, o]) =>
      `${object.replace(/^s3:\/\//, '')} ${o.lines.length > 1 ? 'lines' : 'line'} ${o.lines.join(', ')} ` +
      `(${o.ids.length > 1 ? 'requests' : 'request'} ${o.ids.join(', ')})`,
  );
  return `Sources: ${parts.join('; ')}`;
}

/** What the alert is about: a broker, or for a fight the object fought over. */
export function brokerOf(m: AlertMessage): string {
  if (m.findingType === 'fight') return `${m.finding.kind} over ${fightLabel(m.finding)}`;
  const f = m.finding;
  return wordsOf('operator' in f ? f.operator : undefined).unitOf(f.namespace, f.kafkaCluster, f.brokerId);
}

/** The class of a broker's finding, the kind of a fight, a drift's kind and severity. */
export function classOf(m: AlertMessage): string {
  if (m.findingType === 'drift') return `${m.finding.kind} (${m.finding.severity})`;
  return m.findingType === 'fight' ? m.finding.kind : m.finding.classification;
}

/** Who changed the fields (webhooks, controllers, users), without repeats. */
export function changersOf(m: AlertMessage): string[] {
  if (m.findingType === 'fight') return [...new Set([...m.finding.writers, ...m.finding.mutators])];
  // The impersonated user where there was one (the analysis already names them).
  if (m.findingType === 'drift') return [m.finding.by];
  if (m.findingType === 'loop') {
    const who =
      m.finding.mutators.length > 0
        ? m.finding.mutators
        : (m.latestRecreation?.fields.map((f) => f.by).filter((b): b is string => !!b) ?? []);
    return [...new Set(who)];
  }
  return [...new Set(m.finding.fields.map((f) => f.by).filter((b): b is string => !!b))];
}

export function periodOf(m: AlertMessage): string {
  if (m.findingType === 'drift')
    return `written ${m.finding.at} (${driftWriteWords(m.finding)}); ${driftStatusWords(m.finding)}`;
  if (m.findingType === 'loop' || m.findingType === 'fight') {
    const l = m.finding;
    const still = m.findingType === 'loop' ? ' (still looping)' : ' (still fighting)';
    return `every ~${l.periodSeconds} s, ${l.firstAt} → ${l.lastAt}${l.active ? still : ''}`;
  }
  const r: Recreation = m.finding;
  if (r.createdPod) return `${r.deletedPod.deletedAt} → ${r.createdPod.createdAt}`;
  return isBrokerRemoval(r)
    ? `deleted ${r.deletedPod.deletedAt}, the broker removed by a downscale`
    : `deleted ${r.deletedPod.deletedAt}, no successor seen`;
}

/**
 * The changed fields with what changed (`lines`, change-lines.ts) and by whom; for a loop, those
 * of its latest recreation (else its paths).
 */
export function changesOf(
  m: AlertMessage,
): { path: string; from?: unknown; to?: unknown; lines?: string[]; by?: string }[] {
  const full = (fields: readonly FieldChange[]) =>
    fields.map((f) => ({
      path: f.path,
      from: f.from,
      to: f.to,
      lines: changeLines(f, { max: CHANGE_LINE_CHARS }),
      ...(f.by ? { by: f.by } : {}),
    }));
  if (m.findingType === 'recreation') return full(m.finding.fields);
  // A drift's `from` is what koperator declares, its `to` what the write left.
  if (m.findingType === 'drift')
    return m.finding.fields.map((f) => ({
      path: f.path,
      from: f.declared,
      to: f.to,
      lines: changeLines({ path: f.path, from: f.declared, to: f.to }, { max: CHANGE_LINE_CHARS }),
    }));
  if (m.findingType === 'fight') return m.finding.fields.map((path) => ({ path }));
  if (m.latestRecreation && m.latestRecreation.fields.length > 0) return full(m.latestRecreation.fields);
  return m.finding.fields.map((path) => ({ path }));
}

export function countOf(m: AlertMessage): number {
  return m.findingType === 'recreation' || m.findingType === 'drift' ? 1 : m.totalCount;
}

export interface ReportLinkWords {
  /** HTTPS URL of the report for people (the HTML page when there is one). */
  url: string;
  /**
   * "valid until …" for a link of the report-link function (its token's own end, exact),
   * "valid until … at the latest" for a pre-signed URL, null for one that does not expire.
   * At the latest: S3 also refuses it once the credentials that signed it expire, and a
   * Lambda role's session may end first without the function being told when.
   */
  lifetime: string | null;
}

/**
 * The report's clickable link, or null when the run has none: an s3:// URI is never
 * offered to people (no browser or chat client opens it).
 */
export function reportLinkOf(r: ReportPointer | null): ReportLinkWords | null {
  if (!r) return null;
  const url = r.html?.url ?? r.url;
  if (!url || !/^https?:\/\//.test(url)) return null;
  return {
    url,
    lifetime: r.expiresAt ? lifetimeWords(r.expiresAt, r.expiry) : null,
  };
}

/**
 * Only what is known: an exact end for a token link, or a pre-signed URL whose signing
 * credentials' end was known, else the requested end as an upper bound, and why it may
 * come sooner.
 */
function lifetimeWords(expiresAt: string, expiry: 'exact' | 'at-most' | undefined): string {
  const at = expiresAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return expiry === 'exact'
    ? `link valid until ${at}`
    : `link valid until ${at} at the latest, sooner if the AWS session that signed it ends first`;
}

/** A value as one short line: strings bare, the rest as JSON, `absent` for a missing side. */
export function valueText(v: unknown, max: number): string {
  const s = v === undefined ? 'absent' : typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}
