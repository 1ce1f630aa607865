// End to end over the project's simulator: one simulated cluster's audit events and
// koperator lines, encoded the way EKS and Fluent Bit ship them (sim/encode.ts),
// overlapping on purpose, land in the bucket; the ingest and analyze handlers run on
// real-shaped events; the alerts received from the topic's SQS subscription must be the
// truth's loops (the last one still active) and its chosen recreations. A second
// delivery and a second analysis publish nothing.
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { DEFAULT_SCENARIO_ORDER, simulateCluster, type ScenarioName, type SimulatedLogs } from '../../sim';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import type { Classification } from '../../lib/model/findings';
import { Readable } from 'stream';
import { collectFacts } from '../../lib/pipeline/analyze-inputs';
import { createIngestStats } from '../../lib/ingest/stats';
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { diffAlerts, emptyAlertState } from '../../lib/alerts/diff';
import { defaultAlertOptions } from '../../lib/alerts/options';
import type { LoopAlertMessage } from '../../lib/notify/message';
import {
  deploy,
  expectedLoopStarts,
  expectedRecreations,
  handlerEnv,
  loopKey,
  notifyObjects,
  receivedAlerts,
  scheduleAnalysis,
  watchedBefore,
  reportedLoopStarts,
  reportedRecreations,
  unmatchedRecreations,
  type Env,
} from './support';

const CLUSTER = 'eks-sim';
// Every scenario, including the Metadata-level namespace (evicted before any body was logged).
const SCENARIOS: ScenarioName[] = [...DEFAULT_SCENARIO_ORDER];
const CLASSES: Classification[] = [
  'external-mutation-revert',
  'unknown',
  'external-deletion',
  'container-terminated',
];

describe('deployed pipeline over simulated logs (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let sim: SimulatedLogs;
  let runTime: Date;
  let files: [string, Buffer][] = [];
  let firstIds: string[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'sim-logs');
    handlerEnv(fx, env.stack, { ALERT_RECREATION_CLASSES: CLASSES.join(','), LOOKBACK: '12h' });
    ingest = (await import('../../functions/ingest')).handler;
    sim = simulateCluster({
      seed: 20261102,
      start: '2026-11-02T06:00:00Z',
      noiseRatio: 0.5,
      scenarios: SCENARIOS,
    });
    const newest = sim.audit.reduce((m, e) => (e.stageTimestamp > m ? e.stageTimestamp : m), '');
    runTime = new Date(Date.parse(newest) + 1000);
    // Audit events split between an EKS CloudWatch export and a Firehose stream that
    // overlap by a fifth, as two delivery paths of one cluster do; operator lines as a
    // plain zap file and through Fluent Bit.
    const a = sim.audit;
    const cut = Math.floor(a.length * 0.6);
    const overlap = Math.floor(a.length * 0.2);
    const prefix = `logs/${CLUSTER}`;
    const o = sim.operator;
    files = [
      [
        `${prefix}/exportedlogs/stream-1/000000.gz`,
        encodeAudit('eks-cloudwatch-export', a.slice(0, cut), { gzip: true }),
      ],
      [`${prefix}/firehose/2026/11/02/audit-1.gz`, encodeAudit('eks-firehose-cwl', a.slice(cut - overlap))],
      [`${prefix}/operator/manager.log`, encodeOperator('zap-json', o.slice(0, Math.floor(o.length / 2)))],
      [
        `${prefix}/operator/fluent-bit/part-1`,
        encodeOperator('fluent-bit-operator', o.slice(Math.floor(o.length / 2)), { gzip: true }),
      ],
    ];
    for (const [key, body] of files) await uploadObject(env.s3, env.stack.bucket, key, body);
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('simulates at least one loop, active at the end', () => {
    expect(sim.truth.loops.length).toBeGreaterThan(0);
    expect(sim.truth.loops.some((l) => l.active)).toBe(true);
  });

  it('publishes the truth loops and chosen recreations once, from real-shaped events', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    // The deployment watched the cluster before these logs arrived: loops already over are news.
    await watchedBefore(env, CLUSTER, new Date(runTime.getTime() - 24 * 3600_000));
    await scheduleAnalysis(env, runTime);
    const { alerts } = await receivedAlerts(env);
    firstIds = alerts.map((a) => a.id).sort();
    expect(reportedLoopStarts(alerts)).toEqual(expectedLoopStarts(sim.truth.loops));
    const started = alerts.filter(
      (a): a is LoopAlertMessage => a.findingType === 'loop' && a.event === 'loop-started',
    );
    for (const l of sim.truth.loops) {
      const m = started.find((s) => loopKey(s.finding) === loopKey(l))!;
      expect(m.finding.active).toBe(l.active);
      expect(m.severity).toBe(l.active ? 'critical' : 'warning');
    }
    // Only loops already over are announced as ended.
    expect(
      alerts
        .filter((a): a is LoopAlertMessage => a.event === 'loop-ended')
        .map((a) => loopKey(a.finding))
        .sort(),
    ).toEqual(
      sim.truth.loops
        .filter((l) => !l.active)
        .map(loopKey)
        .sort(),
    );
    expect(
      unmatchedRecreations(
        reportedRecreations(alerts),
        expectedRecreations(sim.truth.recreations, sim.truth.loops, CLASSES),
      ),
    ).toEqual({ missing: [], extra: [] });
  });

  it('announces exactly what the local, in-memory pipeline finds over the same files', async () => {
    // Same bytes, read by the CLI's path (one ingest over all objects, no S3, no facts
    // objects), analysed over the same window and diffed from the same alert state.
    const objects = (async function* () {
      for (const [key, body] of files)
        yield { name: key, size: body.length, open: async () => Readable.from([body]) };
    })();
    const facts = await collectFacts(objects, createIngestStats());
    const windowStart = new Date(runTime.getTime() - 12 * 3600_000);
    const result = analyzeFacts(facts, {
      ...defaultAnalysisOptions(),
      since: windowStart.toISOString(),
      until: runTime.toISOString(),
    });
    // The state the deployment started from: watched, nothing announced yet.
    const watched = {
      ...emptyAlertState(CLUSTER),
      updatedAt: new Date(runTime.getTime() - 24 * 3600_000).toISOString(),
    };
    const { events } = diffAlerts(watched, result, {
      cluster: CLUSTER,
      now: runTime,
      windowStart,
      options: { ...defaultAlertOptions(), recreationClasses: CLASSES },
    });
    expect(firstIds.length).toBeGreaterThan(0);
    expect(events.map((e) => e.id).sort()).toEqual(firstIds);
  });

  it('publishes nothing when the objects are delivered again and the analysis runs again', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    await scheduleAnalysis(env, runTime);
    expect((await receivedAlerts(env)).alerts).toEqual([]);
  });
});
