// What every fight shares with koperator's loops (fights.md): a run of cycles, none more
// than --loop-max-gap after the previous one, at least --loop-min-count of them (or a
// detector's own minimum); its period is the median gap, and it is active when its last
// cycle is within two periods of the newest event read.

export interface Cycle {
  /** requestReceivedTimestamp in epoch microseconds. */
  at: number;
  atText: string;
}

/** Consecutive cycles (sorted by time) split where the gap exceeds maxGapSeconds, runs shorter than minCount dropped. */
export function splitRuns<C extends Cycle>(cycles: C[], maxGapSeconds: number, minCount: number): C[][] {
  const runs: C[][] = [];
  let run: C[] = [];
  for (const c of cycles) {
    const prev = run[run.length - 1];
    if (prev && (c.at - prev.at) / 1e6 > maxGapSeconds) {
      if (run.length >= minCount) runs.push(run);
      run = [];
    }
    run.push(c);
  }
  if (run.length >= minCount) runs.push(run);
  return runs;
}

export interface RunTiming {
  firstAt: string;
  lastAt: string;
  periodSeconds: number;
  active: boolean;
}

export function runTiming(run: Cycle[], newest: number): RunTiming {
  const gaps: number[] = [];
  for (let i = 1; i < run.length; i++) gaps.push((run[i].at - run[i - 1].at) / 1e6);
  const period = Math.round(median(gaps) * 10) / 10;
  const last = run[run.length - 1];
  return {
    firstAt: run[0].atText,
    lastAt: last.atText,
    periodSeconds: period,
    active: Number.isFinite(newest) && (newest - last.at) / 1e6 <= 2 * Math.max(period, 1),
  };
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Values in first-seen order, each once. */
export function distinct<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/** A handful of audit IDs a fight rests on: its first cycles and its last. */
export function evidenceOf(ids: string[], max = 4): string[] {
  const uniq = distinct(ids);
  if (uniq.length <= max) return uniq;
  return [...uniq.slice(0, max - 1), uniq[uniq.length - 1]];
}
