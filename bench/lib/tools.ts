// The measured commands, one function each, all returning the same Measurement shape.
import { execFileSync, spawnSync } from 'child_process';
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
      scale: path.join(ROOT, 'bench', 'children', 'scale.ts'),
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
    ...(note ? { note } : {}),
  };
}

const CHILDREN = path.join(ROOT, 'bench', 'children');

/** Runs a Node script under measurement. */
function runNode(script: string, ...args: string[]): Promise<RawRun> {
  return runMeasured([process.execPath, script, ...args]);
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

export async function fullAnalyze(f: Input): Promise<Measurement> {
  const run = await runNode(
    path.join(ROOT, 'dist', 'cli.js'),
    'analyze',
    '--input',
    f.path,
    '--format',
    'json',
  );
  const doc = JSON.parse(run.code === 0 ? run.stdout : '{}') as {
    summary?: { audit?: { read?: number }; recreations?: number; loops?: number };
  };
  const s = doc.summary ?? {};
  return measurement(
    'koperator-audit analyze (ingest+project+analyze)',
    f,
    run,
    s.audit?.read ?? 0,
    undefined,
    `${s.recreations ?? 0} recreations, ${s.loops ?? 0} loops`,
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

export async function duckdbPods(f: Input): Promise<Measurement> {
  const run = await runNode(path.join(CHILDREN, 'duckdb.mjs'), f.path, '1');
  const out = lastJson(run.stdout);
  return measurement(
    'duckdb read_json + filter (threads=1)',
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
