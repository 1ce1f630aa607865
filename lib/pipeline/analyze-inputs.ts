// The whole local pipeline, one direction: sources → ingest → facts → analysis → document.
// The same facts type is what the Lambda ingest writes to S3; here it stays in memory.
//
// Nothing fails silently here: an input that cannot be listed or opened (a typo in a
// path, a refused S3 listing, a file without read permission, an empty prefix) becomes an
// `InputError` in `summary.inputErrors` with its reason in plain words, and reading goes
// on with the other inputs; the CLI turns them into a banner and the exit status.
import { pipeline, Transform } from 'stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { analyzeInto } from '../analyze';
import { fixImpactOf, sumFixImpacts, type FixImpact } from '../analyze/fix-impact';
import { RecreationSpool } from '../analyze/recreation-spool';
import { findFights } from '../fights';
import { findDrifts } from '../drift';
import type { AnalysisOptions } from '../analyze/options';
import type { FactStore } from '../facts/store';
import type { IngestOptions } from '../ingest';
import { inThreadFacts } from '../ingest-pool/in-thread';
import { peek } from '../ingest-pool/peek';
import { poolFacts } from '../ingest-pool/pool';
import { createIngestStats, mergeIngestStats, type IngestStats } from '../ingest/stats';
import type { FindingsDocument, InputError, StreamedFindings } from '../model/findings';
import type { SourceObject } from '../sources/types';
import { clusterForInput, type ClusterPrefix } from '../config/config-file';
import { compareTimes } from '../analyze/time';
import { listLocal } from '../sources/local';
import { describeInputError } from '../sources/input-errors';
import {
  dataEndOf,
  dataStartOf,
  scopeWarnings,
  operatorLogWarnings,
  operatorUserWarnings,
  windowWarnings,
} from './checks';
import { judgeSight } from './visibility';
import { partialReadWarning } from './partial-read';
import { laterTime } from '../analyze/newest-event';

export interface Progress {
  /** Stored bytes read so far and events read (every audit event and operator line, kept or not). */
  update(bytesRead: number, events: number): void;
  /** A line saying what runs now that reading is over (the analysis, which draws no bar). */
  phase(text: string): void;
  done(): void;
}

export interface AnalyzeInputsDeps {
  /** Made on first use of an s3:// input, so local runs never load the AWS SDK at all. */
  s3Client?: () => Promise<S3Client>;
  /** Called with the bytes the listing holds; returns where to report bytes and events read. */
  progress?: (totalBytes: number) => Progress;
  /** What `--input -` reads. */
  stdin?: NodeJS.ReadableStream;
  /** Worker threads for reading (none: this thread reads). */
  parallel?: Parallelism;
}

/** The name `--input -` is known by in the findings and messages. */
export const STDIN_NAME = '(standard input)';

/**
 * Every object of every input. An input that cannot be listed, or lists nothing, is
 * recorded in `errors` and the next one is listed: one bad input must not hide the rest.
 */
export async function* listInputs(
  inputs: string[],
  deps: AnalyzeInputsDeps,
  errors: InputError[] = [],
): AsyncGenerator<SourceObject> {
  for (const input of inputs) {
    let listed = 0;
    try {
      for await (const o of listOne(input, deps)) {
        listed++;
        yield o;
      }
    } catch (e) {
      errors.push({ input, reason: describeInputError(e) });
      continue;
    }
    if (listed === 0) {
      errors.push({
        input,
        reason: input.startsWith('s3://') ? 'no objects under this prefix' : 'empty folder (no files in it)',
      });
    }
  }
}

async function* listOne(input: string, deps: AnalyzeInputsDeps): AsyncGenerator<SourceObject> {
  if (input === '-') {
    if (!deps.stdin) throw new Error('standard input is not available');
    const stdin = deps.stdin;
    yield { name: STDIN_NAME, open: async () => stdin };
  } else if (input.startsWith('s3://')) {
    if (!deps.s3Client) throw new Error(`no S3 client to read ${input}`);
    // Loaded on demand: the SDK's start-up cost is a tenth of a second on every local run.
    const { listS3 } = await import('../aws/s3-source');
    yield* listS3(await deps.s3Client(), input);
  } else {
    yield* listLocal(input);
  }
}

/** Objects whose failed opens are recorded as input errors (and still reach the reader, which counts them). */
async function* recordingOpens(
  objects: AsyncIterable<SourceObject>,
  errors: InputError[],
  opened: { count: number; failed: number },
): AsyncGenerator<SourceObject> {
  for await (const o of objects) {
    yield {
      ...o,
      open: async () => {
        try {
          const s = await o.open();
          opened.count++;
          return s;
        } catch (e) {
          opened.failed++;
          errors.push({ input: o.name, reason: describeInputError(e) });
          throw e;
        }
      },
    };
  }
}

/** Ingest worker threads: how many, and the bundle they run. */
export interface Parallelism {
  workers: number;
  /** dist/ingest-worker.js, beside the bundled command. */
  script: string;
}

/**
 * Every object's facts, de-duplicated across objects, in one store. With `parallel` (two
 * workers or more) objects are read by worker threads; the facts, the counts and the
 * findings are the same as on one thread (lib/ingest-pool/ordered-facts.ts).
 */
export async function collectFacts(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  ingestOpts: IngestOptions = {},
  onEvents?: (events: number) => void,
  parallel?: Parallelism,
): Promise<FactStore> {
  // Held as columns, not objects: a day of a looping fleet is millions of facts.
  if (parallel && parallel.workers > 1 && !ingestOpts.keep) {
    // One object is one worker's: this thread reads it as fast, without the hand-over.
    const first = await peek(objects, 2);
    if (first.head.length < 2 && !first.more) return inThreadFacts(first.all, stats, ingestOpts, onEvents);
    const { keep: _keep, ...opts } = ingestOpts;
    return poolFacts(first.all, stats, {
      workers: parallel.workers,
      script: parallel.script,
      ingest: opts,
      onEvents,
    });
  }
  return inThreadFacts(objects, stats, ingestOpts, onEvents);
}

/** The objects with their streams counted, so a progress bar can show stored bytes read. */
function countingBytes(objects: SourceObject[]): {
  objects: AsyncIterable<SourceObject>;
  bytesRead: () => number;
} {
  let bytes = 0;
  async function* wrapped(): AsyncGenerator<SourceObject> {
    for (const o of objects) {
      yield {
        ...o,
        open: async () => {
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              bytes += chunk.length;
              done(null, chunk);
            },
          });
          // pipeline, not pipe: a read error of the source must reach the reader.
          pipeline(await o.open(), counter, () => undefined);
          return counter;
        },
      };
    }
  }
  return { objects: wrapped(), bytesRead: () => bytes };
}

/** How often the bar is fed while reading: a timer, since kept records are rare in noisy logs. */
const PROGRESS_TICK_MS = 200;

/** A document whose recreations are in a spool (shared by every cluster of a run). */
export interface SpooledFindings extends StreamedFindings {
  recreations: RecreationSpool;
}

/**
 * The findings with every recreation held, for callers that want the document as plain
 * data (tests, scripts); the CLI streams with {@link spoolByCluster} instead.
 */
export async function analyzeInputs(
  inputs: string[],
  opts: PipelineOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps = {},
): Promise<FindingsDocument> {
  return held((spool) => spoolInputs(inputs, opts, ingestOpts, deps, spool));
}

/** {@link spoolByCluster} with every recreation held. */
export async function analyzeByCluster(
  inputs: string[],
  clusters: ClusterPrefix[] | undefined,
  opts: PipelineOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps = {},
): Promise<FindingsDocument> {
  return held((spool) => spoolByCluster(inputs, clusters, opts, ingestOpts, deps, spool));
}

async function held(run: (spool: RecreationSpool) => Promise<SpooledFindings>): Promise<FindingsDocument> {
  const spool = new RecreationSpool();
  try {
    const doc = await run(spool);
    return { ...doc, recreations: spool.toArray() };
  } finally {
    spool.close();
  }
}

/**
 * The analysis of `inputs`, its recreations added to `spool` (which the caller closes) as
 * they are classified, so none is held: `recreations` of the result is the spool, read
 * back by deletion time.
 */
export async function spoolInputs(
  inputs: string[],
  opts: PipelineOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps,
  spool: RecreationSpool,
): Promise<SpooledFindings> {
  const stats = createIngestStats();
  const started = Date.now();
  const inputErrors: InputError[] = [];
  const opened = { count: 0, failed: 0 };
  let objects: AsyncIterable<SourceObject> = listInputs(inputs, deps, inputErrors);
  let bar: Progress | undefined;
  let tick: NodeJS.Timeout | undefined;
  let eventsRead = 0;
  const events = () => eventsRead;
  let feed: (() => void) | undefined;
  if (deps.progress) {
    // Listing first gives the total for the bar; listings are small next to the data.
    const listed: SourceObject[] = [];
    for await (const o of objects) listed.push(o);
    const progress = deps.progress(listed.reduce((a, o) => a + (o.size ?? 0), 0));
    const counted = countingBytes(listed);
    objects = counted.objects;
    feed = () => progress.update(counted.bytesRead(), events());
    tick = setInterval(feed, PROGRESS_TICK_MS);
    tick.unref();
    bar = progress;
  }
  let facts: FactStore;
  try {
    facts = await collectFacts(
      recordingOpens(objects, inputErrors, opened),
      stats,
      ingestOpts,
      bar ? (n) => (eventsRead = n) : undefined,
      deps.parallel,
    );
  } finally {
    if (tick) clearInterval(tick);
  }
  // The last objects may end on other threads after the listing does: the whole count, once.
  eventsRead = stats.audit.read + stats.operator.read;
  feed?.();
  // The end of the data is the newest event read (fights.md), which a tail of unrelated
  // traffic moves past the newest fact kept.
  const dataEndsAt = laterTime(dataEndOf(facts), stats.newestEventAt);
  const scoped = { ...resolveRelativeSince(opts, dataEndsAt), newestEventAt: dataEndsAt };
  bar?.phase(`analysing ${facts.size.toLocaleString('en-US')} facts…`);
  const first = spool.length;
  const removedBefore = spool.removals();
  // The operators whose members were re-created, for the operator-log warning (a restarted
  // pass clears them with the spool).
  const operators = new Set<string | undefined>();
  const result = analyzeInto(facts, scoped, {
    add: (r) => {
      operators.add(r.operator);
      spool.add(r);
    },
    clear: () => {
      operators.clear();
      spool.truncate(first);
    },
  });
  // The list holds both the pods re-created and the brokers a downscale removed: counted apart.
  const brokerRemovals = spool.removals() - removedBefore;
  const fights = findFights(facts, scoped);
  const drift = findDrifts(facts, scoped);
  const sight = judgeSight(stats, facts);
  const partial = partialReadWarning(stats);
  // Seeing nothing outweighs losing part of what was seen: the blind warning leads.
  const warnings = [
    ...(sight.message ? [sight.message] : []),
    ...(partial ? [partial] : []),
    ...windowWarnings(scoped, { start: dataStartOf(facts), end: dataEndsAt }),
    ...scopeWarnings(facts, scoped),
    ...drift.warnings,
    ...operatorUserWarnings(facts, scoped, { recreations: spool.added(first), loops: result.loops }),
    ...operatorLogWarnings(facts, [...operators, ...result.loops.map((l) => l.operator)]),
  ];
  bar?.done();
  return {
    recreations: spool,
    loops: result.loops,
    fights,
    drifts: drift.drifts,
    summary: {
      inputs,
      inputErrors: dedupeErrors(inputErrors),
      inputsOpened: opened.count,
      inputsFailedToOpen: opened.failed,
      ...stats,
      facts: facts.size,
      recreations: result.recreations - brokerRemovals,
      brokerRemovals,
      fixImpact: fixImpactOf(spool.added(first), scoped.autoscalerUsers),
      loops: result.loops.length,
      fights: fights.length,
      drifts: drift.drifts.length,
      dataEndsAt: dataEndsAt ?? null,
      ...(opts.sinceSeconds !== undefined ? { since: scoped.since ?? null } : {}),
      blind: sight.blind,
      partial: partial !== null,
      warnings,
      notes: drift.notes,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    },
  };
}

/** A failing file is recorded once, though both its listing and its open may say so. */
function dedupeErrors(errors: InputError[]): InputError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = `${e.input}\u0000${e.reason}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * `--since 2h` is relative to the end of the logs (the newest fact read), not to the
 * clock: an old bundle then shows its own last two hours, and live logs end about now.
 * The options carry it as `sinceSeconds` until the end is known.
 */
export type PipelineOptions = AnalysisOptions & { sinceSeconds?: number };

export function resolveRelativeSince(opts: PipelineOptions, dataEndsAt: string | null): AnalysisOptions {
  const { sinceSeconds, ...rest } = opts;
  if (sinceSeconds === undefined || !dataEndsAt) return rest;
  return { ...rest, since: new Date(Date.parse(dataEndsAt) - sinceSeconds * 1000).toISOString() };
}

/**
 * Inputs from different Kubernetes clusters are analysed apart: the same namespace,
 * KafkaCluster and broker id can exist in two clusters, and their pods must never pair.
 * Inputs no configured prefix claims form one more group. The summary keeps each
 * cluster's own counts, and adds up what the command line reports.
 */
export async function spoolByCluster(
  inputs: string[],
  clusters: ClusterPrefix[] | undefined,
  opts: PipelineOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps,
  spool: RecreationSpool,
): Promise<SpooledFindings> {
  const groups = new Map<string, string[]>();
  for (const input of inputs) {
    const name = clusterForInput(input, clusters) ?? '';
    groups.set(name, [...(groups.get(name) ?? []), input]);
  }
  if (groups.size <= 1 && !clusters?.length) return spoolInputs(inputs, opts, ingestOpts, deps, spool);
  const started = Date.now();
  const docs: Array<[string, SpooledFindings]> = [];
  for (const [name, group] of groups)
    docs.push([name, await spoolInputs(group, opts, ingestOpts, deps, spool)]);
  const byTime = (a: string, b: string) => compareTimes(a, b);
  const all = createIngestStats();
  for (const [, d] of docs) mergeIngestStats(all, d.summary as unknown as IngestStats);
  const ends = docs.map(([, d]) => d.summary.dataEndsAt).filter((t): t is string => typeof t === 'string');
  return {
    // One spool for every cluster, added to cluster by cluster: read back by deletion time,
    // ties keep that order, as a stable sort of the clusters' lists one after the other.
    recreations: spool,
    loops: docs.flatMap(([, d]) => d.loops).sort((a, b) => byTime(a.firstAt, b.firstAt)),
    fights: docs.flatMap(([, d]) => d.fights ?? []).sort((a, b) => byTime(a.firstAt, b.firstAt)),
    drifts: docs.flatMap(([, d]) => d.drifts ?? []).sort((a, b) => byTime(a.at, b.at)),
    summary: {
      inputs,
      inputErrors: docs.flatMap(([, d]) => d.summary.inputErrors ?? []),
      inputsOpened: docs.reduce((n, [, d]) => n + Number(d.summary.inputsOpened ?? 0), 0),
      inputsFailedToOpen: docs.reduce((n, [, d]) => n + Number(d.summary.inputsFailedToOpen ?? 0), 0),
      ...all,
      recreations: docs.reduce((n, [, d]) => n + Number(d.summary.recreations ?? 0), 0),
      brokerRemovals: docs.reduce((n, [, d]) => n + Number(d.summary.brokerRemovals ?? 0), 0),
      fixImpact: sumFixImpacts(docs.map(([, d]) => d.summary.fixImpact as FixImpact)),
      loops: docs.reduce((n, [, d]) => n + d.loops.length, 0),
      fights: docs.reduce((n, [, d]) => n + (d.fights?.length ?? 0), 0),
      drifts: docs.reduce((n, [, d]) => n + (d.drifts?.length ?? 0), 0),
      dataEndsAt: ends.sort(byTime).pop() ?? null,
      // Nothing read anywhere is the run's own blindness; else the first cluster that cannot see.
      blind:
        all.audit.read === 0
          ? 'no-audit-events'
          : (docs.map(([, d]) => d.summary.blind).find((b) => typeof b === 'string') ?? null),
      partial: docs.some(([, d]) => d.summary.partial === true),
      notes: docs.flatMap(([name, d]) =>
        ((d.summary.notes as string[] | undefined) ?? []).map((n) => (name ? `${name}: ${n}` : n)),
      ),
      warnings: docs.flatMap(([name, d]) =>
        ((d.summary.warnings as string[] | undefined) ?? []).map((w) => (name ? `${name}: ${w}` : w)),
      ),
      seconds: Math.round((Date.now() - started) / 100) / 10,
      clusters: Object.fromEntries(docs.map(([name, d]) => [name || '(unassigned)', d.summary])),
    },
  };
}
