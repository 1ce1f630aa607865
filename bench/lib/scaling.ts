// Issue 31: the analysis on every core, in the command line and in Lambda. The 1 GB file cut
// into Firehose-sized objects (split.ts) and analysed by 1, 2 and (where the machine has
// them) 4 workers, and by one worker on one core (`taskset -c 0`); the single file on one
// worker against the floor; the analysis function's analysis on one core and on two (the
// shares of a 1,769 MB and a 3,538 MB function). Each line is the median of `rounds` runs
// taken in turn (round after round, so a burst of another job's load falls on every line
// alike), with the load average at the start of each round. Every run over the folder must
// give one strict digest, whatever its worker and core count.
import { availableParallelism, loadavg } from 'os';
import { sizeLabel, type GeneratedFile } from '../generate';
import { ensureSplit } from './split';
import { factsOnly, floor, fullAnalyze, lambdaAnalysis, type Input, type Measurement } from './tools';
import type { TargetVerdict } from './targets';

export const SCALING_TARGETS = {
  /** Wall time with 2 workers over one worker's, at most (the 16-object folder). */
  twoWorkersWall: 0.75,
  /** CPU with 2 workers over one worker's, at most. */
  twoWorkersCpu: 1.1,
  /** Wall time with 4 workers over one worker's, aimed at (measured, or the model's). */
  fourWorkersWall: 0.45,
  /** CPU of the full analysis on one worker over the floor's CPU, at most (the single file). */
  cpuOverFloor: 8,
  /** Peak RSS with 2 workers at 1 GB, MB. */
  rssTwoWorkersMB: 400,
} as const;

/**
 * Lambda's price per GB-second, x86, us-east-1, first 6 billion GB-seconds a month
 * (aws.amazon.com/lambda/pricing; docs/deploying.md counts with it). arm64, which the stack
 * deploys, is 0.0000133334: 20 % less at every size, so the comparison of sizes is the same.
 */
export const LAMBDA_X86_USD_PER_GB_SECOND = 0.0000166667;
/** Lambda gives one vCPU's worth per 1,769 MB of memory (its configuration guide). */
export const LAMBDA_MB_PER_VCPU = 1769;

export type Sample = Measurement & { digest?: string; findings?: string };

export interface ScalingRun {
  /** The file's size as labelled (1GB for the targets). */
  size: string;
  format: string;
  objects: number;
  folder: string;
  rounds: number;
  /** Load average (1 minute) at the start of each round. */
  loads: number[];
  /** Every run of every line, by line (LINE), in the order taken. */
  samples: Record<string, Sample[]>;
}

const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The lines of a run, by what they run. */
export const LINE = {
  floor: 'floor',
  file1: 'file, 1 worker',
  oneCore: 'folder, 1 worker on 1 core',
  /** Only where the machine has more than 2 cores: the model's two-core point. */
  twoCores: 'folder, 2 workers on 2 cores',
  workers: (n: number) => `folder, ${s(n, 'worker')}`,
  ingestion: (n: number) => `folder, ingestion stage, ${s(n, 'worker')} (first round)`,
  lambda: (cores: number) => `analysis function on ${s(cores, 'core')}`,
};

export function workerCounts(cores = availableParallelism()): number[] {
  return [1, 2, 4].filter((n) => n === 1 || n <= Math.max(2, cores));
}

/** CPU lists for `taskset`: the first n CPUs. */
const firstCpus = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');

export async function scalingRun(
  file: GeneratedFile,
  opts: { objects: number; rounds?: number; log: (s: string) => void; size?: string },
): Promise<ScalingRun> {
  const folder = await ensureSplit(file, opts.objects);
  const asInput = (p: string): Input => ({
    path: p,
    format: file.format,
    uncompressedBytes: file.uncompressedBytes,
    events: file.events,
  });
  const run: ScalingRun = {
    size: opts.size ?? sizeLabel(file.uncompressedBytes),
    format: file.format,
    objects: opts.objects,
    folder,
    rounds: Math.max(1, opts.rounds ?? 3),
    loads: [],
    samples: {},
  };
  const take = async (line: string, m: () => Promise<Sample>) => {
    const x = await m();
    (run.samples[line] ??= []).push(x);
    opts.log(
      `  scaling ${file.format}: ${line}: ${x.wallSeconds.toFixed(2)} s wall, ${x.cpuSeconds?.toFixed(2) ?? '?'} s CPU, ${x.peakRssMB?.toFixed(0) ?? '?'} MB`,
    );
  };
  const cores = availableParallelism();
  for (let round = 0; round < run.rounds; round++) {
    const load = loadavg()[0];
    run.loads.push(load);
    opts.log(
      `  scaling ${file.format}: round ${round + 1} of ${run.rounds}, load average ${load.toFixed(2)}`,
    );
    await take(LINE.floor, () => floor(asInput(file.path)));
    for (const n of workerCounts(cores)) await take(LINE.workers(n), () => fullAnalyze(asInput(folder), n));
    await take(LINE.oneCore, () => fullAnalyze(asInput(folder), 1, '0'));
    if (cores > 2) await take(LINE.twoCores, () => fullAnalyze(asInput(folder), 2, '0,1'));
    await take(LINE.file1, () => fullAnalyze(asInput(file.path), 1));
    for (const n of [1, 2].filter((k) => k <= cores))
      await take(LINE.lambda(n), () => lambdaAnalysis(asInput(folder), firstCpus(n)));
    // Where the pool's CPU goes: reading alone, once (it moves less than wall time).
    if (round === 0)
      for (const n of [1, 2]) await take(LINE.ingestion(n), () => factsOnly(asInput(folder), n));
  }
  return run;
}

/** The median of a line's runs (wall and CPU each), its largest peak RSS. */
export function medianOf(samples: Sample[] | undefined): Sample | undefined {
  if (!samples?.length) return undefined;
  const mid = <T>(xs: T[], by: (x: T) => number) =>
    [...xs].sort((a, b) => by(a) - by(b))[(xs.length - 1) >> 1];
  const wall = mid(samples, (x) => x.wallSeconds);
  const cpus = samples.map((x) => x.cpuSeconds).filter((c): c is number => typeof c === 'number');
  const rss = samples.map((x) => x.peakRssMB).filter((r): r is number => r !== null);
  return {
    ...wall,
    cpuSeconds: cpus.length ? mid(cpus, (c) => c) : null,
    peakRssMB: rss.length ? Math.max(...rss) : null,
  };
}

export interface SerialModel {
  /** What it models, in words, for the output. */
  name: string;
  /** The runs it is fitted from, in words, with their medians. */
  from: string;
  /** Its one worker's time on one core, the base of its ratios. */
  t1: number;
  serial: number;
  parallel: number;
  /** Seconds for n workers on n idle cores (n >= 2). */
  at: (n: number) => number;
  /** Why the runs give no model; null: a fit. */
  unfit: string | null;
}

/**
 * Amdahl's law, T(n) = S + P / n for n workers on n cores, through its two measured points:
 * one worker on one core (T1 = S + P) and two workers on two cores (T2 = S + P / 2), so
 * P = 2 (T1 − T2) and S = 2 T2 − T1. Both points count the pool's own cost at their size;
 * the model assumes it stays that of two workers and that the work divides evenly (more
 * objects than workers), so it is an upper bound on what more cores give. Two cores no
 * faster than one (another job's load) or more than twice as fast (the one-core run slowed
 * by one) fit nothing, and it says so rather than predicting from them.
 */
export function serialModel(oneCore: Sample, twoCores: Sample, twoCoresLine: string): SerialModel {
  const t1 = oneCore.wallSeconds;
  const t2 = twoCores.wallSeconds;
  const parallel = 2 * (t1 - t2);
  const serial = t1 - parallel;
  const from = `'${LINE.oneCore}' (T1 ${t1.toFixed(2)} s) and '${twoCoresLine}' (T2 ${t2.toFixed(2)} s)`;
  const unfit =
    parallel <= 0
      ? 'two cores were no faster than one: no parallel part measured'
      : serial < 0
        ? 'two cores were more than twice as fast as one: the one-core run was slowed'
        : null;
  return { name: 'wall', from, t1, serial, parallel, at: (n) => serial + parallel / n, unfit };
}

/** The wall model of a run, from its one-core and two-core lines; undefined without them. */
export function modelOf(r: ScalingRun): SerialModel | undefined {
  const twoLine = r.samples[LINE.twoCores] ? LINE.twoCores : LINE.workers(2);
  const one = medianOf(r.samples[LINE.oneCore]);
  const two = medianOf(r.samples[twoLine]);
  return one && two
    ? serialModel(one, two, twoLine === LINE.twoCores ? twoLine : `${twoLine} (2 cores)`)
    : undefined;
}

/**
 * The same law from CPU times, which another job's load moves far less than wall times: the
 * serial part is what one worker spends after reading (its CPU less the ingestion stage's on
 * one worker: the analysis and the report, one thread's), the parallel part reading on two
 * workers (their CPU, the pool's cost at two included), spread over n idle cores; T1 is one
 * worker's CPU, its wall on one idle core. It assumes idle cores and reading that divides
 * evenly, and counts the main thread's merge while workers read as divisible, so it is an
 * upper bound too.
 */
export function cpuModelOf(r: ScalingRun): SerialModel | undefined {
  const cpu = (line: string) => medianOf(r.samples[line])?.cpuSeconds ?? undefined;
  const one = cpu(LINE.workers(1));
  const read1 = cpu(LINE.ingestion(1));
  const read2 = cpu(LINE.ingestion(2));
  if (one === undefined || read1 === undefined || read2 === undefined) return undefined;
  const serial = one - read1;
  return {
    name: 'CPU',
    from: `CPU of '${LINE.workers(1)}' (T1 ${one.toFixed(2)} s) less '${LINE.ingestion(1)}' (${read1.toFixed(2)} s) as S, '${LINE.ingestion(2)}' (${read2.toFixed(2)} s) as P`,
    t1: one,
    serial,
    parallel: read2,
    at: (n) => serial + read2 / n,
    unfit: serial <= 0 ? 'reading alone took more CPU than the whole analysis' : null,
  };
}

/** The model the 4-worker target is judged on: the wall model when the runs fit one, else CPU's. */
function judgedModel(r: ScalingRun): SerialModel | undefined {
  const wall = modelOf(r);
  return wall && !wall.unfit ? wall : (cpuModelOf(r) ?? wall);
}

const predicted = (model: SerialModel, one: Sample | undefined) =>
  `S ${model.serial.toFixed(2)} s, P ${model.parallel.toFixed(2)} s: ${[2, 4, 8]
    .map((n) => `${n} workers ${model.at(n).toFixed(2)} s (${x(model.at(n), model.t1)} T1)`)
    .join(', ')}${
    one && model.name === 'wall'
      ? `; 4 and 8 against one worker on every core: ${x(model.at(4), one.wallSeconds)}, ${x(model.at(8), one.wallSeconds)}`
      : ''
  }`;

/** Cost of one run of `seconds` at `memoryMB`, at the x86 price. */
export function lambdaCost(seconds: number, memoryMB: number): number {
  return seconds * (memoryMB / 1024) * LAMBDA_X86_USD_PER_GB_SECOND;
}

export interface LambdaSize {
  cores: number;
  memoryMB: number;
  analysisSeconds: number;
  cpuSeconds: number | null;
  peakRssMB: number | null;
  usdPerRun: number;
}

/** The analysis function at each measured share, and the size that costs least per run. */
export function lambdaSizes(r: ScalingRun): { sizes: LambdaSize[]; recommended: LambdaSize | undefined } {
  const sizes: LambdaSize[] = [];
  for (const cores of [1, 2]) {
    const m = medianOf(r.samples[LINE.lambda(cores)]);
    if (!m) continue;
    const memoryMB = cores * LAMBDA_MB_PER_VCPU;
    sizes.push({
      cores,
      memoryMB,
      analysisSeconds: m.wallSeconds,
      cpuSeconds: m.cpuSeconds ?? null,
      peakRssMB: m.peakRssMB,
      usdPerRun: lambdaCost(m.wallSeconds, memoryMB),
    });
  }
  const recommended = [...sizes].sort((a, b) => a.usdPerRun - b.usdPerRun)[0];
  return { sizes, recommended };
}

const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const usd = (n: number) => `$${n.toFixed(6)}`;
const mb = (n: number) => n.toLocaleString('en-US');

export function judgeScaling(runs: ScalingRun[]): TargetVerdict[] {
  const out: TargetVerdict[] = [];
  for (const r of runs) {
    const label = `${r.size} ${r.format} in ${r.objects} objects (medians of ${r.rounds})`;
    const m = (line: string) => medianOf(r.samples[line]);
    const one = m(LINE.workers(1));
    const two = m(LINE.workers(2));
    const four = m(LINE.workers(4));
    if (one && two) {
      out.push({
        target: `${label}: wall with 2 workers at most ${SCALING_TARGETS.twoWorkersWall}x one worker's`,
        measured: `${two.wallSeconds.toFixed(2)} s against ${one.wallSeconds.toFixed(2)} s: ${x(two.wallSeconds, one.wallSeconds)}${
          one.cpuSeconds != null
            ? `; efficiency CPU1 / (2 x wall2) ${(one.cpuSeconds / (2 * two.wallSeconds)).toFixed(2)}`
            : ''
        }`,
        met: two.wallSeconds <= SCALING_TARGETS.twoWorkersWall * one.wallSeconds,
      });
      out.push(
        one.cpuSeconds != null && two.cpuSeconds != null
          ? {
              target: `${label}: CPU with 2 workers at most ${Math.round((SCALING_TARGETS.twoWorkersCpu - 1) * 100)} % above one worker's`,
              measured: `${two.cpuSeconds.toFixed(2)} s against ${one.cpuSeconds.toFixed(2)} s: ${x(two.cpuSeconds, one.cpuSeconds)}`,
              met: two.cpuSeconds <= SCALING_TARGETS.twoWorkersCpu * one.cpuSeconds,
            }
          : {
              target: `${label}: CPU with 2 workers`,
              measured: 'no CPU times (GNU time missing)',
              met: null,
            },
      );
      out.push(
        two.peakRssMB != null
          ? {
              target: `${label}: peak RSS with 2 workers at most ${SCALING_TARGETS.rssTwoWorkersMB} MB`,
              measured: `${two.peakRssMB.toFixed(0)} MB (one worker: ${one.peakRssMB?.toFixed(0) ?? '?'} MB), largest of the runs`,
              met: two.peakRssMB <= SCALING_TARGETS.rssTwoWorkersMB,
            }
          : { target: `${label}: peak RSS with 2 workers`, measured: 'no peak RSS measured', met: null },
      );
    } else
      out.push({
        target: `${label}: 2 workers against one`,
        measured: `no runs of ${one ? LINE.workers(2) : LINE.workers(1)}`,
        met: null,
      });
    const fourTarget = `${label}: wall with 4 workers at most ${SCALING_TARGETS.fourWorkersWall}x one worker's`;
    const model = judgedModel(r);
    if (one && four)
      out.push({
        target: `${fourTarget} (measured)`,
        measured: `${four.wallSeconds.toFixed(2)} s: ${x(four.wallSeconds, one.wallSeconds)}`,
        met: four.wallSeconds <= SCALING_TARGETS.fourWorkersWall * one.wallSeconds,
      });
    else if (model) {
      // The issue's base is one worker on every core; the CPU model has no such wall, only its T1.
      const base = model.name === 'wall' && one ? one.wallSeconds : model.t1;
      const baseName = model.name === 'wall' && one ? 'one worker on every core' : 'its T1';
      out.push({
        target: `${fourTarget} (${model.name} model T(n) = S + P/n, against ${baseName})`,
        measured: model.unfit
          ? `no model from ${model.from}: ${model.unfit}`
          : `fitted from ${model.from}: ${predicted(model, one)}`,
        met: model.unfit ? null : model.at(4) <= SCALING_TARGETS.fourWorkersWall * base,
      });
    } else
      out.push({
        target: fourTarget,
        measured:
          'no 4-worker runs, and neither the one-core and two-core runs nor the ingestion stage to model them',
        met: null,
      });
    const floorRun = m(LINE.floor);
    const file1 = m(LINE.file1);
    if (file1?.cpuSeconds != null && floorRun?.cpuSeconds != null)
      out.push({
        target: `${r.size} ${r.format}, one file: CPU of one worker at most ${SCALING_TARGETS.cpuOverFloor}x the floor's CPU`,
        measured: `${file1.cpuSeconds.toFixed(2)} s against ${floorRun.cpuSeconds.toFixed(2)} s: ${x(file1.cpuSeconds, floorRun.cpuSeconds)}`,
        met: file1.cpuSeconds <= SCALING_TARGETS.cpuOverFloor * floorRun.cpuSeconds,
      });
    else
      out.push({
        target: `${r.size} ${r.format}, one file: CPU of one worker against the floor's`,
        measured: 'no CPU time of the file or the floor (GNU time missing?)',
        met: null,
      });
    const folderRuns = Object.entries(r.samples)
      .filter(([line]) => line.startsWith('folder, ') && !line.includes('ingestion'))
      .flatMap(([, xs]) => xs);
    const strict = new Set(folderRuns.map((x) => x.digest));
    out.push({
      target: `${label}: every worker count and core count gives the same document (all but its duration)`,
      measured: `${strict.size} distinct digest(s) over ${folderRuns.length} runs: ${[...strict].join(', ')}`,
      met: strict.size === 1,
    });
    const findings = new Set([...folderRuns, ...(r.samples[LINE.file1] ?? [])].map((x) => x.findings));
    out.push({
      target: `${r.size} ${r.format}: the same findings from the file and from its objects`,
      measured: `${findings.size} distinct digest(s) of recreations, loops, fights and drifts`,
      met: findings.size === 1,
    });
    const lambdaRuns = [1, 2].flatMap((n) => r.samples[LINE.lambda(n)] ?? []);
    const lambdaDigests = new Set(lambdaRuns.map((x) => x.digest));
    if (lambdaRuns.length > 0)
      out.push({
        target: `${label}: the analysis function's findings the same on every core count`,
        measured: `${lambdaDigests.size} distinct digest(s) over ${lambdaRuns.length} runs`,
        met: lambdaDigests.size === 1,
      });
  }
  return out;
}

export function formatScaling(runs: ScalingRun[]): string[] {
  const lines: string[] = [];
  const row = (what: string, rest: string) => lines.push(`  ${what.padEnd(58)} ${rest}`);
  for (const r of runs) {
    lines.push(
      '',
      `scaling: ${r.size} ${r.format} cut into ${r.objects} objects (${r.folder}); medians of ${r.rounds} rounds taken in turn, load average at each round's start ${r.loads.map((l) => l.toFixed(2)).join(', ')}`,
    );
    row('what', `${'wall s'.padEnd(8)} ${'CPU s'.padEnd(8)} ${'peak RSS MB'.padEnd(12)} runs (wall s)`);
    for (const [line, samples] of Object.entries(r.samples)) {
      const m = medianOf(samples)!;
      row(
        line,
        `${m.wallSeconds.toFixed(2).padEnd(8)} ${(m.cpuSeconds?.toFixed(2) ?? 'n/a').padEnd(8)} ${(m.peakRssMB?.toFixed(0) ?? 'n/a').padEnd(12)} ${samples.map((x) => x.wallSeconds.toFixed(2)).join(', ')}`,
      );
    }
    const one = medianOf(r.samples[LINE.workers(1)]);
    for (const n of [2, 4]) {
      const m = medianOf(r.samples[LINE.workers(n)]);
      if (one && m)
        row(
          `${n} workers over one`,
          `${x(m.wallSeconds, one.wallSeconds)} wall${one.cpuSeconds != null && m.cpuSeconds != null ? `, ${x(m.cpuSeconds, one.cpuSeconds)} CPU, efficiency CPU1 / (${n} x wall${n}) ${(one.cpuSeconds / (n * m.wallSeconds)).toFixed(2)}` : ''}`,
        );
    }
    const oneCore = medianOf(r.samples[LINE.oneCore]);
    if (one && oneCore)
      row(
        'one worker: every core over one core',
        `${x(one.wallSeconds, oneCore.wallSeconds)} wall (zlib's pool and GC)`,
      );
    for (const model of [modelOf(r), cpuModelOf(r)]) {
      if (!model) continue;
      row(`${model.name} model T(n) = S + P/n (n workers on n cores)`, `fitted from ${model.from}`);
      row('', model.unfit ? `no prediction: ${model.unfit}` : predicted(model, one));
    }
    const lambda = lambdaSizes(r);
    for (const z of lambda.sizes)
      row(
        `analysis function at ${mb(z.memoryMB)} MB (${z.cores} core${z.cores === 1 ? '' : 's'})`,
        `analysis ${z.analysisSeconds.toFixed(2)} s, CPU ${z.cpuSeconds?.toFixed(2) ?? 'n/a'} s, peak RSS ${z.peakRssMB?.toFixed(0) ?? 'n/a'} MB: ${usd(z.usdPerRun)} per run (x86, $${LAMBDA_X86_USD_PER_GB_SECOND} per GB-second)`,
      );
    const { recommended } = lambda;
    const other = lambda.sizes.find((z) => z !== recommended);
    if (recommended)
      row(
        'analysis function: recommended memory size',
        `${mb(recommended.memoryMB)} MB, ${usd(recommended.usdPerRun)} per run at aws.amazon.com/lambda/pricing's x86 price${other ? ` (${mb(other.memoryMB)} MB: ${x(other.analysisSeconds, recommended.analysisSeconds)} its time for ${x(other.usdPerRun, recommended.usdPerRun)} its cost)` : ''}`,
      );
  }
  return lines;
}
