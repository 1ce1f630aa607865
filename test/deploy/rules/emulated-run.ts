// One end-to-end run of the functions on the emulator (fauxqs, a Parameter Store, a
// Secrets Manager and a Slack stand-in), each with the environment a packaged template gives
// it, recording every AWS call each makes: the example logs are ingested (plus one object
// deleted after its notification), the schedule dispatches and analyses, the notifier posts
// the alerts, and where the template deploys the report-link function, every alert's link
// is opened through it.
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import type { Context, LambdaFunctionURLEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { enqueueObjects, listObjects } from '../../../lib/aws/backfill';
import { startFauxqs } from '../../../lib/local-aws/fauxqs-server';
import { listFactsHours } from '../../../lib/aws/facts-store';
import { runSchedule } from '../../../lib/local-aws/local-schedule';
import { startLocalSlack } from '../../../lib/local-aws/local-slack';
import { startLocalSecrets } from '../../../lib/local-aws/local-secrets';
import { startLocalSsm } from '../../../lib/local-aws/local-ssm';
import {
  createLocalStack,
  driveSnsHandler,
  driveSqsHandler,
  localClients,
  uploadObject,
  type LocalStack,
} from '../../../lib/local-aws/local-stack';
import { defaultLayout } from '../../../lib/aws/bucket-layout';
import { hourStart } from '../../../lib/facts/partition';
import { lambdaContext } from '../../../lib/local-aws/local-lambda';
import type { AlertMessage } from '../../../lib/notify/message';
import { listLocal } from '../../../lib/sources/local';
import { asFunction, recordCalls, type RawCall } from './call-recorder';

const root = path.join(__dirname, '..', '..', '..');
const EXAMPLES = path.join(root, 'examples', 'logs');
const BUCKET = 'koperator-audit-rules';
const CLUSTER = 'eks-rules';

/** Names the run uses for the stack's resources: the emulator's, to translate to the template's. */
export type EmulatedStack = Pick<
  LocalStack,
  'bucket' | 'ingestQueueUrl' | 'analysisQueueUrl' | 'topicArn' | 'chatTopicArn'
> & { webhookParameter: string; linkSecretArn: string };

export interface RecordedRun {
  calls: RawCall[];
  stack: EmulatedStack;
  alerts: number;
  slackPosts: number;
  /** Alert links the report-link function answered with a redirect (0 where it is not deployed). */
  linksRedirected: number;
}

/** The event a function URL gives its function for a GET of `url`. */
function urlEvent(url: string): LambdaFunctionURLEvent {
  const u = new URL(url);
  const http = {
    method: 'GET',
    path: u.pathname,
    protocol: 'HTTP/1.1',
    sourceIp: '203.0.113.9',
    userAgent: 'x',
  };
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: u.pathname,
    rawQueryString: '',
    headers: { host: u.host },
    isBase64Encoded: false,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'x',
      domainName: u.host,
      domainPrefix: 'x',
      http,
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: '',
      timeEpoch: Date.now(),
    },
  };
}

/**
 * `envOf(fn)` is the function's environment from the template; the stack's resource names
 * in it (BUCKET, queue URL, topic ARNs) are replaced by the emulator's.
 */
export async function recordedRun(envOf: (fn: string) => Record<string, string>): Promise<RecordedRun> {
  const fx = await startFauxqs();
  const slack = await startLocalSlack();
  // A name per run: the notifier caches the URL per name, as a warm container does, and
  // every run must read it (and be recorded reading it) from its own stand-in.
  const webhookParameter = `/koperator-audit-rules/${randomUUID()}/slack-webhook-url`;
  const ssm = await startLocalSsm({ [webhookParameter]: { value: slack.url, type: 'SecureString' } });
  const secrets = await startLocalSecrets({
    [`rules-${randomUUID()}`]: 'rules-link-secret-'.padEnd(64, 'x'),
  });
  const linkSecretArn = Object.values(secrets.arns)[0]!;
  const saved = { ...process.env };
  const clients = localClients(fx.clientConfig);
  const { s3, sqs } = clients;
  const stack = await createLocalStack(clients, { bucket: BUCKET });
  const base = {
    AWS_REGION: fx.region,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL: fx.endpoint,
    AWS_ENDPOINT_URL_SSM: ssm.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  const emulated = {
    BUCKET: stack.bucket,
    TOPIC_ARN: stack.topicArn,
    CHAT_TOPIC_ARN: stack.chatTopicArn,
    ANALYSIS_QUEUE_URL: stack.analysisQueueUrl,
    INGEST_QUEUE_URL: stack.ingestQueueUrl,
    SLACK_WEBHOOK_PARAMETER: webhookParameter,
    REPORT_LINK_SECRET: linkSecretArn,
  };
  /** The handler as Lambda runs it: its own environment, its calls recorded as its own. */
  const as =
    <E, R>(fn: string, handler: (e: E, c: Context) => Promise<R>, extra: Record<string, string> = {}) =>
    (e: E, c: Context): Promise<R> => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      const own = envOf(fn);
      const replaced = Object.fromEntries(
        Object.keys(emulated)
          .filter((k) => k in own)
          .map((k) => [k, emulated[k as keyof typeof emulated]]),
      );
      Object.assign(process.env, own, base, replaced, extra);
      return asFunction(fn, () => handler(e, c));
    };
  // Before the functions are loaded: their loggers read the level when they are made.
  Object.assign(process.env, base);
  const stop = recordCalls({ fakeEventBridge: true });
  let calls: RawCall[] = [];
  try {
    const prefix = `logs/${CLUSTER}/`;
    for await (const o of listLocal(EXAMPLES)) {
      const rel = path.relative(EXAMPLES, o.name).split(path.sep).join('/');
      await uploadObject(s3, BUCKET, prefix + rel, await fs.readFile(o.name));
    }
    await uploadObject(s3, BUCKET, `${prefix}deleted-before-ingest.log`, '{}\n');
    await enqueueObjects(sqs, stack.ingestQueueUrl, listObjects(s3, { bucket: BUCKET, prefix }), {
      region: fx.region,
    });
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${prefix}deleted-before-ingest.log` }));
    // A message the ingest fails on: its retry (the message's own visibility shortened) is a call too.
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.ingestQueueUrl, MessageBody: '{"Records":' }));

    const ingest = await import('../../../functions/ingest');
    const dispatch = await import('../../../functions/dispatch-analysis');
    const analyze = await import('../../../functions/analyze');
    const notify = await import('../../../functions/notify-slack');
    const reportLink = await import('../../../functions/report-link');

    await driveSqsHandler(sqs, stack.ingestQueueUrl, stack.ingestQueueArn, as('ingest', ingest.handler), {
      batchSize: 5,
    });
    const hours = await listFactsHours(s3, BUCKET, defaultLayout(), CLUSTER);
    if (hours.length === 0) throw new Error('the emulated ingest wrote no facts');
    const from = hourStart(hours[0]!);
    const now = new Date(hourStart(hours[hours.length - 1]!).getTime() + 3600_000);
    const window = {
      LOOKBACK: String(Math.ceil((now.getTime() - from.getTime()) / 1000)),
      FINDINGS_SETTLE: '0',
    };
    await runSchedule(
      sqs,
      stack,
      {
        dispatch: as('dispatchAnalysis', dispatch.handler, window),
        analyze: as<SQSEvent, SQSBatchResponse & { clusters: unknown[] }>(
          'analyze',
          analyze.analyzeBatch,
          window,
        ),
      },
      now,
    );
    // Where the notifier is not deployed (slackWebhookParameter=none) the alerts are only
    // taken off the topic's queue: nothing runs, so nothing is recorded for it.
    const slackDeployed = Object.keys(envOf('notifySlack')).length > 0;
    const events = await driveSnsHandler(
      sqs,
      stack.alertsQueueUrl,
      stack.alertsSubscriptionArn,
      slackDeployed ? as('notifySlack', notify.handler) : async () => {},
    );
    let linksRedirected = 0;
    if (Object.keys(envOf('reportLink')).length > 0) {
      const open = as('reportLink', (e: LambdaFunctionURLEvent) => reportLink.handler(e));
      for (const e of events) {
        const report = (JSON.parse(e.Records[0]!.Sns.Message) as AlertMessage).report;
        for (const url of [report?.url, report?.html?.url])
          if (url && (await open(urlEvent(url), lambdaContext('reportLink'))).statusCode === 302)
            linksRedirected++;
      }
    }
    calls = stop();
    return {
      calls,
      stack: { ...stack, webhookParameter, linkSecretArn },
      alerts: events.length,
      slackPosts: slack.requests.length,
      linksRedirected,
    };
  } finally {
    if (calls.length === 0) stop();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await Promise.all([fx.stop(), slack.stop(), ssm.stop(), secrets.stop()]);
  }
}
