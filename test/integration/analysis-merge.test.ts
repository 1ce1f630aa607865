// No backlog (issue 29), on fauxqs: requests that pile up in a cluster's FIFO group behind a
// run merge into the next run. A looping broker's logs arrive as one object every 10 s; the
// first object's request runs alone, then the rest arrive while it "runs" (before the queue is
// driven again), each asking for an analysis on evidence. The next run reads up to the newest
// facts and covers them all: the others are skipped after one state read, every alert comes
// out once, and the queue drains.
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import type { AnalyzeOutcome, ClusterSummary } from '../../functions/analyze';
import { simulateCluster } from '../../sim';
import { firehoseObject } from '../../sim/encode';
import type { AuditEvent } from '../../lib/model/audit';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { deploy, handlerEnv, notifyObjects, receivedAlerts, type Env } from './support';

const CLUSTER = 'eks-merge';

describe('analysis requests piled up behind a run merge into the next (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let analyzeBatch: (e: SQSEvent, c: Context) => Promise<AnalyzeOutcome>;
  const saved = { ...process.env };
  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'merge-logs');
    handlerEnv(fx, env.stack, { POWERTOOLS_LOG_LEVEL: 'SILENT' });
    ingest = (await import('../../functions/ingest')).handler;
    analyzeBatch = (await import('../../functions/analyze')).analyzeBatch;
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  const ingestObjects = async (objects: [number, AuditEvent[]][]): Promise<void> => {
    for (const [k, events] of objects) {
      const key = `logs/${CLUSTER}/audit/firehose/${String(k).padStart(4, '0')}.gz`;
      await uploadObject(env.s3, env.stack.bucket, key, firehoseObject(events));
      expect(await notifyObjects(env, key)).toBe(1);
    }
    const r = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(r.failures.flat()).toEqual([]);
  };
  const analyse = async (): Promise<ClusterSummary[]> => {
    const out: ClusterSummary[] = [];
    await driveSqsHandler(
      env.sqs,
      env.stack.analysisQueueUrl,
      env.stack.analysisQueueArn,
      async (e, c) => {
        const o = await analyzeBatch(e, c);
        out.push(...o.clusters);
        return { batchItemFailures: o.batchItemFailures };
      },
      { batchSize: 1, functionName: 'koperator-audit-analyze' },
    );
    return out;
  };

  it('runs once for the pile, publishes each alert once and drains the queue', async () => {
    // Recent logs, so the evidence is live (not left to the schedule as a backfill).
    const sim = simulateCluster({
      seed: 29,
      start: new Date(Date.now() - 8 * 60_000).toISOString(),
      noiseRatio: 0.3,
      scenarios: ['scaleops-loop'],
    });
    const t0 = Date.parse(sim.audit[0]!.stageTimestamp);
    const byMinute = new Map<number, AuditEvent[]>();
    for (const e of sim.audit) {
      const k = Math.floor((Date.parse(e.stageTimestamp) - t0) / 10_000);
      byMinute.set(k, [...(byMinute.get(k) ?? []), e]);
    }
    const objects = [...byMinute.entries()].sort(([a], [b]) => a - b);
    expect(objects.length).toBeGreaterThanOrEqual(4);

    // Objects arrive until one asks for an analysis, which runs.
    let k = 0;
    let first: ClusterSummary[] = [];
    while (first.length === 0 && k < objects.length) {
      await ingestObjects(objects.slice(k, ++k));
      first = await analyse();
    }
    expect(first).toHaveLength(1);
    const before = (await receivedAlerts(env)).alerts;

    // The rest arrive while that run is going, each holding evidence and asking.
    await ingestObjects(objects.slice(k));
    const pile = await analyse();
    const ran = pile.filter((s) => !s.merged);
    const merged = pile.filter((s) => s.merged);
    expect(pile.length).toBeGreaterThanOrEqual(2);
    expect(ran).toHaveLength(1);
    expect(merged).toHaveLength(pile.length - 1);
    expect(pile.every((s) => s.error === undefined && !s.conflict && !s.stale)).toBe(true);

    const alerts = [...before, ...(await receivedAlerts(env)).alerts];
    const ids = alerts.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(alerts.filter((a) => a.event === 'loop-started')).toHaveLength(sim.truth.loops.length);
    // Drained: nothing left for a later run, and a schedule's request still runs.
    expect(await analyse()).toEqual([]);
  });
});
