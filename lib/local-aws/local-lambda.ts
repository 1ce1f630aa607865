// What the Lambda service hands a function, built from what the emulator returns, so
// the local pipeline and the integration tests drive the handlers exactly as deployed:
// an SQS batch from received messages, an SNS event from the envelope an SQS subscription
// receives, a scheduled event, and a context.
import type { Message } from '@aws-sdk/client-sqs';
import type {
  Context,
  ScheduledEvent,
  SNSEvent,
  SNSMessageAttributes,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { randomUUID } from 'crypto';
import { encodeAnalysisRequest } from '../aws/analysis-queue';

export function lambdaContext(functionName: string, region = 'us-east-1'): Context {
  const requestId = randomUUID();
  const deadline = Date.now() + 300_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${requestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The batch an SQS event source mapping delivers for these received messages. */
export function sqsEventFromMessages(
  messages: readonly Message[],
  queueArn: string,
  region = 'us-east-1',
): SQSEvent {
  const Records: SQSRecord[] = messages.map((m) => ({
    messageId: m.MessageId ?? randomUUID(),
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
      SenderId: m.Attributes?.SenderId ?? '000000000000',
      ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  }));
  return { Records };
}

interface SnsEnvelope {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Subject?: string | null;
  Message: string;
  Timestamp: string;
  SignatureVersion?: string;
  Signature?: string;
  SigningCertURL?: string;
  UnsubscribeURL?: string;
  MessageAttributes?: Record<string, { Type: string; Value: string }>;
}

/** The SNS event Lambda receives for a message, from the envelope an SQS subscription received. */
export function snsEventFromEnvelope(envelopeJson: string, subscriptionArn: string): SNSEvent {
  const e = JSON.parse(envelopeJson) as SnsEnvelope;
  const attrs: SNSMessageAttributes = {};
  for (const [k, v] of Object.entries(e.MessageAttributes ?? {})) attrs[k] = { Type: v.Type, Value: v.Value };
  return {
    Records: [
      {
        EventVersion: '1.0',
        EventSubscriptionArn: subscriptionArn,
        EventSource: 'aws:sns',
        Sns: {
          SignatureVersion: e.SignatureVersion ?? '1',
          Timestamp: e.Timestamp,
          Signature: e.Signature ?? '',
          SigningCertUrl: e.SigningCertURL ?? '',
          MessageId: e.MessageId,
          Message: e.Message,
          MessageAttributes: attrs,
          Type: e.Type,
          UnsubscribeUrl: e.UnsubscribeURL ?? '',
          TopicArn: e.TopicArn,
          Subject: e.Subject ?? '',
        },
      },
    ],
  };
}

/** An EventBridge scheduled event as a rate rule delivers it. */
export function scheduledEvent(
  time: Date,
  ruleName = 'koperator-audit-analyze-schedule',
  region = 'us-east-1',
): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/${ruleName}`],
    detail: {},
  };
}

/** The SQS event the analysis queue delivers for one cluster's request (as functions/dispatch-analysis sends it). */
export function analysisRequestEvent(
  cluster: string,
  time: Date,
  queueArn = 'arn:aws:sqs:us-east-1:000000000000:koperator-audit-analysis.fifo',
): SQSEvent {
  return sqsEventFromMessages(
    [
      {
        MessageId: randomUUID(),
        Body: encodeAnalysisRequest({ cluster, time: time.toISOString() }),
        Attributes: { SentTimestamp: String(Date.now()) },
      },
    ],
    queueArn,
  );
}
