// The deployment's resources on an emulator (fauxqs), and the Lambda service's part in
// moving messages to the handlers: used by `koperator-audit local-pipeline` and by the
// end-to-end test. What serverless.yml declares for AWS, this creates locally:
//   logs bucket, ingest queue + DLQ (redrive), the FIFO analysis queue + DLQ, alerts topic,
//   and an SQS queue subscribed to the topic that stands in for the notifier's SNS
//   subscription; the chat topic, and an SQS queue subscribed to it that stands in for
//   Amazon Q Developer and email.
// fauxqs delivers a MessageStructure json message whole, where SNS gives each protocol its
// own key; chatDelivery() applies SNS's rule to what the chat tap received.
// fauxqs has no bucket notifications, so uploads are announced to the queue with the
// same S3-notification messages the backfill command sends.
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { Context, SNSEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { analysisMaxReceiveCount, readDeploymentSources } from './deployed-settings';
import { lambdaContext, snsEventFromEnvelope, sqsEventFromMessages } from './local-lambda';

export interface LocalClients {
  s3: S3Client;
  sqs: SQSClient;
  sns: SNSClient;
}

/** Clients for an emulator, from its client settings (endpoint, region, path-style, dummy credentials). */
export function localClients(config: {
  endpoint: string;
  region: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string };
}): LocalClients {
  return { s3: new S3Client(config), sqs: new SQSClient(config), sns: new SNSClient(config) };
}

export interface LocalStack {
  bucket: string;
  ingestQueueUrl: string;
  ingestQueueArn: string;
  dlqUrl: string;
  /** The FIFO queue of per-cluster analysis requests (dispatch → analyze), and its dead-letter queue. */
  analysisQueueUrl: string;
  analysisQueueArn: string;
  analysisDlqUrl: string;
  topicArn: string;
  /** Receives what the topic publishes (SNS envelopes), like the notifier's subscription. */
  alertsQueueUrl: string;
  alertsSubscriptionArn: string;
  chatTopicArn: string;
  /** Receives what the chat topic publishes (SNS envelopes). */
  chatQueueUrl: string;
}

async function queueArn(sqs: SQSClient, url: string): Promise<string> {
  const res = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  const arn = res.Attributes?.QueueArn;
  if (!arn) throw new Error(`no ARN for queue ${url}`);
  return arn;
}

export async function createLocalStack(
  clients: LocalClients,
  names: { bucket: string; prefix?: string; maxReceiveCount?: number },
): Promise<LocalStack> {
  const p = names.prefix ?? 'koperator-audit';
  await clients.s3.send(new CreateBucketCommand({ Bucket: names.bucket }));
  const dlq = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${p}-ingest-dlq` }));
  const dlqUrl = dlq.QueueUrl!;
  const dlqArn = await queueArn(clients.sqs, dlqUrl);
  const q = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: `${p}-ingest`,
      Attributes: {
        VisibilityTimeout: '30',
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn,
          maxReceiveCount: names.maxReceiveCount ?? 3,
        }),
      },
    }),
  );
  const ingestQueueUrl = q.QueueUrl!;
  const analysisDlq = await clients.sqs.send(
    new CreateQueueCommand({ QueueName: `${p}-analysis-dlq.fifo`, Attributes: { FifoQueue: 'true' } }),
  );
  const analysisDlqUrl = analysisDlq.QueueUrl!;
  const analysis = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: `${p}-analysis.fifo`,
      Attributes: {
        FifoQueue: 'true',
        VisibilityTimeout: '30',
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(clients.sqs, analysisDlqUrl),
          // The deployment's own (infra/fleet.yml with the default params), not a copy.
          maxReceiveCount: analysisMaxReceiveCount(readDeploymentSources()),
        }),
      },
    }),
  );
  const analysisQueueUrl = analysis.QueueUrl!;
  const topic = await clients.sns.send(new CreateTopicCommand({ Name: `${p}-alerts` }));
  const topicArn = topic.TopicArn!;
  const alerts = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${p}-alerts-tap` }));
  const alertsQueueUrl = alerts.QueueUrl!;
  const sub = await clients.sns.send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: await queueArn(clients.sqs, alertsQueueUrl),
    }),
  );
  const chatTopic = await clients.sns.send(new CreateTopicCommand({ Name: `${p}-chat` }));
  const chatTap = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${p}-chat-tap` }));
  await clients.sns.send(
    new SubscribeCommand({
      TopicArn: chatTopic.TopicArn!,
      Protocol: 'sqs',
      Endpoint: await queueArn(clients.sqs, chatTap.QueueUrl!),
    }),
  );
  return {
    chatTopicArn: chatTopic.TopicArn!,
    chatQueueUrl: chatTap.QueueUrl!,
    bucket: names.bucket,
    ingestQueueUrl,
    ingestQueueArn: await queueArn(clients.sqs, ingestQueueUrl),
    dlqUrl,
    analysisQueueUrl,
    analysisQueueArn: await queueArn(clients.sqs, analysisQueueUrl),
    analysisDlqUrl,
    topicArn,
    alertsQueueUrl,
    alertsSubscriptionArn: sub.SubscriptionArn ?? `${topicArn}:local`,
  };
}

export async function uploadObject(
  s3: S3Client,
  bucket: string,
  key: string,
  body: Buffer | string,
): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

/** Receives whatever is visible now (no long polling: the emulator has it already). */
export async function receiveBatch(sqs: SQSClient, queueUrl: string, max = 10): Promise<Message[]> {
  const res = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: max,
      WaitTimeSeconds: 0,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  return res.Messages ?? [];
}

export async function drainQueue(sqs: SQSClient, queueUrl: string): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const batch = await receiveBatch(sqs, queueUrl);
    if (batch.length === 0) return out;
    for (const m of batch)
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }));
    out.push(...batch);
  }
}

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export interface SqsDriveResult {
  invocations: number;
  /** Message ids the handler reported failed, per invocation. */
  failures: string[][];
  events: SQSEvent[];
}

/**
 * Plays the SQS event source mapping: receive up to `batchSize`, invoke, delete what
 * succeeded, make the reported failures visible again at once (instead of after the
 * visibility timeout) so they are retried until the redrive policy dead-letters them.
 */
export async function driveSqsHandler(
  sqs: SQSClient,
  queueUrl: string,
  queueArnValue: string,
  handler: SqsHandler,
  opts: { batchSize?: number; functionName?: string; maxInvocations?: number } = {},
): Promise<SqsDriveResult> {
  const out: SqsDriveResult = { invocations: 0, failures: [], events: [] };
  for (;;) {
    if (out.invocations >= (opts.maxInvocations ?? 10_000)) return out;
    const batch = await receiveBatch(sqs, queueUrl, opts.batchSize ?? 10);
    if (batch.length === 0) return out;
    const event = sqsEventFromMessages(batch, queueArnValue);
    out.events.push(event);
    out.invocations++;
    let failed: Set<string>;
    try {
      const res = await handler(event, lambdaContext(opts.functionName ?? 'koperator-audit-ingest'));
      failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch {
      // A thrown handler fails the whole batch, as Lambda treats it.
      failed = new Set(batch.map((m) => m.MessageId ?? ''));
    }
    out.failures.push([...failed]);
    for (const m of batch) {
      if (failed.has(m.MessageId ?? '')) {
        await sqs.send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: queueUrl,
            ReceiptHandle: m.ReceiptHandle,
            VisibilityTimeout: 0,
          }),
        );
      } else {
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }));
      }
    }
  }
}

export type SnsHandler = (event: SNSEvent, context: Context) => Promise<unknown>;

/** Plays SNS → Lambda: one invocation per published message, in publish order. */
export async function driveSnsHandler(
  sqs: SQSClient,
  tapQueueUrl: string,
  subscriptionArn: string,
  handler: SnsHandler,
  functionName = 'koperator-audit-notify-slack',
): Promise<SNSEvent[]> {
  const events = (await drainQueue(sqs, tapQueueUrl)).map((m) =>
    snsEventFromEnvelope(m.Body ?? '{}', subscriptionArn),
  );
  for (const e of events) await handler(e, lambdaContext(functionName));
  return events;
}

/** One chat-topic publish as its subscribers see it: `default` (chat clients, queues) and `email`. */
export interface ChatDelivery {
  subject: string;
  /** The `default` key: what Amazon Q Developer and an SQS subscriber receive. */
  default: string;
  /** The `email` key: what an email subscription receives. */
  email: string;
  attributes: Record<string, string>;
}

/**
 * A chat-topic SNS envelope as delivered by SNS, from fauxqs's whole-message delivery:
 * the published Message must be a JSON object of strings with a `default` key (SNS
 * refuses anything else with MessageStructure json); each protocol gets its key.
 */
export function chatDelivery(envelopeBody: string): ChatDelivery {
  const env = JSON.parse(envelopeBody) as {
    Message?: string;
    Subject?: string;
    MessageAttributes?: Record<string, { Value: string }>;
  };
  const parts = JSON.parse(env.Message ?? 'null') as unknown;
  if (typeof parts !== 'object' || parts === null || Array.isArray(parts))
    throw new Error('chat topic message is not a MessageStructure json object');
  const p = parts as Record<string, unknown>;
  if (typeof p.default !== 'string') throw new Error('chat topic message has no default key');
  return {
    subject: env.Subject ?? '',
    default: p.default,
    email: typeof p.email === 'string' ? p.email : p.default,
    attributes: Object.fromEntries(Object.entries(env.MessageAttributes ?? {}).map(([k, v]) => [k, v.Value])),
  };
}
