// Issue 15's targets judged on one benchmark run, so `npm run bench -- --large` says in one
// table which are met, by how much, and which were not measured at all (a target without its
// measurement is never reported as met).
import type { FileResult } from '../run';
import type { ScaleRun } from './scale-run';
import type { Measurement } from './tools';

export interface TargetVerdict {
  target: string;
  /** What was measured, in words and numbers; or why nothing was. */
  measured: string;
  /** null: not measured in this run. */
  met: boolean | null;
}

export const TARGETS = {
  /** The full analysis within this many times the floor (Node gunzip + newline count). */
  floorRatio: 1.5,
  /** Peak RSS of the full analysis at every size, MB (2^20 bytes). */
  peakRssMB: 300,
  /** Largest peak RSS over the smallest, at most 1 + this. */
  flatness: 0.15,
  /** The fleet run of this many incarnations… */
  fleetIncarnations: 1_000_000,
  /** …under this peak RSS, MB. */
  fleetRssMB: 1536,
} as const;

const MiB = 2 ** 20;
const GB = 2 ** 30;

function find(f: FileResult, prefix: string): Measurement | undefined {
  return f.measurements.find((m) => m.name.startsWith(prefix));
}

const FLOOR = 'floor';
const ANALYZE = 'koperator-audit analyze';
const DUCKDB = 'duckdb';

/** The file of this format closest to 1 GB (the targets' size), if any is within a factor 2. */
function gigabyteFile(files: FileResult[], format: string): FileResult | undefined {
  const near = files
    .filter((f) => f.file.format === format)
    .map((f) => ({ f, off: Math.abs(Math.log(f.file.uncompressedBytes / GB)) }))
    .filter((x) => x.off < Math.log(2))
    .sort((a, b) => a.off - b.off);
  return near[0]?.f;
}

function floorVerdict(files: FileResult[], format: string, label: string): TargetVerdict {
  const target = `full analysis within ${TARGETS.floorRatio}x the floor on 1 GB ${label}`;
  const f = gigabyteFile(files, format);
  const floor = f && find(f, FLOOR);
  const ours = f && find(f, ANALYZE);
  if (!f || !floor || !ours) return { target, measured: `no 1 GB ${label} file in this run`, met: null };
  const ratio = ours.wallSeconds / floor.wallSeconds;
  return {
    target,
    measured: `${ours.wallSeconds.toFixed(2)} s against a ${floor.wallSeconds.toFixed(2)} s floor: ${ratio.toFixed(1)}x`,
    met: ratio <= TARGETS.floorRatio,
  };
}

function duckdbVerdict(files: FileResult[]): TargetVerdict {
  const target = "full analysis faster than DuckDB's pod filter on 1 GB JSON lines";
  const f = gigabyteFile(files, 'jsonl');
  const duck = f && find(f, DUCKDB);
  const ours = f && find(f, ANALYZE);
  if (!f || !ours) return { target, measured: 'no 1 GB JSON-lines file in this run', met: null };
  if (!duck) return { target, measured: 'DuckDB not measured (see skipped)', met: null };
  return {
    target,
    measured: `${ours.wallSeconds.toFixed(2)} s against DuckDB's ${duck.wallSeconds.toFixed(2)} s (${(duck.wallSeconds / ours.wallSeconds).toFixed(2)}x its speed)`,
    met: ours.wallSeconds < duck.wallSeconds,
  };
}

function rssVerdicts(files: FileResult[]): TargetVerdict[] {
  const runs = files
    .filter((f) => f.file.format === 'jsonl')
    .map((f) => ({ f, m: find(f, ANALYZE) }))
    .filter((x): x is { f: FileResult; m: Measurement & { peakRssMB: number } } => x.m?.peakRssMB != null)
    .sort((a, b) => a.f.file.uncompressedBytes - b.f.file.uncompressedBytes);
  const sizes = runs.map(
    (r) => `${(r.f.file.uncompressedBytes / MiB).toFixed(0)} MB: ${r.m.peakRssMB.toFixed(0)}`,
  );
  const span = runs.length
    ? runs[runs.length - 1].f.file.uncompressedBytes / runs[0].f.file.uncompressedBytes
    : 0;
  const measured = runs.length ? `peak RSS MB at ${sizes.join(', ')}` : 'no full analysis with a peak RSS';
  const under = `full analysis peak RSS under ${TARGETS.peakRssMB} MB from 100 MB to 4 GB (JSON lines)`;
  const flat = `flat (within ${TARGETS.flatness * 100} %) from 100 MB to 4 GB`;
  // Either verdict needs both ends of the range: a small file alone says nothing of scale.
  if (runs.length < 2 || span < 16) {
    const why = `${measured}; needs the 100 MB and 4 GB files in one run (--large)`;
    return [
      { target: under, measured: why, met: null },
      { target: flat, measured: why, met: null },
    ];
  }
  const lo = Math.min(...runs.map((r) => r.m.peakRssMB));
  const hi = Math.max(...runs.map((r) => r.m.peakRssMB));
  return [
    { target: under, measured, met: hi < TARGETS.peakRssMB },
    {
      target: flat,
      measured: `largest ${hi.toFixed(0)} MB is ${((hi / lo - 1) * 100).toFixed(0)} % above the smallest ${lo.toFixed(0)} MB`,
      met: hi <= lo * (1 + TARGETS.flatness),
    },
  ];
}

function fleetVerdict(scale: ScaleRun[]): TargetVerdict {
  const target = `${TARGETS.fleetIncarnations.toLocaleString('en-US')} incarnations in one process under ${TARGETS.fleetRssMB} MB`;
  // The best completed run: an uncapped heap shows V8's appetite, a capped one what is needed.
  const run = scale
    .filter((s) => s.incarnations >= TARGETS.fleetIncarnations && !s.error && s.peakRssMB !== null)
    .sort((a, b) => a.peakRssMB! - b.peakRssMB!)[0];
  if (!run || run.peakRssMB === null)
    return { target, measured: 'no completed 1 M fleet run in this run (--scale 1000000)', met: null };
  return {
    target,
    measured: `${run.peakRssMB.toFixed(0)} MB peak RSS, analysis ${run.analyzeSeconds.toFixed(0)} s (build ${run.buildSeconds.toFixed(0)} s; ${run.mode}, heap capped at ${run.heapMB} MB)`,
    met: run.peakRssMB < TARGETS.fleetRssMB,
  };
}

export function judgeTargets(files: FileResult[], scale: ScaleRun[]): TargetVerdict[] {
  return [
    floorVerdict(files, 'jsonl', 'JSON lines'),
    floorVerdict(files, 'firehose', 'Firehose'),
    duckdbVerdict(files),
    ...rssVerdicts(files),
    fleetVerdict(scale),
  ];
}
