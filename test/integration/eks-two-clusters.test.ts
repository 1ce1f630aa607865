// Two EKS clusters onboarded by the eksClusters param, end to end on fauxqs (real S3, SQS
// and SNS over the wire): each cluster's audit events pass the subscription filter the
// stack's custom resource puts on its log group (evaluated here as CloudWatch would), travel
// as CloudWatch Logs payloads through the fleet's ONE Firehose stream (gzip'd payloads of
// both clusters interleaved in the same objects, a control message first) into the objects
// it writes under logs/_eks/; the ingest must take each record's cluster from its payload's
// log group, and the analysis find each cluster's loops under that cluster's name and
// nowhere else. Firehose and CloudWatch Logs are not emulated: their part is what the
// generated template says (prefix, pattern, log groups), applied by the test.
// One cluster's operator logs come the same way (eksOperatorLogs: Container Insights'
// application group, its Fluent Bit records filtered to the operator's container), the
// other's from a folder, as before: both must reach their cluster's analysis.
import { eksInput } from '../deploy/eks-input';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import { eksShippingTemplate } from '../../lib/deploy/eks-shipping';
import {
  auditFilterPattern,
  operatorLogFilterPattern,
  patternMatches,
  renderPattern,
} from '../../lib/ingest/subscription-filter';
import { containerInsightsGroup, parseEksOperatorLogs } from '../../lib/deploy/eks-operator-logs';
import { decodeFacts } from '../../lib/facts/codec';
import { gunzipSync } from 'zlib';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { projectRecord } from '../../lib/facts/project';
import { readOne, memoryObject } from '../ingest/fixtures';
import { simulateCluster, type ScenarioName, type SimulatedLogs } from '../../sim';
import { cloudWatchPayloads, encodeOperator, fluentBitOperatorLines } from '../../sim/encode';
import { gzipSync } from 'zlib';
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
  const operatorPattern = operatorLogFilterPattern();
  const clusters = parseEksClusters(CLUSTERS.map(([c]) => c).join(','));
  /** The cluster whose operator logs come through Container Insights and the stream. */
  const VIA_STREAM = CLUSTERS[1]![0];
  const operatorShipped = { kept: 0, dropped: 0 };
  const template = eksShippingTemplate(
    eksInput(CLUSTERS.map(([c]) => c).join(','), {
      stage: 'test',
      bucket: BUCKET,
      filterPattern: renderPattern(pattern),
      operatorLogGroups: parseEksOperatorLogs('containerinsights', clusters),
      operatorFilterPattern: renderPattern(operatorPattern),
      alarmActions: [],
      logGroupRetentionDays: 30,
    }),
  );
  /** What the template gives the fleet: the log groups its custom resource subscribes, the stream's prefix and name. */
  const subscriptions = template.Resources.EksSubscriptions!.Properties as {
    LogGroupNames: string[];
    FilterPattern: string;
    OperatorLogGroupNames: string[];
    OperatorFilterPattern: string;
  };
  const stream = template.Resources.EksDeliveryStream!.Properties as {
    DeliveryStreamName: string;
    ExtendedS3DestinationConfiguration: { Prefix: string };
  };
  const logGroupOf = (name: string): string => {
    const g = subscriptions.LogGroupNames.find((x) => x === `/aws/eks/${name}/cluster`);
    if (!g) throw new Error(`${name} is not subscribed`);
    return g;
  };
  const fleetKeys: string[] = [];

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, BUCKET);
    handlerEnv(fx, env.stack, { LOOKBACK: '12h' });
    ingest = (await import('../../functions/ingest')).handler;
    let newest = 0;
    // Each cluster's payloads, in two buffer flushes; the stream interleaves the clusters' payloads in each object.
    const flushes: Buffer[][] = [[], []];
    for (const [name, scenario, seed] of CLUSTERS) {
      const sim = simulateCluster({
        seed,
        start: '2026-11-02T06:00:00Z',
        noiseRatio: 0.5,
        scenarios: [scenario],
      });
      sims.set(name, sim);
      newest = Math.max(newest, ...sim.audit.map((e) => Date.parse(e.stageTimestamp)));
      const logGroup = logGroupOf(name);
      // CloudWatch Logs applies the filter to each event's JSON, under the strict reading of
      // `!=` on a missing field (what AWS leaves undocumented must not be relied upon).
      const kept = sim.audit.filter((e) => patternMatches(pattern, e, 'absent-fails'));
      const half = Math.floor(kept.length / 2);
      for (const [i, part] of [kept.slice(0, half), kept.slice(half)].entries())
        for (const p of cloudWatchPayloads(part, {
          logGroup,
          controlMessage: i === 0 && name === CLUSTERS[0]![0],
          perPayload: 40,
        }))
          flushes[i]!.push(gzipSync(JSON.stringify(p)));
      shipped.set(name, { kept: kept.length, dropped: sim.audit.length - kept.length, keys: [] });
      if (name === VIA_STREAM) {
        // Container Insights' Fluent Bit: one record per line, the operator's among another
        // app's; the subscription filter keeps the operator container's.
        const group = subscriptions.OperatorLogGroupNames.find((g) => g === containerInsightsGroup(name))!;
        const records = fluentBitOperatorLines(sim.operator)
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const other = records.slice(0, 20).map((r) => ({
          ...r,
          log: 'GET /healthz 200\n',
          kubernetes: { ...(r.kubernetes as object), container_name: 'web', container_image: 'nginx:1.27' },
        }));
        const all: Record<string, unknown>[] = [...records, ...other];
        const keptLines = all.filter((r) => patternMatches(operatorPattern, r, 'absent-fails'));
        operatorShipped.kept = keptLines.length;
        operatorShipped.dropped = all.length - keptLines.length;
        // Each CloudWatch event's message is the Fluent Bit record's JSON.
        const asEvents = keptLines.map((r) => JSON.stringify(r));
        for (let i = 0; i < asEvents.length; i += 40)
          flushes[1]!.push(
            gzipSync(
              JSON.stringify({
                messageType: 'DATA_MESSAGE',
                owner: '111122223333',
                logGroup: group,
                logStream: 'fluent-bit-kafka-operator',
                subscriptionFilters: ['koperator-audit-test-eks'],
                logEvents: asEvents.slice(i, i + 40).map((message, j) => ({
                  id: String(i + j),
                  timestamp: Date.parse(String(keptLines[i + j]!.date)),
                  message,
                })),
              }),
            ),
          );
        continue;
      }
      // koperator's own logs by Fluent Bit to a folder (infra/log-shipping.md), under the same cluster.
      await uploadObject(
        env.s3,
        BUCKET,
        `logs/${name}/operator/fluent-bit/part-1`,
        encodeOperator('fluent-bit-operator', sim.operator, { gzip: true }),
      );
    }
    // As Firehose writes them: <prefix>YYYY/MM/DD/HH/<stream>-<version>-<time>-<id>, payloads of both clusters in turn.
    for (const [i, payloads] of flushes.entries()) {
      const a = payloads.filter((_, j) => j % 2 === 0);
      const b = payloads.filter((_, j) => j % 2 === 1);
      const mixed = a.flatMap((p, j) => (b[j] ? [p, b[j]!] : [p])).concat(b.slice(a.length));
      const key = `${stream.ExtendedS3DestinationConfiguration.Prefix}2026/11/02/06/${stream.DeliveryStreamName}-1-2026-11-02-06-0${i}-00-0000000${i}`;
      fleetKeys.push(key);
      await uploadObject(env.s3, BUCKET, key, Buffer.concat(mixed));
    }
    runTime = new Date(newest + 1000);
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('writes every cluster through the one stream under logs/_eks/, the filter dropping noise', () => {
    for (const key of fleetKeys)
      expect(key.startsWith('logs/_eks/2026/11/02/06/koperator-audit-test-eks-')).toBe(true);
    expect(subscriptions.FilterPattern).toBe(renderPattern(pattern));
    for (const [name] of CLUSTERS) {
      const s = shipped.get(name)!;
      expect(s.kept).toBeGreaterThan(0);
      expect(s.dropped).toBeGreaterThan(0);
      process.stdout.write(
        `eks ${name}: subscription filter kept ${s.kept}, dropped ${s.dropped} audit events\n`,
      );
    }
  });

  it('ingests both clusters into their own facts and finds and alerts each one’s loops under its name only', async () => {
    expect(await notifyObjects(env, 'logs/')).toBe(fleetKeys.length + CLUSTERS.length - 1);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    const facts = await env.s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'facts/' }));
    const factClusters = new Set((facts.Contents ?? []).map((o) => /cluster=([^/]+)/.exec(o.Key!)?.[1]));
    expect([...factClusters].sort()).toEqual(CLUSTERS.map(([c]) => c).sort());

    // The operator's lines that came through Container Insights and the stream are the facts the
    // same lines give from a folder, under their cluster; the other app's lines were filtered out.
    expect(operatorShipped.kept).toBeGreaterThan(0);
    expect(operatorShipped.dropped).toBe(20);
    const fromFolder = await readOne(
      memoryObject('folder', encodeOperator('fluent-bit-operator', sims.get(VIA_STREAM)!.operator)),
    );
    const want = fromFolder.records
      .map(projectRecord)
      .filter((f) => f?.type === 'operator')
      .map((f) => JSON.stringify({ ...f, src: undefined }))
      .sort();
    const got: string[] = [];
    for (const o of facts.Contents ?? []) {
      if (!o.Key!.includes(`cluster=${VIA_STREAM}/`)) continue;
      const body = await env.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key! }));
      const text = gunzipSync(Buffer.from(await body.Body!.transformToByteArray())).toString('utf8');
      for (const f of decodeFacts(text).facts)
        if (f.type === 'operator') got.push(JSON.stringify({ ...f, src: undefined }));
    }
    expect(want.length).toBeGreaterThan(0);
    expect(got.sort()).toEqual(want);

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
    // Each loop alert names the raw records it rests on: objects the stream wrote, request
    // ids of its newest recreation's evidence.
    const loopAlerts = alerts.filter((a) => a.findingType === 'loop');
    expect(loopAlerts.length).toBeGreaterThan(0);
    for (const a of loopAlerts) {
      if (a.findingType !== 'loop') continue;
      expect(a.sources?.length).toBeGreaterThan(0);
      for (const src of a.sources ?? []) {
        expect(fleetKeys.map((k) => `s3://${BUCKET}/${k}`)).toContain(src.object);
        expect(a.latestRecreation?.evidence).toContain(src.auditID);
      }
    }
  }, 120_000);
});
