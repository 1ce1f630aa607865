// Runs the analysis-scale child once per incarnation count, each in its own process.
import * as path from 'path';
import { lastJson, runMeasured } from './measure';
import { BUILD_DIR } from './tools';

export interface ScaleRun {
  incarnations: number;
  facts: number;
  buildSeconds: number;
  analyzeSeconds: number;
  heapAfterFactsMB: number;
  heapPeakMB: number;
  peakRssMB: number | null;
  recreations: number;
  loops: number;
  error?: string;
}

/** Heap for the child: enough that 1M incarnations can finish, so the peak is measured, not capped. */
const MAX_OLD_SPACE_MB = 12_000;

export async function scaleRuns(counts: number[], log: (s: string) => void): Promise<ScaleRun[]> {
  const out: ScaleRun[] = [];
  for (const n of counts) {
    const run = await runMeasured([
      process.execPath,
      `--max-old-space-size=${MAX_OLD_SPACE_MB}`,
      '--expose-gc',
      path.join(BUILD_DIR, 'scale.cjs'),
      String(n),
    ]);
    if (run.code !== 0) {
      out.push({
        incarnations: n,
        facts: 0,
        buildSeconds: 0,
        analyzeSeconds: 0,
        heapAfterFactsMB: 0,
        heapPeakMB: 0,
        peakRssMB: run.peakRssMB,
        recreations: 0,
        loops: 0,
        error: run.stderr.slice(-500),
      });
      continue;
    }
    const j = lastJson(run.stdout) as unknown as Omit<ScaleRun, 'peakRssMB'> & { maxRssKB: number };
    const { maxRssKB, ...rest } = j;
    out.push({ ...rest, peakRssMB: run.peakRssMB ?? maxRssKB / 1024 });
    log(`  scale ${n}: analyze ${j.analyzeSeconds.toFixed(1)} s`);
  }
  return out;
}
