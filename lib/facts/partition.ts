// Facts partitioned by hour (UTC): which hour a fact falls in, where an hour starts, which
// hours a window spans. The facts store keeps one object per source and hour, so a window
// reads only the hours it spans; the keys that embed the hour are lib/aws/bucket-layout.ts.
import type { Fact } from '../model/facts';

/** Hour partition of an RFC 3339 time, in UTC; null when the time does not parse. */
export function hourOf(at: string): string | null {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 13).replace('T', '-');
}

/** Start of an hour partition as a Date. */
export function hourStart(hour: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})$/.exec(hour);
  if (!m) throw new Error(`not an hour partition: ${hour}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4])));
}

/** Every hour partition that overlaps [from, to], oldest first. */
export function hoursInWindow(from: Date, to: Date): string[] {
  const out: string[] = [];
  const start = Math.floor(from.getTime() / 3_600_000) * 3_600_000;
  for (let t = start; t <= to.getTime(); t += 3_600_000) {
    out.push(new Date(t).toISOString().slice(0, 13).replace('T', '-'));
  }
  return out;
}

/**
 * Splits facts into hour partitions (by `at`, UTC). Facts whose time does not parse are
 * returned apart: they cannot be placed in a window, so the caller counts and drops them.
 */
export function partitionFactsByHour(facts: readonly Fact[]): {
  byHour: Map<string, Fact[]>;
  untimed: Fact[];
} {
  const byHour = new Map<string, Fact[]>();
  const untimed: Fact[] = [];
  for (const f of facts) {
    const h = hourOf(f.at);
    if (h === null) {
      untimed.push(f);
      continue;
    }
    let list = byHour.get(h);
    if (!list) byHour.set(h, (list = []));
    list.push(f);
  }
  return { byHour, untimed };
}
