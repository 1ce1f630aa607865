// Words every view uses for live drift (drift.md), so the table, Markdown, HTML and alerts
// describe a drift alike.
import type { Drift } from '../model/findings';
import { formatTimestamp, formatValue, parseTime } from './format';

/** Standing tamper first, then by time: what still needs someone's attention leads. */
export function sortDrifts(drifts: readonly Drift[]): Drift[] {
  const rank = (d: Drift) => (d.ended === null ? 0 : 2) + (d.severity === 'tamper' ? 0 : 1);
  return [...drifts].sort((a, b) => rank(a) - rank(b) || (parseTime(a.at) ?? 0) - (parseTime(b.at) ?? 0));
}

/** How the write was made: `patch`, `update ephemeralcontainers`, `patch resize`. */
export function driftWrite(d: Pick<Drift, 'verb' | 'subresource'>): string {
  return d.subresource ? `${d.verb} ${d.subresource}` : d.verb;
}

/** `stands`, or how and when it ended. */
export function driftState(d: Pick<Drift, 'ended'>): string {
  if (!d.ended) return 'stands';
  const when = formatTimestamp(d.ended.at);
  return d.ended.how === 'reverted' ? `reverted ${when}` : `pod deleted ${when}`;
}

/** One line per field: `path: declared → written`; the subresource alone where no body was logged. */
export function driftChanges(d: Pick<Drift, 'fields' | 'subresource'>): string[] {
  if (d.fields.length === 0) return [`${d.subresource || 'pod'} written (Metadata level: no body logged)`];
  return d.fields.map((f) => `${f.path}: ${formatValue(f.declared)} → ${formatValue(f.to)}`);
}

export function driftPreFix(d: Pick<Drift, 'preFixWouldRevert'>): string {
  return d.preFixWouldRevert
    ? 'koperator before 0.30.0-rc1 would have reverted it'
    : 'no koperator version reverts it';
}

export function countStanding(drifts: readonly Drift[]): number {
  return drifts.filter((d) => d.ended === null).length;
}
