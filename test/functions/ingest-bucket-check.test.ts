// The ingest handler with an existing bucket (CHECK_BUCKET=true, as the template sets it
// then): on its first invocation in a container it reads the bucket's settings and logs
// a warning naming every one it cannot confirm, with the BucketSettingsMissing metric.
// fauxqs implements none of these bucket APIs, so here each reads as missing or unreadable:
// the point is that the handler says so, once, and goes on ingesting.
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createLocalStack } from '../../lib/local-aws/local-stack';
import { lambdaContext } from '../../lib/local-aws/local-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { captureProcessOutput } from '../support/process-output';

const BUCKET = 'existing-bucket';

describe('ingest handler on an existing bucket', () => {
  let fx: Fauxqs;
  let handler: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    await createLocalStack(
      {
        s3: new S3Client(fx.clientConfig),
        sqs: new SQSClient(fx.clientConfig),
        sns: new SNSClient(fx.clientConfig),
      },
      { bucket: BUCKET },
    );
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: fx.endpoint,
      KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
      BUCKET,
      CHECK_BUCKET: 'true',
      FACTS_RETENTION_DAYS: '30',
      REPORTS_RETENTION_DAYS: '14',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_DEV: 'false',
    });
    handler = (await import('../../functions/ingest')).handler;
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  async function invoke(): Promise<Record<string, unknown>[]> {
    const out: string[] = [];
    captureProcessOutput(out);
    try {
      await handler({ Records: [] }, lambdaContext('koperator-audit-ingest'));
    } finally {
      jest.restoreAllMocks();
    }
    return out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('names every setting it cannot confirm on the first invocation, with the metric, and not again', async () => {
    const first = await invoke();
    const warn = first.find((l) => String(l.message).startsWith('the existing logs bucket lacks settings'));
    expect(warn).toMatchObject({ level: 'WARN', bucket: BUCKET });
    const missing = (warn!.missing as string[]).join('\n');
    for (const what of [/^default encryption: /m, /^public access block: /m, /^TLS-only policy: /m])
      expect(missing).toMatch(what);
    expect(missing).toMatch(/lifecycle: .*facts\/.*30 days/);
    expect(missing).toMatch(/lifecycle: .*reports\/.*14 days/);
    const emf = first.find((l) => '_aws' in l && 'BucketSettingsMissing' in l);
    expect(emf?.BucketSettingsMissing).toBe((warn!.missing as string[]).length);

    const second = await invoke();
    expect(second.some((l) => String(l.message).includes('existing logs bucket'))).toBe(false);
  });
});
