// The benchmark: generates (or reuses) the audit-log files, then measures every tool on
// the same file, each in its own child process, and prints a table plus ratios of
// koperator-audit to the floor and to each peer. Results also go to bench/results/<ts>.json.
//
//   npx tsx bench/run.ts                 # 100 MB, both formats, peers included
//   npx tsx bench/run.ts --large         # 100 MB, 1 GB and 4 GB (JSON lines only) and the 1 M fleet, judged against issue 15's targets
//   npx tsx bench/run.ts --size 2MB --no-peers --no-zcat --scale 0   # the smoke test's run
//   npx tsx bench/run.ts --time-to-alert # issue 29: seconds from event to alert, three loads
import { mkdirSync, writeFileSync } from 'fs';
import * as path from 'path';
import { cpus } from 'os';
import { ensureBenchFile, parseSize, sizeLabel, type BenchFormat, type GeneratedFile } from './generate';
import { ratios, type Ratio } from './lib/ratios';
import { parseScaleSpecs, scaleRuns, type ScaleRun, type ScaleSpec } from './lib/scale-run';
import { judgeTargets, type TargetVerdict } from './lib/targets';
import { judgeScaling, scalingRun, type ScalingRun } from './lib/scaling';
import {
  buildChildren,
  duckdbAvailable,
  ensureJq,
  floor,
  fullAnalyze,
  ingestOnly,
  jqPods,
  duckdbPods,
  zcatWc,
  ROOT,
  type Measurement,
} from './lib/tools';
import { HAS_GNU_TIME } from './lib/measure';
import { formatTable } from './lib/table';
import { helpRequested } from '../scripts/usage';
import { DEFAULT_TTA, formatTimeToAlert, timeToAlert } from './lib/time-to-alert';

const USAGE = `Usage: npx tsx bench/run.ts [options]

Generates (or reuses) the benchmark's audit logs, measures every tool on them, prints a
table and writes bench/results/<time>.json.
  --size LIST      sizes, comma-separated (default 100MB; with --large also 1GB, 4GB)
  --format LIST    jsonl, firehose (default both)
  --seed N         the simulation's seed (default 1)
  --repeat N       runs per measurement, the median reported (default 1)
  --large          also 1 GB and 4 GB, the 1 M fleet and the scaling runs, judged against the targets
  --scaling        only the scaling runs (issue 31): the 1 GB file cut into objects, analysed
                   by 1, 2 (and 4, with the cores) workers and by one worker on one core, the
                   file by one worker, the floor, the analysis function's analysis on 1 and 2
                   cores; medians of --repeat (default 3) rounds taken in turn, judged against
                   issue 31's targets (--format: JSON lines unless given)
  --objects N      objects the 1 GB files are cut into for the scaling runs (default 16)
  --scale SPECS    fleet sizes to analyse, e.g. 100000,300000 (0: none)
  --time-to-alert  only the time to alert (bench/lib/time-to-alert.ts): one line per load
                   (one-broker, 100-brokers, 20-clusters), p50 and p99 seconds (~4 min)
  --no-peers       leave out jq and DuckDB
  --no-zcat        leave out the zcat | wc floor
  --results DIR    where the JSON result goes (default bench/results)
  -h, --help       this text
`;

export interface BenchOptions {
  sizes: number[];
  formats: BenchFormat[];
  seed: number;
  peers: boolean;
  zcat: boolean;
  /**
   * Runs per measurement (default 1). With more, each line is the run with the median
   * wall time and the largest peak RSS of all runs: on a shared 2-vCPU VM a single run
   * of a 0.2 s floor varied 0.20-0.56 s.
   */
  repeat?: number;
  /** Firehose files above this many bytes are not generated nor measured (no target needs a 4 GB one). */
  firehoseUpTo?: number;
  /** The analysis-scale runs (empty: skip them). */
  scale: ScaleSpec[];
  /** Objects the files are cut into for the scaling runs (0 or absent: no scaling runs). */
  scalingObjects?: number;
  /** Size of the scaling runs' files (default 1 GB, the targets' size). */
  scalingSize?: number;
  /** Formats of the scaling runs (default both; `--scaling` alone: JSON lines, the issue's). */
  scalingFormats?: readonly BenchFormat[];
  /** Rounds of the scaling lines, taken in turn; each line the median (default 3). */
  scalingRounds?: number;
  resultsDir: string;
  log: (s: string) => void;
}

export interface FileResult {
  size: string;
  file: GeneratedFile;
  measurements: Measurement[];
  ratios: Ratio[];
}

export interface BenchResult {
  startedAt: string;
  node: string;
  cpus: number;
  rssSource: 'gnu-time' | 'child-reported';
  skipped: string[];
  files: FileResult[];
  scale: ScaleRun[];
  /** Issue 15's targets on this run's measurements. */
  targets: TargetVerdict[];
  /** Issue 31: the analysis on every core, in the command line and in Lambda. */
  scaling: ScalingRun[];
  scalingTargets: TargetVerdict[];
  resultPath: string;
}

export async function runBench(o: BenchOptions): Promise<BenchResult> {
  const startedAt = new Date().toISOString();
  const skipped: string[] = [];
  await buildChildren();
  const jqWhy = o.peers ? ensureJq(o.log) : 'peers not requested';
  const duckWhy = o.peers ? duckdbAvailable() : 'peers not requested';
  if (o.peers && jqWhy) skipped.push(jqWhy);
  if (o.peers && duckWhy) skipped.push(duckWhy);
  const files: FileResult[] = [];
  for (const size of o.sizes) {
    for (const format of o.formats) {
      if (format === 'firehose' && o.firehoseUpTo !== undefined && size > o.firehoseUpTo) continue;
      const file = await ensureBenchFile({ size, format, seed: o.seed, log: o.log });
      const input = {
        path: file.path,
        format,
        uncompressedBytes: file.uncompressedBytes,
        events: file.events,
      };
      const ms: Measurement[] = [];
      const step = async (m: () => Promise<Measurement>): Promise<void> => {
        const r = await repeated(m, o.repeat ?? 1);
        o.log(`  ${sizeLabel(size)} ${format}: ${r.name}: ${r.wallSeconds.toFixed(2)} s`);
        ms.push(r);
      };
      await step(() => floor(input));
      if (o.zcat) await step(() => zcatWc(input));
      await step(() => ingestOnly(input));
      await step(() => fullAnalyze(input));
      // The peers read JSON lines only (neither knows the Firehose framing).
      if (format === 'jsonl' && !jqWhy) await step(() => jqPods(input));
      if (format === 'jsonl' && !duckWhy) await step(() => duckdbPods(input));
      files.push({ size: sizeLabel(size), file, measurements: ms, ratios: ratios(ms) });
    }
  }
  const scaling: ScalingRun[] = [];
  if ((o.scalingObjects ?? 0) > 0) {
    for (const format of o.scalingFormats ?? (['jsonl', 'firehose'] as const)) {
      const size = o.scalingSize ?? parseSize('1GB');
      const file = await ensureBenchFile({ size, format, seed: o.seed, log: o.log });
      scaling.push(
        await scalingRun(file, {
          objects: o.scalingObjects ?? 0,
          rounds: o.scalingRounds,
          log: o.log,
          size: sizeLabel(size),
        }),
      );
    }
  }
  const scale = await scaleRuns(o.scale, o.log);
  mkdirSync(o.resultsDir, { recursive: true });
  const resultPath = path.join(o.resultsDir, `${startedAt.replace(/[:.]/g, '-')}.json`);
  const result: BenchResult = {
    startedAt,
    node: process.version,
    cpus: cpus().length,
    rssSource: HAS_GNU_TIME ? 'gnu-time' : 'child-reported',
    skipped,
    files,
    scale,
    targets: judgeTargets(files, scale),
    scaling,
    scalingTargets: judgeScaling(scaling),
    resultPath,
  };
  writeFileSync(resultPath, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** The median-wall run of `n`, with the largest peak RSS seen in any of them. */
async function repeated(m: () => Promise<Measurement>, n: number): Promise<Measurement> {
  const runs: Measurement[] = [];
  for (let i = 0; i < Math.max(1, n); i++) runs.push(await m());
  runs.sort((a, b) => a.wallSeconds - b.wallSeconds);
  const median = runs[Math.floor((runs.length - 1) / 2)];
  const rss = runs.map((r) => r.peakRssMB).filter((x): x is number => x !== null);
  const note = runs.length > 1 ? `median of ${runs.length}` : undefined;
  return {
    ...median,
    peakRssMB: rss.length > 0 ? Math.max(...rss) : null,
    ...(note ? { note: median.note ? `${median.note}; ${note}` : note } : {}),
  };
}

function parseArgs(argv: string[]): BenchOptions {
  const has = (f: string): boolean => argv.includes(`--${f}`);
  const val = (f: string): string | undefined => {
    const i = argv.indexOf(`--${f}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const large = has('large');
  const scalingOnly = has('scaling');
  const objects = Number(val('objects') ?? '16');
  if (scalingOnly)
    return {
      sizes: [],
      formats: [],
      seed: Number(val('seed') ?? '1'),
      repeat: 1,
      peers: !has('no-peers'),
      zcat: false,
      scale: [],
      scalingObjects: objects,
      scalingFormats: (val('format') ?? 'jsonl').split(',') as BenchFormat[],
      scalingRounds: Number(val('repeat') ?? '3'),
      resultsDir: val('results') ?? path.join(ROOT, 'bench', 'results'),
      log: (s) => process.stderr.write(`${s}\n`),
    };
  const sizes = val('size')
    ? val('size')!.split(',').map(parseSize)
    : [parseSize('100MB'), ...(large ? [parseSize('1GB'), parseSize('4GB')] : [])];
  return {
    sizes,
    formats: (val('format') ?? 'jsonl,firehose').split(',') as BenchFormat[],
    seed: Number(val('seed') ?? '1'),
    repeat: Number(val('repeat') ?? '1'),
    peers: !has('no-peers'),
    zcat: !has('no-zcat'),
    ...(large && !val('size') ? { firehoseUpTo: parseSize('1GB') } : {}),
    // The 1 M fleet as the CLI analyses it (spooled), under a heap cap: uncapped, V8 lets the
    // heap grow to what the machine has, which measures V8, not what the analysis needs.
    scale: parseScaleSpecs(val('scale') ?? (large ? '100000,300000,1000000:spool:600' : '100000,300000')),
    scalingObjects: large ? objects : 0,
    resultsDir: val('results') ?? path.join(ROOT, 'bench', 'results'),
    log: (s) => process.stderr.write(`${s}\n`),
  };
}

if (require.main === module && process.argv.includes('--time-to-alert')) {
  timeToAlert({ ...DEFAULT_TTA, log: (s) => process.stderr.write(`${s}\n`) })
    .then((r) => process.stdout.write(formatTimeToAlert(r)))
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
} else if (require.main === module) {
  helpRequested(process.argv.slice(2), USAGE);
  runBench(parseArgs(process.argv.slice(2)))
    .then((r) => {
      process.stdout.write(formatTable(r));
      process.stdout.write(`\nresults: ${path.relative(process.cwd(), r.resultPath)}\n`);
    })
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
}
