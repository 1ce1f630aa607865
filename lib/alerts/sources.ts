// Where an alert's evidence came from: the source objects (S3 keys of the raw logs, with the
// line) and the request ids (audit IDs) its decision rests on, so that whoever receives it can
// open the very records, and trace an alert back through the ingest that read them.
import type { FactStore } from '../facts/store';
import type { AlertEvent } from './types';

export interface AlertSource {
  /** The raw log object (s3://bucket/key, or a file) and the line the record was on. */
  object: string;
  line: number;
  /** The audit event's auditID (the API request's id). */
  auditID: string;
}

/** Sources listed per alert at most: the message stays small; the report has them all. */
export const MAX_ALERT_SOURCES = 5;

/** The audit IDs an alert rests on: its finding's evidence (a loop's: its newest recreation's). */
export function evidenceOf(ev: AlertEvent): string[] {
  switch (ev.kind) {
    case 'loop':
      return ev.latest?.evidence ?? [];
    case 'recreation':
      return ev.recreation.evidence;
    case 'fight':
      return ev.fight.evidence;
    case 'drift':
      return ev.drift.evidence;
  }
}

/**
 * Each alert's sources, in its evidence's order, at most MAX_ALERT_SOURCES: one pass over the
 * facts read, only when there are alerts (a run that announces nothing pays nothing).
 */
export function alertSources(events: readonly AlertEvent[], facts: FactStore): Map<string, AlertSource[]> {
  const out = new Map<string, AlertSource[]>();
  if (events.length === 0) return out;
  const wanted = new Map<string, string[]>();
  for (const ev of events) wanted.set(ev.id, evidenceOf(ev).slice(0, MAX_ALERT_SOURCES));
  const ids = new Set([...wanted.values()].flat());
  const found = new Map<string, AlertSource>();
  for (let i = 0; i < facts.size && found.size < ids.size; i++) {
    if (facts.type(i) === 'operator') continue;
    const f = facts.fact(i);
    if (!('auditID' in f) || !ids.has(f.auditID) || found.has(f.auditID)) continue;
    found.set(f.auditID, { object: f.src.source, line: f.src.line, auditID: f.auditID });
  }
  for (const [id, list] of wanted) {
    const sources = list.flatMap((a) => {
      const s = found.get(a);
      return s ? [s] : [];
    });
    if (sources.length > 0) out.set(id, sources);
  }
  return out;
}
