// Time to alert (issue 20), on fauxqs with the clock driven by the test: a broker starts
// looping, and its audit events reach the bucket as Firehose delivers them, one object per
// minute of events, each landing a few seconds after its minute ends. The schedule ticks
// every 5 minutes of that clock, as EventBridge would. The loop-started alert must be
// published by the ingest of the object that holds the loop's third recreation (the ingest
// asks for the cluster's analysis on the analysis queue), not by the next schedule.
// Only Date is faked: fauxqs stamps SentTimestamp by the real clock, so the requests' own
// `sentAt` (the test's clock) is what the stale check and the merge read.
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { performance } from 'perf_hooks';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { parseAnalysisRequest } from '../../lib/aws/analysis-queue';
import type { AnalyzeOutcome, ClusterSummary } from '../../functions/analyze';
import type { AlertMessage } from '../../lib/notify/message';
import { simulateCluster, type SimulatedLogs } from '../../sim';
import { firehoseObject } from '../../sim/encode';
import type { AuditEvent } from '../../lib/model/audit';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { deploy, handlerEnv, notifyObjects, receivedAlerts, scheduleAnalysis, type Env } from './support';

const CLUSTER = 'eks-live';
const BUFFER_MS = 60_000; // the Firehose buffering interval of infra/log-shipping.md
const DELIVERY_MS = 5_000; // from the end of a buffer to the object's notification
const SCHEDULE_MS = 5 * 60_000; // rate(5 minutes)

type Step = { kind: 'ingest'; object: number } | { kind: 'schedule'; at: string };
interface Published {
  alert: AlertMessage;
  by: Step;
  /** The test's clock when it was published. */
  clockMs: number;
}

describe('time to alert: the ingest asks for the analysis (fauxqs, test clock)', () => {
  let fx: Fauxqs;
  let env: Env;
  let sim: SimulatedLogs;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let analyzeBatch: (e: SQSEvent, c: Context) => Promise<AnalyzeOutcome>;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'live-logs');
    handlerEnv(fx, env.stack, { POWERTOOLS_LOG_LEVEL: 'SILENT' });
    ingest = (await import('../../functions/ingest')).handler;
    analyzeBatch = (await import('../../functions/analyze')).analyzeBatch;
    sim = simulateCluster({
      seed: 2020,
      start: '2026-11-02T06:00:00Z',
      noiseRatio: 0.3,
      scenarios: ['scaleops-loop'],
    });
    // Only Date is the test's: timers, I/O and the emulator (another process) run as usual.
    jest.useFakeTimers({
      now: Date.parse(sim.audit[0]!.stageTimestamp),
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
  });
  afterAll(async () => {
    jest.useRealTimers();
    process.env = saved;
    await fx?.stop();
  });

  it('publishes loop-started from the ingest of the object holding the third recreation', async () => {
    const loop = sim.truth.loops[0]!;
    expect(sim.truth.loops).toHaveLength(1);
    const members = sim.truth.recreations
      .filter((r) => r.brokerId === loop.brokerId && r.deletedPod.deletedAt >= loop.firstAt)
      .sort((a, b) => a.deletedPod.deletedAt.localeCompare(b.deletedPod.deletedAt));
    const third = members[2]!;
    // The third recreation is whole once its replacement pod is created.
    const thirdAt = Date.parse(third.createdPod?.createdAt ?? third.deletedPod.deletedAt);

    // Firehose: one object per minute of events (by the time CloudWatch Logs stamps them). Its
    // buffers start whenever; here one ends between the second and the third recreation, so
    // the object before holds two recreations (not yet a loop) and the next one the third.
    const secondAt = Date.parse(members[1]!.createdPod?.createdAt ?? members[1]!.deletedPod.deletedAt);
    const boundary = Math.floor((secondAt + Date.parse(third.deletedPod.deletedAt)) / 2);
    const first = Date.parse(sim.audit[0]!.stageTimestamp);
    const t0 = boundary - Math.ceil((boundary - first) / BUFFER_MS) * BUFFER_MS;
    const buffers = new Map<number, AuditEvent[]>();
    for (const e of sim.audit) {
      const k = Math.floor((Date.parse(e.stageTimestamp) - t0) / BUFFER_MS);
      buffers.set(k, [...(buffers.get(k) ?? []), e]);
    }
    const holding = Math.floor((thirdAt - t0) / BUFFER_MS);

    const published: Published[] = [];
    const requested: { object: number; time: string; sentAt?: string; clockMs: number }[] = [];
    const analyses: ClusterSummary[] = [];
    const ingestMs: number[] = [];
    const analyzeMs: number[] = [];
    const collect = async (by: Step): Promise<void> => {
      for (const alert of (await receivedAlerts(env)).alerts)
        published.push({ alert, by, clockMs: Date.now() });
    };
    let nextTick = Math.ceil((t0 + 1) / SCHEDULE_MS) * SCHEDULE_MS;
    const lastBuffer = Math.max(...buffers.keys());
    for (let k = 0; k <= Math.min(lastBuffer, holding + 1); k++) {
      const deliveredAt = t0 + (k + 1) * BUFFER_MS + DELIVERY_MS;
      // Ticks that fell before this object landed run first, on the facts there were.
      while (nextTick <= deliveredAt) {
        jest.setSystemTime(nextTick);
        const run = await scheduleAnalysis(env, new Date(nextTick));
        analyses.push(...run.clusters);
        await collect({ kind: 'schedule', at: new Date(nextTick).toISOString() });
        nextTick += SCHEDULE_MS;
      }
      jest.setSystemTime(deliveredAt);
      const events = buffers.get(k);
      if (!events) continue;
      const key = `logs/${CLUSTER}/audit/firehose/${String(k).padStart(4, '0')}.gz`;
      await uploadObject(env.s3, env.stack.bucket, key, firehoseObject(events));
      expect(await notifyObjects(env, key)).toBe(1);
      let started = performance.now();
      const ingested = await driveSqsHandler(
        env.sqs,
        env.stack.ingestQueueUrl,
        env.stack.ingestQueueArn,
        ingest,
      );
      ingestMs.push(performance.now() - started);
      expect(ingested.failures.flat()).toEqual([]);
      // The analysis queue's event source mapping: whatever the ingest asked for runs now.
      started = performance.now();
      const before = requested.length;
      await driveSqsHandler(
        env.sqs,
        env.stack.analysisQueueUrl,
        env.stack.analysisQueueArn,
        async (e, c) => {
          for (const r of e.Records) {
            const { time, sentAt } = parseAnalysisRequest(r.body);
            requested.push({ object: k, time, ...(sentAt ? { sentAt } : {}), clockMs: Date.now() });
          }
          const out = await analyzeBatch(e, c);
          analyses.push(...out.clusters);
          return { batchItemFailures: out.batchItemFailures };
        },
        { batchSize: 1, functionName: 'koperator-audit-analyze' },
      );
      if (requested.length > before) analyzeMs.push(performance.now() - started);
      await collect({ kind: 'ingest', object: k });
    }

    const starts = published.filter((p) => p.alert.event === 'loop-started');
    expect(starts).toHaveLength(1);
    const start = starts[0]!;
    expect(start.by).toEqual({ kind: 'ingest', object: holding });
    expect(start.alert.cluster).toBe(CLUSTER);
    // Its analysis ended at an event of that object (the newest), not at the test's clock.
    const holdingEnd = t0 + (holding + 1) * BUFFER_MS;
    const fromHolding = requested.filter((r) => r.object === holding).map((r) => Date.parse(r.time));
    expect(fromHolding).toHaveLength(1);
    expect(fromHolding[0]).toBeGreaterThanOrEqual(thirdAt);
    expect(fromHolding[0]).toBeLessThanOrEqual(holdingEnd);
    // The object before, with the first two recreations, asked too: the third made the loop.
    expect(requested.filter((r) => r.object === holding - 1)).toHaveLength(1);
    expect(
      members.slice(0, 2).every((r) => Date.parse(r.deletedPod.deletedAt) < t0 + holding * BUFFER_MS),
    ).toBe(true);
    expect(analyses.every((a) => a.error === undefined && !a.conflict)).toBe(true);
    // One clock: each request says it was sent at the test's clock (not fauxqs' SentTimestamp,
    // today's real time), and the stale check and the merge both judge it by that.
    expect(requested.every((r) => r.sentAt !== undefined && Date.parse(r.sentAt) === r.clockMs)).toBe(true);
    expect(analyses.filter((a) => a.stale)).toEqual([]);
    const latency = start.clockMs - thirdAt;
    expect(latency).toBeLessThanOrEqual(BUFFER_MS + DELIVERY_MS);
    // Alone, the schedule would have alerted at its first tick after the object landed.
    const scheduleAlone =
      Math.ceil((t0 + (holding + 1) * BUFFER_MS + DELIVERY_MS) / SCHEDULE_MS) * SCHEDULE_MS;
    expect(start.clockMs).toBeLessThan(scheduleAlone);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    process.stdout.write(
      `time to alert: third recreation ${new Date(thirdAt).toISOString()}, loop-started at test clock +${(latency / 1000).toFixed(1)} s ` +
        `(object ${holding}; the schedule alone: +${((scheduleAlone - thirdAt) / 1000).toFixed(1)} s); analyses requested on evidence by objects ${requested.map((r) => r.object).join(',')}; ingest per object median ${median(ingestMs).toFixed(0)} ms ` +
        `max ${Math.max(...ingestMs).toFixed(0)} ms; analysis median ${median(analyzeMs).toFixed(0)} ms max ${Math.max(...analyzeMs).toFixed(0)} ms\n`,
    );
  });
});
