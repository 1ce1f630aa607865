// Two EKS clusters onboarded by the eksClusters param, end to end on fauxqs (real S3, SQS
// and SNS over the wire): each cluster's audit events pass the subscription filter the
// stack puts on its log group (evaluated here as CloudWatch would), travel as CloudWatch
// Logs payloads through that cluster's Firehose stream (gzip'd payloads, concatenated, a
// control message first) into the objects the stream writes under its own prefix; the
// unchanged ingest and analysis must find each cluster's loops under that cluster's name
// and nowhere else. Firehose and CloudWatch Logs are not emulated: their part is what the
// generated template says (prefix, pattern), applied by the test.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import { eksShippingTemplate } from '../../lib/deploy/eks-shipping';
import { auditFilterPattern, patternMatches, renderPattern } from '../../lib/ingest/subscription-filter';
import { simulateCluster, type ScenarioName, type SimulatedLogs } from '../../sim';
import { encodeOperator, firehoseObject } from '../../sim/encode';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import {
  deploy,
  expectedLoopStarts,
  handlerEnv,
  notifyObjects,
  receivedAlerts,
  reportedLoopStarts,
  scheduleAnalysis,
  type Env,
} from './support';

const BUCKET = 'eks-onboarded';
const CLUSTERS: [string, ScenarioName, number][] = [
  ['prod-eu', 'scaleops-loop', 21],
  ['prod_us', 'affinity-loop', 22],
];

describe('two EKS clusters onboarded by one parameter (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  const sims = new Map<string, SimulatedLogs>();
  const shipped = new Map<string, { kept: number; dropped: number; keys: string[] }>();
  let runTime: Date;
  const saved = { ...process.env };
  const pattern = auditFilterPattern();
  const clusters = parseEksClusters(CLUSTERS.map(([c]) => c).join(','));
  const template = eksShippingTemplate({
    service: 'koperator-audit',
    stage: 'test',
    clusters,
    bucket: BUCKET,
    logsPrefix: 'logs/',
    bufferIntervalSeconds: 60,
    bufferSizeMiB: 5,
    filterPattern: renderPattern(pattern),
    silenceHours: 6,
    alarmActions: [],
    kmsCondition: 'UseKms',
    kmsKeyArn: '',
    logGroupsFunction: 'EksLogGroupsLambdaFunction',
    errorLogRetentionDays: 30,
  });
  /** What the template gives a cluster: its log group's subscription and its stream's prefix and name. */
  const shipping = (name: string) => {
    const c = clusters.find((x) => x.name === name)!;
    const stream = template.Resources[`${c.logicalId}DeliveryStream`]!.Properties as {
      DeliveryStreamName: string;
      ExtendedS3DestinationConfiguration: { Prefix: string };
    };
    const filter = template.Resources[`${c.logicalId}SubscriptionFilter`]!.Properties as {
      LogGroupName: string;
    };
    return {
      logGroup: filter.LogGroupName,
      prefix: stream.ExtendedS3DestinationConfiguration.Prefix,
      stream: stream.DeliveryStreamName,
    };
  };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, BUCKET);
    handlerEnv(fx, env.stack, { LOOKBACK: '12h' });
    ingest = (await import('../../functions/ingest')).handler;
    let newest = 0;
    for (const [name, scenario, seed] of CLUSTERS) {
      const sim = simulateCluster({
        seed,
        start: '2026-11-02T06:00:00Z',
        noiseRatio: 0.5,
        scenarios: [scenario],
      });
      sims.set(name, sim);
      newest = Math.max(newest, ...sim.audit.map((e) => Date.parse(e.stageTimestamp)));
      const { logGroup, prefix, stream } = shipping(name);
      // CloudWatch Logs applies the filter to each event's JSON, under the strict reading of
      // `!=` on a missing field (what AWS leaves undocumented must not be relied upon).
      const kept = sim.audit.filter((e) => patternMatches(pattern, e, 'absent-fails'));
      // Two buffer flushes, as Firehose writes them: <prefix>YYYY/MM/DD/HH/<stream>-<version>-<time>-<id>.
      const half = Math.floor(kept.length / 2);
      const keys: string[] = [];
      for (const [i, part] of [kept.slice(0, half), kept.slice(half)].entries()) {
        const key = `${prefix}2026/11/02/06/${stream}-1-2026-11-02-06-0${i}-00-0000000${i}`;
        keys.push(key);
        await uploadObject(
          env.s3,
          BUCKET,
          key,
          firehoseObject(part, { logGroup, controlMessage: i === 0, perPayload: 40 }),
        );
      }
      shipped.set(name, { kept: kept.length, dropped: sim.audit.length - kept.length, keys });
      // koperator's own logs still come by Fluent Bit (infra/log-shipping.md), under the same cluster.
      await uploadObject(
        env.s3,
        BUCKET,
        `logs/${name}/operator/fluent-bit/part-1`,
        encodeOperator('fluent-bit-operator', sim.operator, { gzip: true }),
      );
    }
    runTime = new Date(newest + 1000);
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it("writes each cluster's stream under that cluster's logs prefix, the filter dropping noise", () => {
    for (const [name] of CLUSTERS) {
      const s = shipped.get(name)!;
      for (const key of s.keys) expect(key.startsWith(`logs/${name}/audit/firehose/`)).toBe(true);
      expect(shipping(name).logGroup).toBe(`/aws/eks/${name}/cluster`);
      expect(s.kept).toBeGreaterThan(0);
      expect(s.dropped).toBeGreaterThan(0);
      process.stdout.write(
        `eks ${name}: subscription filter kept ${s.kept}, dropped ${s.dropped} audit events\n`,
      );
    }
  });

  it('ingests both clusters into their own facts and finds and alerts each one’s loops under its name only', async () => {
    expect(await notifyObjects(env, 'logs/')).toBe(2 * CLUSTERS.length + CLUSTERS.length);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    const facts = await env.s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'facts/' }));
    const factClusters = new Set((facts.Contents ?? []).map((o) => /cluster=([^/]+)/.exec(o.Key!)?.[1]));
    expect([...factClusters].sort()).toEqual(CLUSTERS.map(([c]) => c).sort());

    const run = await scheduleAnalysis(env, runTime);
    expect(run.clusters.map((c) => c.cluster).sort()).toEqual(CLUSTERS.map(([c]) => c).sort());
    expect(run.clusters.every((c) => c.error === undefined)).toBe(true);
    const { alerts } = await receivedAlerts(env);
    for (const [name] of CLUSTERS) {
      const truth = sims.get(name)!.truth.loops;
      expect(truth.length).toBeGreaterThan(0);
      expect(reportedLoopStarts(alerts.filter((a) => a.cluster === name))).toEqual(expectedLoopStarts(truth));
    }
    expect(alerts.every((a) => CLUSTERS.some(([c]) => c === a.cluster))).toBe(true);
  }, 120_000);
});
