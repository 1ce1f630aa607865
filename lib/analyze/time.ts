// RFC 3339 times from different logs carry 0, 3, 6 or 9 fractional digits, so they do
// not sort as strings ("…39Z" > "…39.5Z"). Compare them as microseconds since the epoch.
//
// Nearly every time in the logs is UTC with a `Z` (`2026-11-02T00:00:27.109848Z`), and a
// fleet's day holds tens of millions of distinct ones, so that shape is read digit by digit
// (no cache can hold them, and Date.parse plus a RegExp was the analysis's largest single
// cost). Any other shape (offsets, odd ranges) goes through Date.parse as before, cached for
// the repeated look-ups of one pod's times while it is classified.
const MAX_CACHED = 65_536;
const cache = new Map<string, number>();

export function epochMicros(t: string): number {
  const fast = utcMicros(t);
  if (fast !== null) return fast;
  let v = cache.get(t);
  if (v !== undefined) return v;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return NaN;
  const frac = /\.(\d+)/.exec(t);
  const micros = frac ? Number((frac[1] + '000000').slice(3, 6)) : 0;
  v = ms * 1000 + micros;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(t, v);
  return v;
}

/** `digits` decimal digits at `at`, or -1 when any of them is not a digit. */
function digitsAt(t: string, at: number, digits: number): number {
  let n = 0;
  for (let i = at; i < at + digits; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]Z` as epoch microseconds, or null for any other shape or a
 * field out of its everyday range (left to Date.parse, whose answer this must equal: it
 * keeps milliseconds from the first three fraction digits, and the next three are added).
 */
export function utcMicros(t: string): number | null {
  const n = t.length;
  if (n < 20 || t.charCodeAt(n - 1) !== 90 /* Z */) return null;
  if (t[4] !== '-' || t[7] !== '-' || t[10] !== 'T' || t[13] !== ':' || t[16] !== ':') return null;
  const year = digitsAt(t, 0, 4);
  const month = digitsAt(t, 5, 2);
  const day = digitsAt(t, 8, 2);
  const hour = digitsAt(t, 11, 2);
  const minute = digitsAt(t, 14, 2);
  const second = digitsAt(t, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28) return null;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  let micros = 0;
  if (n > 20) {
    const fracDigits = n - 21;
    if (t[19] !== '.' || fracDigits < 1) return null;
    // Digits past the sixth are checked but dropped, as the Date.parse path drops them.
    for (let i = 20; i < n - 1; i++) {
      const d = t.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return null;
      if (i < 26) micros = micros * 10 + d;
    }
    for (let i = Math.min(n - 1, 26); i < 26; i++) micros *= 10;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second) * 1000 + micros;
}

export function compareTimes(a: string, b: string): number {
  return epochMicros(a) - epochMicros(b);
}

export function secondsBetween(from: string, to: string): number {
  return (epochMicros(to) - epochMicros(from)) / 1e6;
}
