// The operators' zap JSON lines. Only the time is normalised (RFC 3339 UTC, milliseconds), so
// lines from every zap time encoder sort and compare as strings; every other key stays
// exactly as logged in `fields`, older key names (`logger`, `Request.Namespace`,
// `Request.Name`) included. koperator's encoder names the time `ts`; NiFiKop's production
// config names it `time` (its lines as users quote them, nifikop #346 and #600).
import type { OperatorLine } from '../../model/operator-line';
import type { JsonObject } from './json';

/** The line's time key: `ts`, else a string `time` (NiFiKop); null when neither. */
function timeKey(v: JsonObject): 'ts' | 'time' | null {
  if ('ts' in v) return 'ts';
  return typeof v.time === 'string' ? 'time' : null;
}

export function isZapShaped(v: JsonObject): boolean {
  return typeof v.msg === 'string' && typeof v.level === 'string' && timeKey(v) !== null;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const NUMERIC = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Milliseconds since the epoch from a number of seconds, ms or ns (zap's epoch encoders). */
function epochMillis(n: number): number {
  if (n < 1e11) return n * 1000; // seconds (zap's default EpochTimeEncoder, a float)
  if (n < 1e14) return n; // EpochMillisTimeEncoder
  return n / 1e6; // EpochNanosTimeEncoder
}

/** RFC 3339 UTC with milliseconds, or null when `ts` is not a time. */
export function normaliseTs(ts: unknown): string | null {
  let ms: number;
  if (typeof ts === 'number') {
    if (!Number.isFinite(ts) || ts < 0) return null;
    ms = epochMillis(ts);
  } else if (typeof ts === 'string') {
    const m = ISO.exec(ts.trim());
    if (m) {
      // Truncate below the millisecond, as RFC3339Nano-to-ms conversions do.
      const frac = m[7] ? Number((m[7] + '00').slice(0, 3)) : 0;
      ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) + frac;
      const zone = m[8];
      if (zone && zone !== 'Z' && zone !== 'z') {
        const sign = zone[0] === '-' ? -1 : 1;
        const digits = zone.slice(1).replace(':', '');
        const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
        ms -= sign * offset * 60_000;
      }
    } else if (NUMERIC.test(ts.trim())) {
      ms = epochMillis(Number(ts));
    } else {
      return null;
    }
  } else {
    return null;
  }
  // Round away float noise (1793617200.123 s * 1000 = ...122.9999) before truncating.
  const d = new Date(Math.floor(Math.round(ms * 1000) / 1000));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function toOperatorLine(v: JsonObject): OperatorLine | 'bad-ts' {
  const key = timeKey(v) ?? 'ts';
  const ts = normaliseTs(v[key]);
  if (ts === null) return 'bad-ts';
  const fields: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    if (k !== key && k !== 'level' && k !== 'msg') fields[k] = v[k];
  }
  return { ts, level: v.level as string, msg: v.msg as string, fields };
}
