// The schedule fanned out over a fleet, on fauxqs (real S3/SQS/SNS over the wire): the
// dispatch function lists the clusters under facts/ and queues one request each on the
// FIFO analysis queue; the analyze function takes them one message per invocation. One
// cluster's facts are damaged: its request fails, is retried once and dead-lettered,
// while every other cluster is analysed and alerted as if it were alone. FIFO groups keep
// one run per cluster in flight, and a re-sent dispatch adds nothing.
import type { LoopAlertMessage } from '../../lib/notify/message';
import { PutObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { DeleteMessageCommand } from '@aws-sdk/client-sqs';
import { gzipSync } from 'zlib';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { drainQueue, receiveBatch } from '../../lib/local-aws/local-stack';
import { analysisMaxReceiveCount, readDeploymentSources } from '../../lib/local-aws/deployed-settings';
import { lambdaContext, scheduledEvent } from '../../lib/local-aws/local-lambda';
import { writeFacts } from '../../lib/aws/facts-store';
import { parseAnalysisRequest } from '../../lib/aws/analysis-queue';
import { defaultLayout } from '../../lib/aws/bucket-layout';
import { simulateCluster, type ScenarioName } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { deploy, handlerEnv, receivedAlerts, scheduleAnalysis, type Env } from './support';

const BUCKET = 'fleet-logs';
/** Good clusters, each with its own simulated loop; `a-broken` sorts first, so it is tried first. */
const FLEET: [string, ScenarioName, number][] = [
  ['eks-east', 'scaleops-loop', 11],
  ['eks-west', 'affinity-loop', 12],
  ['eks-ci', 'scaleops-loop', 13],
];
const BROKEN = 'a-broken';

describe('fleet fan-out: one analysis per cluster (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let now: Date;
  const truthLoops = new Map<string, string[]>();
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, BUCKET);
    // The broken cluster's errors are expected: keep them off the test output.
    handlerEnv(fx, env.stack, { LOOKBACK: '12h', POWERTOOLS_LOG_LEVEL: 'SILENT' });
    let newest = 0;
    for (const [cluster, scenario, seed] of FLEET) {
      const sim = simulateCluster({
        seed,
        start: '2026-11-02T06:00:00Z',
        noiseRatio: 0.2,
        scenarios: [scenario],
      });
      truthLoops.set(
        cluster,
        sim.truth.loops.map((l) => `${l.namespace}/${l.kafkaCluster}/${l.brokerId}`).sort(),
      );
      newest = Math.max(newest, Date.parse(sim.audit[sim.audit.length - 1]!.stageTimestamp));
      await writeFacts(
        env.s3,
        BUCKET,
        defaultLayout(),
        { cluster, bucket: BUCKET, key: `logs/${cluster}/a.log`, etag: 'e1' },
        simulatedFacts(sim),
      );
    }
    await env.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: `facts/cluster=${BROKEN}/hour=2026-11-02-06/${'0'.repeat(40)}.jsonl.gz`,
        Body: gzipSync('not facts'),
      }),
    );
    now = new Date(newest + 1000);
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('queues one request per cluster, grouped by cluster, and a repeated dispatch adds none', async () => {
    const { handler: dispatch } = await import('../../functions/dispatch-analysis');
    const t = new Date('2026-11-02T07:00:00Z');
    const res = await dispatch(scheduledEvent(t), lambdaContext('dispatchAnalysis'));
    expect(res.clusters).toEqual([BROKEN, 'eks-ci', 'eks-east', 'eks-west']);
    // EventBridge retries an invocation that failed: the same schedule time is deduplicated.
    await dispatch(scheduledEvent(t), lambdaContext('dispatchAnalysis'));
    // A later schedule while the first is still queued: FIFO hands out one per cluster at a time.
    await dispatch(scheduledEvent(new Date('2026-11-02T07:05:00Z')), lambdaContext('dispatchAnalysis'));
    const inFlight = await receiveBatch(env.sqs, env.stack.analysisQueueUrl, 10);
    const requests = inFlight.map((m) => parseAnalysisRequest(m.Body ?? ''));
    expect(requests.map((r) => r.cluster).sort()).toEqual([BROKEN, 'eks-ci', 'eks-east', 'eks-west']);
    expect(new Set(requests.map((r) => r.time))).toEqual(new Set(['2026-11-02T07:00:00.000Z']));
    expect(inFlight.map((m) => m.Attributes?.MessageGroupId).sort()).toEqual([
      BROKEN,
      'eks-ci',
      'eks-east',
      'eks-west',
    ]);
    // Once those are done (deleted, as the event source mapping does), the 07:05 ones follow.
    for (const m of inFlight)
      await env.sqs.send(
        new DeleteMessageCommand({ QueueUrl: env.stack.analysisQueueUrl, ReceiptHandle: m.ReceiptHandle }),
      );
    const rest = (await drainQueue(env.sqs, env.stack.analysisQueueUrl)).map((m) =>
      parseAnalysisRequest(m.Body ?? ''),
    );
    expect(rest.map((r) => r.cluster).sort()).toEqual([BROKEN, 'eks-ci', 'eks-east', 'eks-west']);
    expect(new Set(rest.map((r) => r.time))).toEqual(new Set(['2026-11-02T07:05:00.000Z']));
  });

  it("analyses and alerts every good cluster while one cluster's analysis fails and is dead-lettered", async () => {
    const started = Date.now();
    const run = await scheduleAnalysis(env, now);
    const wall = Date.now() - started;
    const byCluster = new Map<string, typeof run.clusters>();
    for (const c of run.clusters) byCluster.set(c.cluster, [...(byCluster.get(c.cluster) ?? []), c]);
    // The broken cluster: tried as often as the deployment's analysis queue receives a
    // message (infra/fleet.yml), then dead-lettered.
    const receives = analysisMaxReceiveCount(readDeploymentSources());
    expect(receives).toBeGreaterThan(1);
    expect(byCluster.get(BROKEN)!.map((c) => c.error?.split(':')[0])).toEqual(
      Array(receives).fill('FactsFormatError'),
    );
    const dead = await drainQueue(env.sqs, env.stack.analysisDlqUrl);
    expect(dead.map((m) => parseAnalysisRequest(m.Body ?? '').cluster)).toEqual([BROKEN]);
    // Every good cluster ran once, found its own loops, and alerted them under its own name.
    const { alerts } = await receivedAlerts(env);
    for (const [cluster] of FLEET) {
      const runs = byCluster.get(cluster)!;
      expect(runs).toHaveLength(1);
      expect(runs[0]!.error).toBeUndefined();
      expect(runs[0]!.conflict).toBe(false);
      expect(runs[0]!.loops).toBe(truthLoops.get(cluster)!.length);
      const started = alerts
        .filter((a): a is LoopAlertMessage => a.cluster === cluster && a.event === 'loop-started')
        .map((a) => `${a.finding.namespace}/${a.finding.kafkaCluster}/${a.finding.brokerId}`)
        .sort();
      expect(started).toEqual(truthLoops.get(cluster));
      const reports = await env.s3.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `reports/cluster=${cluster}/` }),
      );
      expect(reports.KeyCount).toBe(2); // the JSON report and its HTML page
    }
    expect(alerts.some((a) => a.cluster === BROKEN)).toBe(false);
    expect(run.failures).toBe(receives);
    // Measured, for docs/deploying.md "A fleet": per-cluster analysis time on the emulator.
    process.stdout.write(
      `fleet fan-out: ${run.invocations} analyze invocations for ${FLEET.length + 1} clusters in ${wall} ms\n`,
    );
    // The next schedule: the good clusters have nothing new, the broken one fails again, alone.
    const next = await scheduleAnalysis(env, new Date(now.getTime() + 5 * 60_000));
    expect(
      next.clusters.filter((c) => c.cluster !== BROKEN).every((c) => c.published === 0 && !c.error),
    ).toBe(true);
    expect((await receivedAlerts(env)).alerts).toEqual([]);
  });
});
