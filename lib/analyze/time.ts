// RFC 3339 times from different logs carry 0, 3, 6 or 9 fractional digits, so they do
// not sort as strings ("…39Z" > "…39.5Z"). Compare them as microseconds since the epoch.
// The cache serves the repeated look-ups of one pod's times while it is classified; it is
// kept small because a fleet's day holds tens of millions of distinct times, and a cache
// that held them all would outweigh the findings (buildTimeline parses each fact once).
const MAX_CACHED = 65_536;
const cache = new Map<string, number>();

export function epochMicros(t: string): number {
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

export function compareTimes(a: string, b: string): number {
  return epochMicros(a) - epochMicros(b);
}

export function secondsBetween(from: string, to: string): number {
  return (epochMicros(to) - epochMicros(from)) / 1e6;
}
