// The ingest handler on fauxqs: partial batch failures through Powertools' batch utility,
// S3 test events, idempotent facts on redelivery and on re-upload of the same bytes, and
// the structured logs and EMF metrics it writes.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { gunzipSync } from 'zlib';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import {
  createLocalStack,
  receiveBatch,
  uploadObject,
  type LocalStack,
} from '../../lib/local-aws/local-stack';
import { lambdaContext, sqsEventFromMessages } from '../../lib/local-aws/local-lambda';
import { buildS3Notification } from '../../lib/aws/s3-events';
import { decodeFacts } from '../../lib/facts/codec';
import { captureProcessOutput } from '../support/process-output';

const BUCKET = 'ingest-test';

// A pod delete by the operator and one koperator log line, as JSON lines.
const auditLines = [
  {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: '0f0e0d0c-0000-4000-8000-000000000001',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/kafka/pods/orders-kafka-1-abcde',
    verb: 'delete',
    user: { username: 'system:serviceaccount:kafka:kafka-operator' },
    objectRef: { resource: 'pods', namespace: 'kafka', name: 'orders-kafka-1-abcde', apiVersion: 'v1' },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: '2026-11-02T10:15:00.000000Z',
    stageTimestamp: '2026-11-02T10:15:00.050000Z',
  },
  {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: '0f0e0d0c-0000-4000-8000-000000000002',
    stage: 'ResponseComplete',
    verb: 'patch',
    user: { username: 'alice@example.com' },
    objectRef: {
      resource: 'kafkaclusters',
      namespace: 'kafka',
      name: 'orders-kafka',
      apiGroup: 'kafka.banzaicloud.io',
    },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: '2026-11-02T11:01:00.000000Z',
    stageTimestamp: '2026-11-02T11:01:00.010000Z',
  },
]
  .map((e) => JSON.stringify(e))
  .join('\n')
  .concat('\n{"damaged": \n');

describe('ingest handler', () => {
  let fx: Fauxqs;
  let s3: S3Client;
  let stack: LocalStack;
  let handler: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  const saved = { ...process.env };
  let out: string[] = [];

  beforeAll(async () => {
    fx = await startFauxqs();
    s3 = new S3Client(fx.clientConfig);
    stack = await createLocalStack(
      { s3, sqs: new SQSClient(fx.clientConfig), sns: new SNSClient(fx.clientConfig) },
      { bucket: BUCKET },
    );
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: fx.endpoint,
      KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
      BUCKET,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_DEV: 'false',
    });
    handler = (await import('../../functions/ingest')).handler;
    await uploadObject(s3, BUCKET, 'logs/eks-a/audit/audit.log', auditLines);
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

  function record(body: unknown, id: string): SQSEvent['Records'][number] {
    return {
      messageId: id,
      receiptHandle: `rh-${id}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: '0',
        SenderId: 'AIDA',
        ApproximateFirstReceiveTimestamp: '0',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: stack.ingestQueueArn,
      awsRegion: 'us-east-1',
    };
  }

  const notification = (key: string, etag: string, size = 1) =>
    buildS3Notification([{ bucket: BUCKET, key, size, etag }], {
      region: 'us-east-1',
      eventTime: new Date(),
    });

  async function etagOf(key: string): Promise<string> {
    const res = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return res.ETag!.replace(/"/g, '');
  }

  async function factsKeys(): Promise<string[]> {
    const res = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'facts/' }));
    return (res.Contents ?? []).map((o) => o.Key!).sort();
  }

  const logs = (): Record<string, unknown>[] =>
    out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('writes facts per cluster and hour, reports only the bad message as failed, and ignores S3 test events', async () => {
    const etag = await etagOf('logs/eks-a/audit/audit.log');
    const event: SQSEvent = {
      Records: [
        record(notification('logs/eks-a/audit/audit.log', etag), 'good'),
        record('not json', 'garbage'),
        record(
          {
            Service: 'Amazon S3',
            Event: 's3:TestEvent',
            Time: '2026-11-02T10:00:00Z',
            Bucket: BUCKET,
            RequestId: 'r',
            HostId: 'h',
          },
          'test-event',
        ),
        record(notification('logs/eks-a/gone.log', 'feedface'), 'deleted-object'),
      ],
    };
    const res = await handler(event, lambdaContext('ingest'));
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'garbage' }] });
    const keys = await factsKeys();
    expect(keys.map((k) => k.replace(/[0-9a-f]{40}/, 'D'))).toEqual([
      'facts/cluster=eks-a/hour=2026-11-02-10/D.jsonl.gz',
      'facts/cluster=eks-a/hour=2026-11-02-11/D.jsonl.gz',
    ]);
    const obj = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: keys[0] }));
    const { header, facts } = decodeFacts(
      gunzipSync(Buffer.from(await obj.Body!.transformToByteArray())).toString('utf8'),
    );
    expect(header).toMatchObject({
      source: `s3://${BUCKET}/logs/eks-a/audit/audit.log`,
      etag,
      cluster: 'eks-a',
      hour: '2026-11-02-10',
      count: 1,
    });
    expect(facts[0]).toMatchObject({ type: 'pod', verb: 'delete', name: 'orders-kafka-1-abcde' });

    // Structured logs carry the object key and the request id; EMF metrics count records and skips by reason.
    const ingested = logs().find(
      (l) => l.message === 'object ingested' && l.objectKey === 'logs/eks-a/audit/audit.log',
    )!;
    expect(ingested).toMatchObject({
      objectKey: 'logs/eks-a/audit/audit.log',
      cluster: 'eks-a',
      outcome: 'ingested',
      function_request_id: expect.any(String),
      records: 2,
      facts: 2,
    });
    const skipped = logs().find(
      (l) => l.message === 'object ingested' && l.objectKey === 'logs/eks-a/gone.log',
    );
    // Deleted after its notification: skipped and counted, not failed (no hours of retries).
    expect(skipped).toMatchObject({ outcome: 'gone' });
    const emf = logs().filter((l) => l._aws !== undefined);
    const metric = (name: string, dims: Record<string, string> = {}): number[] =>
      emf
        .filter((l) => name in l && Object.entries(dims).every(([k, v]) => l[k] === v))
        .map((l) => l[name] as number);
    expect(metric('RecordsIngested').flat()).toContain(2);
    expect(metric('ObjectsSkipped', { reason: 'gone' })).toEqual([1]);
    expect(
      metric('RecordsSkipped', { reason: 'incomplete-record' }).length +
        metric('RecordsSkipped', { reason: 'corrupt-json' }).length,
    ).toBeGreaterThan(0);
    expect(
      emf.every(
        (l) =>
          (l._aws as { CloudWatchMetrics: { Namespace: string }[] }).CloudWatchMetrics[0]!.Namespace ===
          'KoperatorAudit',
      ),
    ).toBe(true);
  });

  it('brings a failed message back within seconds, not after the queue’s 1,800 s visibility', async () => {
    const sqs = new SQSClient(fx.clientConfig);
    const queue = await sqs.send(
      new CreateQueueCommand({ QueueName: 'ingest-retry-test', Attributes: { VisibilityTimeout: '1800' } }),
    );
    const queueUrl = queue.QueueUrl!;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"Records":' }));
    const first = await receiveBatch(sqs, queueUrl, 1);
    expect(first).toHaveLength(1);
    Object.assign(process.env, { INGEST_QUEUE_URL: queueUrl, INGEST_RETRY_SECONDS: '1' });
    try {
      const res = await handler(
        sqsEventFromMessages(first, 'arn:aws:sqs:us-east-1:000000000000:ingest-retry-test'),
        lambdaContext('ingest'),
      );
      expect(res.batchItemFailures).toEqual([{ itemIdentifier: first[0]!.MessageId }]);
    } finally {
      delete process.env.INGEST_QUEUE_URL;
      delete process.env.INGEST_RETRY_SECONDS;
    }
    // Visible again after its own second, where the queue alone would hold it half an hour.
    const started = Date.now();
    let again: Awaited<ReturnType<typeof receiveBatch>> = [];
    while (again.length === 0 && Date.now() - started < 8000) {
      await new Promise((r) => setTimeout(r, 250));
      again = await receiveBatch(sqs, queueUrl, 1);
    }
    expect(again.map((m) => m.MessageId)).toEqual([first[0]!.MessageId]);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(out.join('').includes('"retryInSeconds":1')).toBe(true);
  });

  it('rewrites the same facts objects when the object is delivered again or re-uploaded with the same bytes', async () => {
    const before = await factsKeys();
    await uploadObject(s3, BUCKET, 'logs/eks-a/audit/audit.log', auditLines);
    const etag = await etagOf('logs/eks-a/audit/audit.log');
    const res = await handler(
      {
        Records: [
          record(notification('logs/eks-a/audit/audit.log', etag), 'a'),
          record(notification('logs/eks-a/audit/audit.log', etag), 'b'),
        ],
      },
      lambdaContext('ingest'),
    );
    expect(res.batchItemFailures).toEqual([]);
    expect(await factsKeys()).toEqual(before);
  });

  it('reads exactly the notified version: a notification for overwritten content is superseded, the new one ingested', async () => {
    const oldEtag = await etagOf('logs/eks-a/audit/audit.log');
    await uploadObject(
      s3,
      BUCKET,
      'logs/eks-a/audit/audit.log',
      auditLines.replace('orders-kafka-1-abcde', 'orders-kafka-1-fghij'),
    );
    const newEtag = await etagOf('logs/eks-a/audit/audit.log');
    const before = await factsKeys();
    await handler(
      {
        Records: [
          record(notification('logs/eks-a/audit/audit.log', oldEtag), 'old'),
          record(notification('logs/eks-a/audit/audit.log', newEtag), 'new'),
        ],
      },
      lambdaContext('ingest'),
    );
    const after = await factsKeys();
    expect(after.length).toBe(before.length + 2);
    expect(
      logs()
        .filter((l) => l.message === 'object ingested')
        .map((l) => l.outcome)
        .sort(),
    ).toEqual(['ingested', 'superseded']);
  });

  it('never ingests keys outside the logs prefix (its own facts and reports live in the same bucket)', async () => {
    const [factsKey] = await factsKeys();
    const res = await handler(
      { Records: [record(notification(factsKey!, 'x'), 'loop')] },
      lambdaContext('ingest'),
    );
    expect(res.batchItemFailures).toEqual([]);
    expect(logs().find((l) => l.message === 'object ingested')).toMatchObject({
      outcome: 'outside-logs-prefix',
    });
  });
});
