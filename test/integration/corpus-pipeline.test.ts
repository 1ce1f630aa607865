// End to end over the shared scenario corpus (when present): its files land in the logs
// bucket, S3-notification messages go through the ingest queue to the ingest handler,
// a scheduled event runs the dispatch and, per cluster, the analyze handler, and the alerts come out of an SQS queue
// subscribed to the topic. The loop messages must match the corpus' expected.json; a
// second ingest of the same objects and a second analysis must publish nothing.
import { promises as fs } from 'fs';
import * as path from 'path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { describeWithCorpus, SCENARIOS, corpusLogFiles } from '../support/shared-corpus';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import type { FindingsDocument } from '../../lib/model/findings';
import type { Classification } from '../../lib/model/findings';
import {
  deploy,
  expectedLoopStarts,
  expectedRecreations,
  handlerEnv,
  notifyObjects,
  receivedAlerts,
  scheduleAnalysis,
  watchedBefore,
  reportedLoopStarts,
  reportedRecreations,
  unmatchedRecreations,
  type Env,
} from './support';

const CORPUS = SCENARIOS;
const CLUSTER = 'eks-scenarios';
// More classes than the default, so single-recreation alerts are exercised on this corpus
// (all its external-mutation-reverts belong to loops, which announce them instead).
const CLASSES: Classification[] = [
  'external-mutation-revert',
  'unknown',
  'external-deletion',
  'tainted-restart',
];

describeWithCorpus(CORPUS, 'deployed pipeline over the scenario corpus (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let truth: FindingsDocument;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'corpus-logs');
    handlerEnv(fx, env.stack, { ALERT_RECREATION_CLASSES: CLASSES.join(','), LOOKBACK: '6h' });
    ingest = (await import('../../functions/ingest')).handler;
    truth = JSON.parse(await fs.readFile(path.join(CORPUS, 'expected.json'), 'utf8')) as FindingsDocument;
    for (const f of await corpusLogFiles(CORPUS)) {
      await uploadObject(
        env.s3,
        env.stack.bucket,
        `logs/${CLUSTER}/${path.relative(CORPUS, f).split(path.sep).join('/')}`,
        await fs.readFile(f),
      );
    }
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  async function factsKeys(): Promise<string[]> {
    const res = await env.s3.send(new ListObjectsV2Command({ Bucket: env.stack.bucket, Prefix: 'facts/' }));
    return (res.Contents ?? []).map((o) => o.Key!).sort();
  }

  const runTime = new Date('2026-11-02T11:35:00Z');
  let firstFacts: string[] = [];

  it('ingests every object from real-shaped SQS/S3 events, with no failed message', async () => {
    const sent = await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest, {
      batchSize: 10,
    });
    expect(drive.events.flatMap((e) => e.Records)).toHaveLength(sent);
    expect(drive.events[0]!.Records[0]).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: env.stack.ingestQueueArn,
    });
    expect(drive.failures.flat()).toEqual([]);
    firstFacts = await factsKeys();
    expect(firstFacts.length).toBeGreaterThan(0);
    expect(
      firstFacts.every((k) =>
        /^facts\/cluster=eks-scenarios\/hour=2026-11-02-(09|10|11)\/[0-9a-f]{40}\.jsonl\.gz$/.test(k),
      ),
    ).toBe(true);
  });

  it('publishes the corpus loops and the chosen recreations once, matching expected.json', async () => {
    // The deployment watched the cluster before these logs arrived: loops already over are news.
    await watchedBefore(env, CLUSTER, new Date('2026-11-01T00:00:00Z'));
    await scheduleAnalysis(env, runTime);
    const { alerts, events } = await receivedAlerts(env);
    expect(events.every((e) => e.Records[0]!.EventSource === 'aws:sns')).toBe(true);
    expect(
      alerts.every(
        (a) =>
          a.cluster === CLUSTER &&
          a.report?.uri.startsWith('s3://corpus-logs/reports/cluster=eks-scenarios/'),
      ),
    ).toBe(true);
    expect(reportedLoopStarts(alerts)).toEqual(expectedLoopStarts(truth.loops));
    // Every truth loop is over by the end of the data: each also gets its loop-ended.
    expect(alerts.filter((a) => a.event === 'loop-ended')).toHaveLength(
      truth.loops.filter((l) => !l.active).length,
    );
    expect(
      unmatchedRecreations(
        reportedRecreations(alerts),
        expectedRecreations(truth.recreations, truth.loops, CLASSES),
      ),
    ).toEqual({ missing: [], extra: [] });
    // Message attributes carry what filter policies match on.
    for (const e of events) {
      const attrs = e.Records[0]!.Sns.MessageAttributes;
      expect(Object.keys(attrs).sort()).toEqual([
        'classification',
        'cluster',
        'event',
        'kafkaCluster',
        'namespace',
        'severity',
      ]);
      expect((e.Records[0]!.Sns.Subject ?? '').length).toBeLessThan(100);
    }
  });

  it('publishes nothing new when the same objects are delivered again and the analysis runs again', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    // Same source key and ETag: the same facts objects, not a second copy.
    expect(await factsKeys()).toEqual(firstFacts);
    await scheduleAnalysis(env, runTime);
    await scheduleAnalysis(env, new Date(runTime.getTime() + 5 * 60_000));
    expect((await receivedAlerts(env)).alerts).toEqual([]);
  });
});
