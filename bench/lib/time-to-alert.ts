// `npm run bench -- --time-to-alert` (issue 29): seconds from a decisive audit event's arrival
// in CloudWatch Logs to its alert's SNS publish, for one looping broker, 100 brokers looping in
// one cluster and 20 clusters looping at once, each over background audit traffic.
//
// A discrete-event simulation on a virtual clock. Every stage we own is the real function on
// fauxqs (S3, SQS, SNS over the wire): the ingest handler, the dispatch, the analysis handler;
// its service time is its measured wall time, and while it runs the clock it reads (Date) is
// the virtual one advancing at wall speed. Stages AWS owns are modelled delays (AWS_DELAYS,
// each with its source). Lambda concurrency is modelled as slots (a 2-core machine cannot run
// ten analyses at once): handlers run one at a time in real time, at their virtual start. So a
// run never reads facts from the virtual future, an analysis run does not start while an ingest
// of its cluster is in flight (it waits for its end: pessimistic by that ingest's time).
import { rightsizedKafkaWorld } from '../gen/koperator';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, DeleteMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, ScheduledEvent } from 'aws-lambda';
import { performance } from 'perf_hooks';
import type { AuditEvent } from '../../lib/model/audit';
import type { AlertMessage } from '../../lib/notify/message';
import { parseAnalysisRequest } from '../../lib/aws/analysis-queue';
import { buildS3Notification } from '../../lib/aws/s3-events';
import { startFauxqs, type Fauxqs } from '../../lib/local-aws/fauxqs-server';
import { pointHandlersAt } from '../../lib/local-aws/handler-env';
import {
  createLocalStack,
  drainQueue,
  localClients,
  receiveBatch,
  type LocalClients,
} from '../../lib/local-aws/local-stack';
import {
  lambdaContext,
  scheduledEvent,
  snsEventFromEnvelope,
  sqsEventFromMessages,
} from '../../lib/local-aws/local-lambda';
import { noiseEvents } from '../../sim';
import { firehoseObject } from '../../sim/encode';
import { CLUSTERS } from '../../sim/fixtures';
import { Rng } from '../../sim/rng';
import { revertLoop, upscale } from '../../sim/scenarios/common';
import { SEC, parseTime } from '../../sim/time';

/** AWS's stages, seconds. Each figure is AWS's documented one where there is one. */
export const AWS_DELAYS = {
  /**
   * CloudWatch Logs subscription filter to Firehose: "a real-time stream of log events"
   * (PutSubscriptionFilter API reference); no figure is documented: 1 s assumed.
   */
  subscriptionToFirehose: 1,
  /**
   * Firehose's zero buffering: "when you configure the buffering interval as zero seconds,
   * Firehose does not buffer data and delivers data within a few seconds" (Firehose developer
   * guide, "Understand buffering hints"). Modelled as objects cut every 2 s, each in S3 1 s later.
   */
  zeroBufferCutEvery: 2,
  firehosePut: 1,
  /**
   * S3 event notification: "typically delivered in seconds but can sometimes take a minute or
   * longer" (S3 user guide, "Amazon S3 Event Notifications"): 1 s modelled; the tail is
   * reported apart (awsTail).
   */
  s3Notification: 1,
  /**
   * Lambda's SQS poller (long polling) to an invocation: no figure documented; 0.5 s assumed.
   * The ingest's batching window (MaximumBatchingWindowInSeconds, "Batching window is not
   * supported for FIFO queues": none for the analysis queue) is added for the ingest.
   */
  sqsPoll: 0.5,
} as const;

/** The documented tail left out of the percentiles: an S3 notification "a minute or longer". */
export const AWS_TAIL = { s3NotificationSeconds: 60 };

export interface LoadSpec {
  name: 'one-broker' | '100-brokers' | '20-clusters';
  clusters: number;
  /** Brokers looping at once in each cluster. */
  brokers: number;
  /**
   * At zero buffering, how often Firehose cuts an object (default AWS_DELAYS.zeroBufferCutEvery):
   * shorter, more objects holding a deletion, so more evidence requests a second.
   */
  zeroBufferCutSeconds?: number;
}

export const LOADS: readonly LoadSpec[] = [
  { name: 'one-broker', clusters: 1, brokers: 1 },
  { name: '100-brokers', clusters: 1, brokers: 100 },
  { name: '20-clusters', clusters: 20, brokers: 1 },
];

export interface TtaParams {
  /** Revert-loop iterations per broker (~9 s each): the simulated span. */
  iterations: number;
  /** Background traffic simulated after the loops' last event, seconds (default 30). */
  tailSeconds?: number;
  /** Background audit traffic per cluster, bytes a day (issue 29: 20 GB). */
  backgroundBytesPerDay: number;
  /** Firehose IntervalInSeconds (0: zero buffering; today's default 60). */
  firehoseIntervalSeconds: number;
  /** The ingest mapping's maximumBatchingWindow, seconds, and its batch size. */
  ingestBatchWindowSeconds: number;
  ingestBatchSize: number;
  /** maximumConcurrency of each mapping (ingestMaxConcurrency, analyzeConcurrency). */
  ingestConcurrency: number;
  analyzeConcurrency: number;
  /** rate(N minutes) of the schedule, seconds. */
  scheduleSeconds: number;
  seed: number;
  log?: (s: string) => void;
}

export const DEFAULT_TTA: TtaParams = {
  iterations: 14,
  backgroundBytesPerDay: 20e9,
  firehoseIntervalSeconds: 0,
  ingestBatchWindowSeconds: 0,
  ingestBatchSize: 5,
  ingestConcurrency: 10,
  analyzeConcurrency: 10,
  scheduleSeconds: 300,
  seed: 29,
};

export interface AlertTiming {
  cluster: string;
  event: string;
  /** Seconds from the decisive event's arrival in CloudWatch Logs to the SNS publish. */
  seconds: number;
  /** Of which AWS's modelled stages (to the notification in the ingest queue, and the pollers). */
  awsSeconds: number;
}

export interface LoadResult {
  load: LoadSpec;
  alerts: AlertTiming[];
  /** loop-started alerts (distinct ids); of which a loop resumed after its loop-ended. */
  loopsStarted: number;
  loopsResumed: number;
  /** A broker's loop started again with no loop-ended between: announced twice (must be 0). */
  doubleStarts: number;
  /** Alerts delivered again with an id already seen (SNS is at-least-once; not counted twice). */
  redelivered: number;
  p50: number;
  p99: number;
  awsP50: number;
  awsP99: number;
  oursP50: number;
  oursP99: number;
  runs: number;
  merged: number;
  /**
   * Invocations (an ingest batch, a dispatch) that sent a cluster requests, counted per
   * cluster: requests sent together are covered by one run, so with the merge a load never
   * runs more often than this; without it, once per request.
   */
  deliveries: number;
  requests: number;
  objects: number;
  backgroundBytes: number;
  ingestMs: { median: number; max: number };
  analyzeMs: { median: number; max: number };
  /**
   * Seconds a request waited in its cluster's queue, from when Lambda could have polled it to
   * its handler's start: behind the run in flight and, at most, the one after it when runs
   * merge what queued behind them; behind every queued run when they do not (a backlog).
   */
  waitP50: number;
  waitMax: number;
  /** Longest run, seconds (the bound a request's wait is judged against). */
  runMax: number;
  wallSeconds: number;
}

// ---- The virtual clock: Date reads it; it advances at wall speed only while a handler runs.
const RealDate = Date;
const vclock = { base: 0, realBase: 0, running: false };
const vnow = (): number =>
  vclock.running ? vclock.base + (performance.now() - vclock.realBase) : vclock.base;
class VirtualDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(vnow());
    else super(...(args as [string | number]));
  }
  static override now(): number {
    return vnow();
  }
}

/** Runs `fn` at virtual time `at`, the clock ticking with the wall; returns its result and wall ms. */
async function atVirtual<T>(at: number, fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  vclock.base = at;
  vclock.realBase = performance.now();
  vclock.running = true;
  try {
    const value = await fn();
    return { value, ms: performance.now() - vclock.realBase };
  } finally {
    vclock.running = false;
  }
}

/** Generated simulator output, kept across loads and calls (the loads share most of it). */
const memo = new Map<string, unknown>();
function memoized<T>(key: string, make: () => T): T {
  if (!memo.has(key)) memo.set(key, make());
  return memo.get(key) as T;
}

/** The audit events of `brokers` brokers of one cluster looping from `start` (the simulator's revert loop). */
export function loopingBrokers(
  seed: number,
  start: string,
  brokers: number,
  iterations: number,
): AuditEvent[] {
  const at = parseTime(start);
  const world = rightsizedKafkaWorld(seed, at);
  const ctx = { world, rng: new Rng(seed).fork('time-to-alert'), leaveRunning: true };
  for (let b = 0; b < brokers; b++) {
    const id = String(5 + b);
    // Staggered by 80 ms so 100 brokers' loops interleave rather than move in step.
    const first = upscale(ctx, world.cluster(CLUSTERS.clickstream), id, at + SEC + b * 80_000);
    revertLoop(
      ctx,
      CLUSTERS.clickstream,
      id,
      { createdAt: first.record.receivedAt, readyAt: first.readyAt },
      iterations,
      null,
    );
  }
  return world.audit.sort((a, b) =>
    a.stageTimestamp < b.stageTimestamp ? -1 : a.stageTimestamp > b.stageTimestamp ? 1 : 0,
  );
}

/** Background traffic of `seconds` from `start` at `bytesPerDay` (the simulator's noise; its mean size measured). */
export function background(seed: number, start: string, seconds: number, bytesPerDay: number): AuditEvent[] {
  const sample = [...noiseEvents(seed, start, 400, 40)];
  const meanBytes = sample.reduce((a, e) => a + JSON.stringify(e).length, 0) / sample.length;
  const perSecond = bytesPerDay / 86_400 / meanBytes;
  return [...noiseEvents(seed, start, Math.ceil(perSecond * seconds), perSecond)];
}

const tms = (e: AuditEvent): number => RealDate.parse(e.stageTimestamp);

/** The event whose arrival the alert is measured from (lib/alerts/event-time.ts, on the message). */
function decisiveAt(m: AlertMessage): number {
  const f = m.finding as { lastAt?: string; at?: string; deletedPod?: { deletedAt: string } };
  const at =
    m.findingType === 'recreation' ? f.deletedPod?.deletedAt : m.findingType === 'drift' ? f.at : f.lastAt;
  return RealDate.parse(at ?? '');
}

interface SimObject {
  cluster: string;
  key: string;
  body: Buffer;
  /** Newest event it holds (ms) and when it is in S3 / its notification in the ingest queue. */
  newestMs: number;
  inS3: number;
  notified: number;
  /** Its ETag once uploaded (the ingest checks the notification's against the object's). */
  etag: string;
}

type Handler = (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;

const percentile = (xs: readonly number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

type Cut = Pick<SimObject, 'body' | 'newestMs' | 'inS3' | 'notified'>;

/** Firehose's objects of one cluster's events: cut every interval, each gzipped (the costly part). */
function cutObjects(events: readonly AuditEvent[], p: TtaParams, load: LoadSpec): Cut[] {
  const cut =
    p.firehoseIntervalSeconds > 0
      ? p.firehoseIntervalSeconds
      : (load.zeroBufferCutSeconds ?? AWS_DELAYS.zeroBufferCutEvery);
  const byCut = new Map<number, AuditEvent[]>();
  for (const e of events) {
    const k = Math.floor((tms(e) + AWS_DELAYS.subscriptionToFirehose * 1000) / (cut * 1000));
    let list = byCut.get(k);
    if (!list) byCut.set(k, (list = []));
    list.push(e);
  }
  return [...byCut.entries()]
    .sort(([a], [b]) => a - b)
    .map(([k, list]) => {
      const inS3 = Math.round((k + 1) * cut * 1000 + AWS_DELAYS.firehosePut * 1000);
      return {
        body: firehoseObject(list),
        newestMs: Math.max(...list.map(tms)),
        inS3,
        notified: inS3 + AWS_DELAYS.s3Notification * 1000,
      };
    });
}

/** A cluster's copy of the cut objects (every cluster of a load has the same traffic). */
const objectsOf = (cluster: string, cuts: readonly Cut[]): SimObject[] =>
  cuts.map((c, i) => ({
    ...c,
    cluster,
    key: `logs/${cluster}/audit/firehose/${String(i).padStart(5, '0')}.gz`,
    etag: '',
  }));

/** One load, simulated. */
async function runLoad(
  fx: Fauxqs,
  c: LocalClients,
  load: LoadSpec,
  p: TtaParams,
  index: number,
): Promise<LoadResult> {
  const wall = performance.now();
  const log = p.log ?? (() => undefined);
  const start = '2026-11-02T06:00:00Z';
  const startMs = RealDate.parse(start);
  const stack = await createLocalStack(c, { bucket: `tta-${index}-${load.name}`, prefix: `tta-${index}` });
  pointHandlersAt(fx, stack, { POWERTOOLS_LOG_LEVEL: process.env.TTA_LOG_LEVEL ?? 'SILENT' });
  const ingest = (await import('../../functions/ingest')).handler as Handler;
  const { analyzeBatch } = await import('../../functions/analyze');
  const dispatch = (await import('../../functions/dispatch-analysis')).handler as (
    e: ScheduledEvent,
    c: Context,
  ) => Promise<unknown>;

  // Generated once per shape: one-broker and 20-clusters share their traffic, and a load's
  // clusters share theirs (only the keys differ).
  const traffic = memoized(
    JSON.stringify([
      p.seed,
      start,
      load.brokers,
      p.iterations,
      p.tailSeconds,
      p.backgroundBytesPerDay,
      load.zeroBufferCutSeconds,
      p.firehoseIntervalSeconds,
    ]),
    () => {
      const loop = loopingBrokers(p.seed, start, load.brokers, p.iterations);
      const endMs = Math.max(...loop.map(tms)) + (p.tailSeconds ?? 30) * 1000;
      const noise = background(p.seed, start, (endMs - startMs) / 1000, p.backgroundBytesPerDay);
      const merged = [...loop, ...noise].sort((a, b) => tms(a) - tms(b));
      return {
        loopEvents: loop.length,
        noiseEvents: noise.length,
        endMs,
        backgroundBytes: noise.reduce((a, e) => a + JSON.stringify(e).length, 0),
        cuts: cutObjects(merged, p, load),
      };
    },
  );
  const { endMs, backgroundBytes } = traffic;
  const clusters = Array.from({ length: load.clusters }, (_, i) => `eks-${load.name}-${i}`);
  const objects = clusters
    .flatMap((cl) => objectsOf(cl, traffic.cuts))
    .sort((a, b) => a.notified - b.notified);
  log(
    `  ${load.name}: ${traffic.loopEvents} loop events, ${traffic.noiseEvents} background events (${(backgroundBytes / 1e6).toFixed(1)} MB per cluster), ${objects.length} objects`,
  );

  // The modelled queues: the ingest queue's visible notifications, the analysis queue's
  // requests per message group (cluster), and which groups have a run in flight.
  const ingestQueue: SimObject[] = [];
  const groups = new Map<string, { body: string; sentMs: number }[]>();
  const inFlightUntil = new Map<string, number>();
  const lastIngestEnd = new Map<string, number>();
  const ingestBusyUntil: number[] = Array.from({ length: p.ingestConcurrency }, () => 0);
  const analyzeBusyUntil: number[] = Array.from({ length: p.analyzeConcurrency }, () => 0);
  const timings: AlertTiming[] = [];
  const ingestMs: number[] = [];
  const analyzeMs: number[] = [];
  const waitMs: number[] = [];
  let runs = 0;
  let mergedCount = 0;
  let deliveries = 0;
  let requests = 0;
  let loopsStarted = 0;
  let loopsResumed = 0;
  let doubleStarts = 0;
  let redelivered = 0;
  const alertIds = new Set<string>();
  const loopHistory = new Map<string, string[]>();
  const describe = (m: AlertMessage & { findingType: 'loop' }): string =>
    `${m.event} ${m.id.slice(0, 8)} window ${m.window.from}..${m.window.to} firstAt ${m.finding.firstAt} lastAt ${m.finding.lastAt} count ${m.finding.count} active ${m.finding.active}`;

  /** Moves what the real functions sent to the analysis queue into the modelled groups. */
  const collectRequests = async (): Promise<void> => {
    const sentTo = new Set<string>();
    for (const m of await drainQueue(c.sqs, stack.analysisQueueUrl)) {
      const r = parseAnalysisRequest(m.Body ?? '');
      sentTo.add(r.cluster);
      requests++;
      const list = groups.get(r.cluster) ?? [];
      list.push({ body: m.Body ?? '', sentMs: RealDate.parse(r.sentAt ?? '') });
      groups.set(r.cluster, list);
    }
    deliveries += sentTo.size;
  };

  let nextTick =
    Math.ceil(startMs / (p.scheduleSeconds * 1000)) * p.scheduleSeconds * 1000 + p.scheduleSeconds * 1000;
  let oi = 0;
  let now = startMs;
  const pollMs = AWS_DELAYS.sqsPoll * 1000;
  const windowMs = p.ingestBatchWindowSeconds * 1000;
  const free = (slots: number[], t: number): number => slots.findIndex((u) => u <= t);
  /** When each modelled thing could next start (virtual ms), nothing yet decided. */
  const candidates = (): number[] => {
    const out: number[] = [];
    if (oi < objects.length) out.push(objects[oi]!.notified);
    if (nextTick <= endMs) out.push(nextTick);
    if (ingestQueue.length > 0)
      out.push(Math.max(ingestQueue[0]!.notified + pollMs + windowMs, Math.min(...ingestBusyUntil)));
    for (const [cl, list] of groups) {
      if (list.length === 0) continue;
      out.push(
        Math.max(
          list[0]!.sentMs + pollMs,
          Math.min(...analyzeBusyUntil),
          lastIngestEnd.get(cl) ?? 0,
          inFlightUntil.get(cl) ?? 0,
        ),
      );
    }
    return out;
  };
  for (;;) {
    const next = candidates();
    if (next.length === 0) break;
    now = Math.max(now, Math.min(...next));
    if (await step()) continue;
    // Nothing could start at `now` after all: on to the next time something can.
    const later = candidates().filter((x) => x > now);
    if (later.length === 0) break;
    now = Math.min(...later);
  }

  /** Starts the first thing that can start at `now`; false when nothing can. */
  async function step(): Promise<boolean> {
    if (nextTick <= now && nextTick <= endMs) {
      const at = nextTick;
      await atVirtual(at, () => dispatch(scheduledEvent(new RealDate(at)), lambdaContext('dispatch')));
      await collectRequests();
      nextTick += p.scheduleSeconds * 1000;
      return true;
    }
    if (oi < objects.length && objects[oi]!.notified <= now) {
      while (oi < objects.length && objects[oi]!.notified <= now) {
        const o = objects[oi++]!;
        const put = await c.s3.send(new PutObjectCommand({ Bucket: stack.bucket, Key: o.key, Body: o.body }));
        o.etag = put.ETag ?? '';
        ingestQueue.push(o);
      }
      return true;
    }
    // The ingest: a batch once the first message has waited the poll and the batching window.
    const iSlot = free(ingestBusyUntil, now);
    if (ingestQueue.length > 0 && iSlot >= 0 && ingestQueue[0]!.notified + pollMs + windowMs <= now) {
      const batch = ingestQueue.splice(0, p.ingestBatchSize);
      for (const o of batch) {
        const n = buildS3Notification(
          [{ bucket: stack.bucket, key: o.key, size: o.body.length, etag: o.etag }],
          { region: fx.region, eventTime: new RealDate(o.inS3) },
        );
        await c.sqs.send(
          new SendMessageCommand({ QueueUrl: stack.ingestQueueUrl, MessageBody: JSON.stringify(n) }),
        );
      }
      const msgs = await receiveBatch(c.sqs, stack.ingestQueueUrl, 10);
      const r = await atVirtual(now, () =>
        ingest(sqsEventFromMessages(msgs, stack.ingestQueueArn), lambdaContext('ingest')),
      );
      for (const m of msgs)
        await c.sqs.send(
          new DeleteMessageCommand({ QueueUrl: stack.ingestQueueUrl, ReceiptHandle: m.ReceiptHandle }),
        );
      if (r.value.batchItemFailures.length > 0)
        throw new Error(`ingest failed: ${JSON.stringify(r.value.batchItemFailures)}`);
      ingestMs.push(r.ms);
      const end = now + r.ms;
      ingestBusyUntil[iSlot] = end;
      for (const o of batch) lastIngestEnd.set(o.cluster, Math.max(lastIngestEnd.get(o.cluster) ?? 0, end));
      await collectRequests();
      return true;
    }
    // The analysis: the first message of a group with no run in flight, on a free slot.
    const aSlot = free(analyzeBusyUntil, now);
    if (aSlot < 0) return false;
    for (const [cl, list] of groups) {
      if (list.length === 0 || (inFlightUntil.get(cl) ?? 0) > now) continue;
      if (list[0]!.sentMs + pollMs > now || (lastIngestEnd.get(cl) ?? 0) > now) continue;
      const req = list.shift()!;
      waitMs.push(now - (req.sentMs + pollMs));
      const event = sqsEventFromMessages(
        [{ Body: req.body, Attributes: { SentTimestamp: String(req.sentMs) } }],
        stack.analysisQueueArn,
      );
      const r = await atVirtual(now, () => analyzeBatch(event, lambdaContext('analyze')));
      const end = now + r.ms;
      analyzeBusyUntil[aSlot] = end;
      // The group stays locked until the run's end (FIFO: one message of a group in flight).
      inFlightUntil.set(cl, end);
      const s = r.value.clusters[0];
      if (s?.merged) mergedCount++;
      else {
        runs++;
        analyzeMs.push(r.ms);
      }
      if (r.value.batchItemFailures.length > 0)
        throw new Error(`analysis failed: ${JSON.stringify(r.value.clusters)}`);
      for (const env of await drainQueue(c.sqs, stack.alertsQueueUrl)) {
        const m = JSON.parse(
          snsEventFromEnvelope(env.Body ?? '{}', 'tap').Records[0]!.Sns.Message,
        ) as AlertMessage;
        // SNS delivers at least once; a subscriber drops a re-delivery by its id.
        if (alertIds.has(m.id)) {
          redelivered++;
          continue;
        }
        alertIds.add(m.id);
        if (m.event === 'loop-started') loopsStarted++;
        if (m.findingType === 'loop') {
          // Each broker's loop announcements: started again after loop-ended is a resumption;
          // started again without an end between is a double announcement (a bug).
          const f = m.finding;
          const key = `${m.cluster}/${f.kafkaCluster}/${f.brokerId}`;
          const seen = loopHistory.get(key) ?? [];
          if (m.event === 'loop-started' && seen.length > 0) {
            const resumed = seen[seen.length - 1]!.startsWith('loop-ended');
            if (resumed) loopsResumed++;
            else doubleStarts++;
            log(
              `  ${load.name}: loop-started again (${resumed ? 'resumed after its end' : 'twice, no end between'}) for ${key}: ${[...seen, describe(m)].join('; ')}`,
            );
          }
          loopHistory.set(key, [...seen, describe(m)]);
        }
        // An end is announced on absence, after the loop's gap: it has no decisive arrival.
        if (m.event.endsWith('-ended')) continue;
        const at = decisiveAt(m);
        const holder = objects.find((o) => o.cluster === m.cluster && o.newestMs >= at);
        // AWS's part: to the notification, then the ingest's poll and window, then the analysis' poll.
        const aws = holder ? holder.notified - at + pollMs + windowMs + pollMs : NaN;
        timings.push({
          cluster: m.cluster,
          event: m.event,
          seconds: (end - at) / 1000,
          awsSeconds: aws / 1000,
        });
      }
      return true;
    }
    return false;
  }
  const secs = timings.map((x) => x.seconds);
  const aws = timings.map((x) => x.awsSeconds).filter(Number.isFinite);
  const ours = timings.map((x) => x.seconds - x.awsSeconds).filter(Number.isFinite);
  return {
    load,
    alerts: timings,
    loopsStarted,
    loopsResumed,
    doubleStarts,
    redelivered,
    p50: percentile(secs, 50),
    p99: percentile(secs, 99),
    awsP50: percentile(aws, 50),
    awsP99: percentile(aws, 99),
    oursP50: percentile(ours, 50),
    oursP99: percentile(ours, 99),
    runs,
    merged: mergedCount,
    deliveries,
    requests,
    objects: objects.length,
    backgroundBytes,
    ingestMs: { median: percentile(ingestMs, 50), max: Math.max(...ingestMs) },
    analyzeMs: { median: percentile(analyzeMs, 50), max: Math.max(...analyzeMs) },
    waitP50: percentile(waitMs, 50) / 1000,
    waitMax: Math.max(...waitMs) / 1000,
    runMax: Math.max(...analyzeMs) / 1000,
    wallSeconds: (performance.now() - wall) / 1000,
  };
}

/** Every load, one after the other, on one emulator; Date is the virtual clock meanwhile. */
export async function timeToAlert(p: TtaParams, loads: readonly LoadSpec[] = LOADS): Promise<LoadResult[]> {
  const fx = await startFauxqs();
  const saved = { ...process.env };
  globalThis.Date = VirtualDate as DateConstructor;
  try {
    const c = localClients(fx.clientConfig);
    await c.sqs.send(new CreateQueueCommand({ QueueName: 'tta-warm' }));
    const out: LoadResult[] = [];
    for (const [i, load] of loads.entries()) out.push(await runLoad(fx, c, load, p, i));
    return out;
  } finally {
    globalThis.Date = RealDate;
    process.env = saved;
    await fx.stop();
  }
}

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

/** The three exact lines first, then one line per load with AWS's part, ours and the run counts. */
export function formatTimeToAlert(results: readonly LoadResult[]): string {
  const exact = results.map((r) => `time-to-alert ${r.load.name}: p50 ${f1(r.p50)} s, p99 ${f1(r.p99)} s`);
  const detail = results.map(
    (r) =>
      `  ${r.load.name}: ${r.alerts.length} alerts (${r.loopsStarted} loop-started, ${r.loopsResumed} of them resumed after loop-ended, ${r.doubleStarts} started twice; ${r.redelivered} re-delivered); AWS's modelled stages p50 ${f1(r.awsP50)} s, p99 ${f1(r.awsP99)} s; ours p50 ${f1(r.oursP50)} s, p99 ${f1(r.oursP99)} s; ` +
      `${r.requests} requests in ${r.deliveries} deliveries: ${r.runs} runs, ${r.merged} merged, queue wait p50 ${f1(r.waitP50)} s max ${f1(r.waitMax)} s; ingest ${r.ingestMs.median.toFixed(0)}/${r.ingestMs.max.toFixed(0)} ms, run ${r.analyzeMs.median.toFixed(0)}/${r.analyzeMs.max.toFixed(0)} ms (median/max); ` +
      `${r.objects} objects; ${(r.backgroundBytes / 1e6).toFixed(1)} MB background per cluster; ${r.wallSeconds.toFixed(0)} s wall. ` +
      `Not in p99: an S3 notification's documented tail ("a minute or longer") adds ~${AWS_TAIL.s3NotificationSeconds} s to the alerts it delays`,
  );
  return `${[...exact, ...detail].join('\n')}\n`;
}
