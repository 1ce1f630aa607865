// Simulated time is an integer count of microseconds since the Unix epoch: the audit log
// prints microseconds, zap prints milliseconds, object timestamps print seconds, and all
// three must agree on the same instant.

export type Micros = number;

export const MS = 1_000;
export const SEC = 1_000_000;
export const MIN = 60 * SEC;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export function parseTime(rfc3339: string): Micros {
  const ms = Date.parse(rfc3339);
  if (Number.isNaN(ms)) throw new Error(`not an RFC 3339 time: ${rfc3339}`);
  const frac = /\.(\d+)/.exec(rfc3339);
  // Date.parse keeps milliseconds only; put back the microseconds a caller may have given.
  const micro = frac ? Number((frac[1] + '000000').slice(3, 6)) : 0;
  return ms * MS + micro;
}

function isoSeconds(t: Micros): string {
  return new Date(Math.floor(t / MS)).toISOString().slice(0, 19);
}

/** `2026-11-02T10:37:39.689748Z`: audit requestReceivedTimestamp / stageTimestamp. */
export function fmtMicros(t: Micros): string {
  const us = Math.floor(t) % SEC;
  return `${isoSeconds(t)}.${String(us).padStart(6, '0')}Z`;
}

/** `2026-11-02T10:37:39.689Z`: zap's ISO 8601 encoder. */
export function fmtMillis(t: Micros): string {
  const ms = Math.floor((Math.floor(t) % SEC) / MS);
  return `${isoSeconds(t)}.${String(ms).padStart(3, '0')}Z`;
}

/** `2026-11-02T10:37:39Z`: metav1.Time (creationTimestamp, deletionTimestamp, conditions). */
export function fmtSeconds(t: Micros): string {
  return `${isoSeconds(t)}Z`;
}

/** Seconds since the epoch as a float: the older zap encoder's `ts`. */
export function epochSeconds(t: Micros): number {
  return Math.floor(t) / SEC;
}
