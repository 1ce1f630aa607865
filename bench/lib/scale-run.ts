// Runs the analysis-scale child once per incarnation count, each in its own process.
import * as path from 'path';
import { lastJson, runMeasured } from './measure';
import { BUILD_DIR } from './tools';

/** One fleet run: how many incarnations, the child's mode (scale.ts), and its V8 heap cap. */
export interface ScaleSpec {
  incarnations: number;
  /** stream (findings dropped), hold (analyzeFacts, as before the spool) or spool (the CLI's way). */
  mode?: 'stream' | 'hold' | 'spool';
  /** --max-old-space-size of the child (default 12,000: measured, not capped). */
  heapMB?: number;
}

/** `N`, `N:mode` or `N:mode:heapMB`, comma-separated, as --scale takes them. */
export function parseScaleSpecs(text: string): ScaleSpec[] {
  return text
    .split(',')
    .filter((x) => x.trim() !== '')
    .map((x) => {
      const [n, mode, heap] = x.trim().split(':');
      const spec: ScaleSpec = { incarnations: Number(n) };
      if (!Number.isInteger(spec.incarnations) || spec.incarnations < 0)
        throw new Error(`--scale ${x}: not a count`);
      if (mode) {
        if (mode !== 'stream' && mode !== 'hold' && mode !== 'spool')
          throw new Error(`--scale ${x}: mode is stream, hold or spool`);
        spec.mode = mode;
      }
      if (heap) {
        spec.heapMB = Number(heap);
        if (!Number.isInteger(spec.heapMB) || spec.heapMB < 64) throw new Error(`--scale ${x}: heap in MB`);
      }
      return spec;
    })
    .filter((spec) => spec.incarnations > 0);
}

export interface ScaleRun {
  incarnations: number;
  mode: string;
  heapMB: number;
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

export async function scaleRuns(specs: ScaleSpec[], log: (s: string) => void): Promise<ScaleRun[]> {
  const out: ScaleRun[] = [];
  for (const spec of specs) {
    const n = spec.incarnations;
    const mode = spec.mode ?? 'stream';
    const heapMB = spec.heapMB ?? MAX_OLD_SPACE_MB;
    const run = await runMeasured([
      process.execPath,
      `--max-old-space-size=${heapMB}`,
      '--expose-gc',
      path.join(BUILD_DIR, 'scale.cjs'),
      String(n),
      mode,
    ]);
    if (run.code !== 0) {
      out.push({
        incarnations: n,
        mode,
        heapMB,
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
    out.push({ ...rest, mode, heapMB, peakRssMB: run.peakRssMB ?? maxRssKB / 1024 });
    log(`  scale ${n} (${mode}, heap ${heapMB} MB): analyze ${j.analyzeSeconds.toFixed(1)} s`);
  }
  return out;
}
