// The measured commands, one function each, all returning the same Measurement shape.
import { execFileSync, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as path from 'path';
import { build } from 'esbuild';
import { lastJson, runMeasured, type RawRun } from './measure';

export interface Measurement {
  name: string;
  file: string;
  format: string;
  wallSeconds: number;
  /** Uncompressed MB (2^20 bytes) per second. */
  mbPerSecond: number;
  recordsPerSecond: number;
  records: number;
  peakRssMB: number | null;
  /** User + system CPU seconds (GNU time), all threads; null without it. */
  cpuSeconds?: number | null;
  note?: string;
}

export const ROOT = path.resolve(__dirname, '..', '..');
export const BUILD_DIR = path.join(ROOT, 'bench', 'data', 'build');

/** Bundles the TypeScript children like dist/cli.js is bundled, and builds the CLI itself. */
export async function buildChildren(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  await build({
    entryPoints: {
      ingest: path.join(ROOT, 'bench', 'children', 'ingest.ts'),
      facts: path.join(ROOT, 'bench', 'children', 'facts.ts'),
      scale: path.join(ROOT, 'bench', 'children', 'scale.ts'),
      analysis: path.join(ROOT, 'bench', 'children', 'analysis.ts'),
    },
    outdir: BUILD_DIR,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
}

export function hasCommand(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export interface Input {
  path: string;
  format: string;
  uncompressedBytes: number;
  events: number;
}

/** One run's figures: MB/s against the file's uncompressed bytes, peak RSS from the run or the child. */
function measurement(
  name: string,
  f: Input,
  run: RawRun,
  records: number,
  childRssKB?: unknown,
  note?: string,
): Measurement {
  if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${run.stderr.slice(-2000)}`);
  const mb = f.uncompressedBytes / 2 ** 20;
  const peakRssMB = run.peakRssMB ?? (typeof childRssKB === 'number' ? childRssKB / 1024 : null);
  return {
    name,
    file: f.path,
    format: f.format,
    wallSeconds: run.wallSeconds,
    mbPerSecond: mb / run.wallSeconds,
    recordsPerSecond: records / run.wallSeconds,
    records,
    peakRssMB,
    cpuSeconds: run.cpuSeconds,
    ...(note ? { note } : {}),
  };
}

const CHILDREN = path.join(ROOT, 'bench', 'children');

/** Runs a Node script under measurement. */
function runNode(script: string, ...args: string[]): Promise<RawRun> {
  return runNodeOn(undefined, script, ...args);
}

/**
 * A Node script held to the CPUs listed (`taskset -c`), every thread of it: fewer cores than
 * the machine has, or a CPU quota standing in for a Lambda function's share (`0`: one vCPU's
 * worth, as at 1,769 MB).
 */
function runNodeOn(cpus: string | undefined, script: string, ...args: string[]): Promise<RawRun> {
  return runMeasured([...(cpus ? ['taskset', '-c', cpus] : []), process.execPath, script, ...args]);
}

/** Runs a shell pipeline with the file as `$1` under measurement. */
function runShell(pipeline: string, file: string): Promise<RawRun> {
  return runMeasured(['sh', '-c', pipeline, 'sh', file]);
}

export async function floor(f: Input): Promise<Measurement> {
  const run = await runNode(path.join(CHILDREN, 'floor.mjs'), f.path);
  // The floor counts newlines; in Firehose objects a record is not a line, so use the file's event count.
  return measurement('floor: node gunzip + count newlines', f, run, f.events, lastJson(run.stdout).maxRssKB);
}

export async function zcatWc(f: Input): Promise<Measurement> {
  const run = await runShell('zcat "$1" | wc -l', f.path);
  return measurement(
    'zcat | wc -l',
    f,
    run,
    f.events,
    undefined,
    'peak RSS is the largest process of the pipeline',
  );
}

export async function ingestOnly(f: Input): Promise<Measurement> {
  const run = await runNode(path.join(BUILD_DIR, 'ingest.cjs'), f.path);
  const out = lastJson(run.stdout);
  return measurement(
    'koperator-audit ingest (count records)',
    f,
    run,
    Number(out.records),
    out.maxRssKB,
    `${String(out.emitted)} relevant records emitted`,
  );
}

export async function fullAnalyze(
  f: Input,
  workers?: number,
  cpus?: string,
): Promise<Measurement & { digest: string; findings: string }> {
  const run = await runNodeOn(
    cpus,
    path.join(ROOT, 'dist', 'cli.js'),
    'analyze',
    '--input',
    f.path,
    '--format',
    'json',
    ...(workers !== undefined ? ['--workers', String(workers)] : []),
  );
  const doc = JSON.parse(run.code === 0 ? run.stdout : '{}') as {
    summary?: { audit?: { read?: number }; recreations?: number; loops?: number };
  };
  const s = doc.summary ?? {};
  const name = `koperator-audit analyze${workers !== undefined ? ` --workers ${workers}` : ''} (ingest+project+analyze)${cpus ? ` on CPUs ${cpus}` : ''}`;
  return {
    ...measurement(
      name,
      f,
      run,
      s.audit?.read ?? 0,
      undefined,
      `${s.recreations ?? 0} recreations, ${s.loops ?? 0} loops`,
    ),
    ...findingsDigests(doc),
  };
}

/**
 * Two digests of a findings document. `digest`: all of it but the run's own duration, for
 * runs over the same inputs (one worker or many must agree to the last count). `findings`:
 * the recreations, loops, fights and drifts without where each was read (`src`), for a file
 * against the folder it was cut into: the findings must agree, while some counts are per
 * object by design (the first event of each object is always parsed, so an object boundary
 * can move one event from "irrelevant" to "kept").
 */
export function findingsDigests(doc: unknown): { digest: string; findings: string } {
  const d = (doc ?? {}) as Record<string, unknown> & { summary?: Record<string, unknown> };
  const { seconds: _s, ...summary } = d.summary ?? {};
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => k !== 'src')
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);
  return {
    digest: hash({ ...d, summary }),
    findings: hash(strip({ recreations: d.recreations, loops: d.loops, fights: d.fights, drifts: d.drifts })),
  };
}

/**
 * The analysis function's analysis (bench/children/analysis.ts: recreations and loops, fights,
 * drifts, on one thread) held to `cpus`: wall and CPU of the analysis alone (the read before
 * it is not counted), peak RSS of the whole child, the digest of what it found.
 */
export async function lambdaAnalysis(f: Input, cpus: string): Promise<Measurement & { digest: string }> {
  const run = await runNodeOn(cpus, path.join(BUILD_DIR, 'analysis.cjs'), f.path);
  const out = run.code === 0 ? lastJson(run.stdout) : {};
  // The analysis's own times, the whole child's peak RSS (the facts it holds are the function's too).
  const analysis = {
    ...run,
    wallSeconds: Number(out.analysisSeconds),
    cpuSeconds: Number(out.analysisCpuSeconds),
  };
  return {
    ...measurement(
      `analysis function's analysis on CPUs ${cpus}`,
      f,
      analysis,
      Number(out.records),
      out.maxRssKB,
      `${String(out.recreations)} recreations, ${String(out.loops)} loops`,
    ),
    digest: String(out.digest),
  };
}

/** The ingestion stage alone (facts, no analysis) on `workers` threads. */
export async function factsOnly(f: Input, workers: number): Promise<Measurement> {
  const run = await runNode(path.join(BUILD_DIR, 'facts.cjs'), f.path, String(workers));
  const out = lastJson(run.stdout);
  return measurement(
    `koperator-audit ingestion stage, ${workers} worker${workers === 1 ? ' (this thread)' : 's'}`,
    f,
    run,
    Number(out.records),
    out.maxRssKB,
    `${String(out.facts)} facts`,
  );
}

export async function jqPods(f: Input): Promise<Measurement> {
  const run = await runShell(`zcat "$1" | jq -c 'select(.objectRef.resource=="pods")' | wc -l`, f.path);
  return measurement(
    'zcat | jq -c select(pods)',
    f,
    run,
    f.events,
    undefined,
    `${run.stdout.trim()} pod events; peak RSS is jq's (largest in the pipeline)`,
  );
}

export async function duckdbPods(f: Input, threads = 1): Promise<Measurement> {
  const run = await runNode(path.join(CHILDREN, 'duckdb.mjs'), f.path, String(threads));
  const out = lastJson(run.stdout);
  return measurement(
    `duckdb read_json + filter (threads=${threads})`,
    f,
    run,
    Number(out.records),
    out.maxRssKB,
    `${String(out.pods)} pod events`,
  );
}

/** jq from Debian when missing; null when it is there, else why it is not. */
export function ensureJq(log: (s: string) => void): string | null {
  if (hasCommand('jq')) return null;
  log('jq is missing: trying `apt-get install -y jq`…');
  const r = spawnSync('sh', ['-c', 'apt-get install -y jq || (apt-get update && apt-get install -y jq)'], {
    stdio: 'ignore',
  });
  if (r.status === 0 && hasCommand('jq')) return null;
  return 'jq is not installed and `apt-get install -y jq` failed (no root or no network?): the jq peer is skipped';
}

export function duckdbAvailable(): string | null {
  try {
    require.resolve('@duckdb/node-api', { paths: [ROOT] });
    return null;
  } catch {
    return '@duckdb/node-api is not installed: the DuckDB peer is skipped';
  }
}
