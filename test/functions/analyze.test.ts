// The analyze handler's own duties on fauxqs, with no findings needed: it publishes what
// a crashed run left pending (once), writes a report per run, leaves an unchanged state
// unwritten, takes "now" from the scheduled event, and emits the ActiveLoops metric the
// alarm watches.
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { gzipSync } from 'zlib';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { createLocalStack, drainQueue, type LocalStack } from '../../lib/local-aws/local-stack';
import { analysisRequestEvent, lambdaContext } from '../../lib/local-aws/local-lambda';
import { encodeAnalysisRequest } from '../../lib/aws/analysis-queue';
import { emptyAlertState } from '../../lib/alerts/diff';
import { encodeAlertState } from '../../lib/alerts/state';
import type { AnalyzeOutcome } from '../../functions/analyze';
import { loopEvent } from '../notify/fixtures';
import { captureProcessOutput } from '../support/process-output';

const BUCKET = 'analyze-test';

describe('analyze handler', () => {
  let fx: Fauxqs;
  let s3: S3Client;
  let sqs: SQSClient;
  let stack: LocalStack;
  let handler: (e: SQSEvent, c: Context) => Promise<AnalyzeOutcome>;
  const saved = { ...process.env };
  let out: string[] = [];

  beforeAll(async () => {
    fx = await startFauxqs();
    s3 = new S3Client(fx.clientConfig);
    sqs = new SQSClient(fx.clientConfig);
    stack = await createLocalStack({ s3, sqs, sns: new SNSClient(fx.clientConfig) }, { bucket: BUCKET });
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: fx.endpoint,
      KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
      BUCKET,
      TOPIC_ARN: stack.topicArn,
      POWERTOOLS_LOG_LEVEL: 'WARN',
      POWERTOOLS_METRICS_DISABLED: 'false',
    });
    ({ analyzeBatch: handler } = await import('../../functions/analyze'));
  });
  beforeEach(() => {
    out = [];
    captureProcessOutput(out);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  const emf = (): Record<string, unknown>[] =>
    out
      .join('')
      .split('\n')
      .filter((l) => l.includes('"_aws"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  async function stateText(): Promise<Record<string, unknown>> {
    const res = await s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: 'state/cluster=eks-a/alerts.json' }),
    );
    return JSON.parse((await res.Body?.transformToString()) ?? '{}') as Record<string, unknown>;
  }

  it('takes the run time from the scheduled event, through the dispatch', async () => {
    const { runTime } = await import('../../functions/dispatch-analysis');
    expect(runTime({ time: '2026-11-02T11:35:00Z' }).toISOString()).toBe('2026-11-02T11:35:00.000Z');
    expect(Math.abs(runTime({ time: 'garbage' }).getTime() - Date.now())).toBeLessThan(5000);
  });

  it('publishes alerts a previous run claimed but did not confirm, exactly once', async () => {
    const state = {
      ...emptyAlertState('eks-a'),
      pending: [
        {
          event: loopEvent,
          window: { from: 'a', to: 'b' },
          report: { uri: 's3://analyze-test/reports/earlier.json' },
        },
      ],
    };
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'state/cluster=eks-a/alerts.json',
        Body: encodeAlertState(state),
      }),
    );
    const first = await handler(
      analysisRequestEvent('eks-a', new Date('2026-11-02T11:35:00Z')),
      lambdaContext('analyze'),
    );
    expect(first.clusters).toEqual([
      {
        cluster: 'eks-a',
        now: '2026-11-02T11:35:00.000Z',
        recreations: 0,
        loops: 0,
        activeLoops: 0,
        endedDrifts: 0,
        published: 1,
        report: 's3://analyze-test/reports/cluster=eks-a/2026-11-02T11-35-00.000Z.json',
        findingsRows: 0,
        conflict: false,
      },
    ]);
    const msgs = await drainQueue(sqs, stack.alertsQueueUrl);
    expect(msgs).toHaveLength(1);
    const body = JSON.parse((JSON.parse(msgs[0]!.Body!) as { Message: string }).Message) as {
      id: string;
      report: { uri: string };
    };
    expect(body).toMatchObject({ id: 'id-loop', report: { uri: 's3://analyze-test/reports/earlier.json' } });

    const second = await handler(
      analysisRequestEvent('eks-a', new Date('2026-11-02T11:40:00Z')),
      lambdaContext('analyze'),
    );
    expect(second.clusters[0]!.published).toBe(0);
    expect(await drainQueue(sqs, stack.alertsQueueUrl)).toHaveLength(0);
  });

  it('writes a report every run, and in the alert state only what the run covered', async () => {
    const before = await stateText();
    // Queued before the run below begins reading: that run covers it.
    const queuedBefore = analysisRequestEvent('eks-a', new Date('2026-11-02T11:44:00Z'));
    await handler(analysisRequestEvent('eks-a', new Date('2026-11-02T11:45:00Z')), lambdaContext('analyze'));
    const after = await stateText();
    const { coveredUntil, readStartedAt, ...rest } = after;
    expect(coveredUntil).toBe('2026-11-02T11:45:00.000Z');
    expect(Date.parse(readStartedAt as string)).toBeGreaterThan(
      Number(queuedBefore.Records[0]!.attributes.SentTimestamp),
    );
    const unstamped = (x: Record<string, unknown>) => ({
      ...x,
      updatedAt: '',
      writtenBy: '',
      coveredUntil: undefined,
      readStartedAt: undefined,
    });
    expect(unstamped(rest)).toEqual(unstamped(before));
    const merged = await handler(queuedBefore, lambdaContext('analyze'));
    expect(merged.clusters).toMatchObject([{ cluster: 'eks-a', merged: true, report: null }]);
    // Sent after that run began reading: its facts may be newer than the read, so it runs.
    const sentAfter = await handler(
      analysisRequestEvent('eks-a', new Date('2026-11-02T11:44:30Z')),
      lambdaContext('analyze'),
    );
    expect(sentAfter.clusters[0]).not.toHaveProperty('merged');
    expect(sentAfter.clusters[0]!.report).toMatch(/2026-11-02T11-44-30/);
    const reports = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'reports/cluster=eks-a/' }),
    );
    expect(reports.Contents?.map((o) => o.Key)).toContain(
      'reports/cluster=eks-a/2026-11-02T11-45-00.000Z.json',
    );
    // The same run for people, beside it: a self-contained HTML page.
    const page = await s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: 'reports/cluster=eks-a/2026-11-02T11-45-00.000Z.html' }),
    );
    expect(page.ContentType).toMatch(/^text\/html/);
    expect(await page.Body?.transformToString()).toMatch(/^<!doctype html>/i);
    const report = JSON.parse(
      await (
        await s3.send(
          new GetObjectCommand({
            Bucket: BUCKET,
            Key: 'reports/cluster=eks-a/2026-11-02T11-45-00.000Z.json',
          }),
        )
      ).Body!.transformToString(),
    );
    expect(report).toMatchObject({
      cluster: 'eks-a',
      window: { from: '2026-11-02T05:45:00.000Z', to: '2026-11-02T11:45:00.000Z' },
      recreations: [],
      loops: [],
      events: [],
    });
  });

  it('emits ActiveLoops with the service dimension only, for the alarm', async () => {
    await handler(analysisRequestEvent('eks-a', new Date('2026-11-02T11:50:00Z')), lambdaContext('analyze'));
    const aggregate = emf().find((l) => 'ActiveLoops' in l && !('cluster' in l))!;
    expect(aggregate).toMatchObject({ ActiveLoops: 0, service: 'koperator-audit' });
    expect(
      (aggregate._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] })
        .CloudWatchMetrics[0],
    ).toMatchObject({ Namespace: 'KoperatorAudit', Dimensions: [['service']] });
    expect(emf().find((l) => 'ActiveLoops' in l && l.cluster === 'eks-a')).toBeDefined();
  });

  it('emits its peak memory as a share of its memory size, with the function dimension the memory alarm names', async () => {
    process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE = '1769';
    try {
      await handler(
        analysisRequestEvent('eks-a', new Date('2026-11-02T11:50:00Z')),
        lambdaContext('analyze'),
      );
    } finally {
      delete process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE;
    }
    const memory = emf().find((l) => 'MemoryUsedPercent' in l)!;
    expect(memory).toMatchObject({ function: 'analyze', service: 'koperator-audit' });
    // This test process's own peak: somewhere between nothing and several times 1,769 MB.
    expect(memory.MemoryUsedPercent).toBeGreaterThan(0);
    expect(
      (memory._aws as { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Unit: string }[] }[] })
        .CloudWatchMetrics[0],
    ).toMatchObject({ Dimensions: [['service', 'function']], Metrics: [{ Unit: 'Percent' }] });
  });

  it('reports a cluster whose facts are damaged as a batch item failure, and still analyses the others', async () => {
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: `facts/cluster=bad/hour=2026-11-02-11/${'0'.repeat(40)}.jsonl.gz`,
        Body: gzipSync('not facts'),
      }),
    );
    const at = new Date('2026-11-02T11:55:00Z');
    const bad = analysisRequestEvent('bad', at).Records[0]!;
    const good = analysisRequestEvent('eks-a', at).Records[0]!;
    const garbage = { ...analysisRequestEvent('x', at).Records[0]!, body: '{"cluster":' };
    const res = await handler({ Records: [bad, good, garbage] }, lambdaContext('analyze'));
    expect(res.batchItemFailures).toEqual([
      { itemIdentifier: bad.messageId },
      { itemIdentifier: garbage.messageId },
    ]);
    expect(res.clusters.map((c) => [c.cluster, c.error?.split(':')[0] ?? 'ok'])).toEqual([
      ['bad', 'FactsFormatError'],
      ['eks-a', 'ok'],
    ]);
    const reports = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'reports/cluster=eks-a/' }),
    );
    expect(reports.Contents?.map((o) => o.Key)).toContain(
      'reports/cluster=eks-a/2026-11-02T11-55-00.000Z.json',
    );
    expect(out.join('')).toMatch(/"message":"cluster analysis failed".*"cluster":"bad".*FactsFormatError/);
    expect(out.join('')).toMatch(/"message":"unreadable analysis request".*not JSON/);
  });

  it('returns Lambda exactly the partial batch response', async () => {
    const { handler: lambda } = await import('../../functions/analyze');
    const res = await lambda(
      analysisRequestEvent('eks-a', new Date('2026-11-02T12:00:00Z')),
      lambdaContext('analyze'),
    );
    expect(res).toEqual({ batchItemFailures: [] });
  });

  // Its waiting time is judged by the clock the merge judges it by: the request's own sentAt
  // (the sender's clock) when it has one, else SQS's SentTimestamp.
  it.each([
    ['SentTimestamp 16 min ago, no sentAt', undefined, 16, true, '12-05'],
    ['sentAt 16 min ago, SentTimestamp now', 16, 0, true, '12-06'],
    ['sentAt now, SentTimestamp 16 min ago', 0, 16, false, '12-07'],
  ] as const)(
    'skips a request that waited longer than ANALYSIS_MAX_AGE: %s',
    async (_name, sentAtMinAgo, sentTimestampMinAgo, stale, minute) => {
      const time = new Date(`2026-11-02T12:${minute.slice(3)}:00Z`);
      const event = analysisRequestEvent('eks-a', time);
      const record = event.Records[0]!;
      if (sentAtMinAgo !== undefined)
        record.body = encodeAnalysisRequest({
          cluster: 'eks-a',
          time: time.toISOString(),
          sentAt: new Date(Date.now() - sentAtMinAgo * 60_000).toISOString(),
        });
      record.attributes.SentTimestamp = String(Date.now() - sentTimestampMinAgo * 60_000);
      const res = await handler(event, lambdaContext('analyze'));
      expect(res.batchItemFailures).toEqual([]);
      expect(res.clusters).toHaveLength(1);
      expect(res.clusters[0]!.stale ?? false).toBe(stale);
      const reports = await s3.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'reports/cluster=eks-a/' }),
      );
      const key = `reports/cluster=eks-a/2026-11-02T${minute}-00.000Z.json`;
      if (stale) expect(reports.Contents?.map((o) => o.Key)).not.toContain(key);
      else expect(reports.Contents?.map((o) => o.Key)).toContain(key);
    },
  );
});
