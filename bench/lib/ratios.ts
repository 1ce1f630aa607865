// koperator-audit against the floor and each peer, on the same file (wall-clock ratios).
import type { Measurement } from './tools';

export interface Ratio {
  /** "<ours> / <theirs>": > 1 means koperator-audit is slower. */
  label: string;
  ours: string;
  theirs: string;
  wallRatio: number;
  /** theirs / ours: how many times faster koperator-audit is (the targets' wording). */
  speedup: number;
}

const FULL = 'koperator-audit analyze';
const INGEST = 'koperator-audit ingest';

export function ratios(ms: Measurement[]): Ratio[] {
  const ours = ms.filter((m) => m.name.startsWith(FULL) || m.name.startsWith(INGEST));
  const theirs = ms.filter((m) => !m.name.startsWith('koperator-audit'));
  const out: Ratio[] = [];
  for (const a of ours) {
    for (const b of theirs) {
      const wallRatio = a.wallSeconds / b.wallSeconds;
      out.push({
        label: `${a.name.split(' (')[0]} / ${b.name.split(':')[0]}`,
        ours: a.name,
        theirs: b.name,
        wallRatio,
        speedup: 1 / wallRatio,
      });
    }
  }
  return out;
}
