// The notifier end to end on the wire: an alert published to a fauxqs topic reaches an
// SQS subscription, the SNS event Lambda would get is built from that envelope, and the
// handler reads the webhook URL from a Parameter Store stand-in (with decryption) and
// posts Block Kit to a local Slack stand-in, which answers 429 first.
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import type { Context, SNSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { startLocalSlack, type LocalSlack } from '../../lib/local-aws/local-slack';
import { startLocalSsm, type LocalSsm } from '../../lib/local-aws/local-ssm';
import { createLocalStack, drainQueue, type LocalStack } from '../../lib/local-aws/local-stack';
import { lambdaContext, snsEventFromEnvelope } from '../../lib/local-aws/local-lambda';
import { publishSnsMessage } from '../../lib/aws/sns-publisher';
import { buildSnsMessage, toAlertMessage } from '../../lib/notify/message';
import type { SlackPayload } from '../../lib/notify/slack';
import { ctx, loopEvent } from '../notify/fixtures';

const PARAM = '/koperator-audit/test/slack-webhook-url';

describe('notify-slack handler', () => {
  let fx: Fauxqs;
  let slack: LocalSlack;
  let ssm: LocalSsm;
  let stack: LocalStack;
  let sns: SNSClient;
  let sqs: SQSClient;
  let handler: (e: SNSEvent, c: Context) => Promise<{ posted: number; skipped: number }>;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    slack = await startLocalSlack();
    ssm = await startLocalSsm({ [PARAM]: { value: slack.url, type: 'SecureString' } });
    sns = new SNSClient(fx.clientConfig);
    sqs = new SQSClient(fx.clientConfig);
    stack = await createLocalStack(
      { s3: new S3Client(fx.clientConfig), sqs, sns },
      { bucket: 'notify-test' },
    );
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL_SSM: ssm.endpoint,
      SLACK_WEBHOOK_PARAMETER: PARAM,
      // Retry-After is honoured in whole seconds; keep the test's wait to one.
      SLACK_MAX_DELAY: '5s',
      POWERTOOLS_LOG_LEVEL: 'CRITICAL',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    handler = (await import('../../functions/notify-slack')).handler;
  });
  afterAll(async () => {
    process.env = saved;
    await Promise.all([fx?.stop(), slack?.stop(), ssm?.stop()]);
  });

  async function publishedEvent(): Promise<SNSEvent> {
    await publishSnsMessage(sns, stack.topicArn, buildSnsMessage(toAlertMessage(loopEvent, ctx)));
    const [m] = await drainQueue(sqs, stack.alertsQueueUrl);
    return snsEventFromEnvelope(m!.Body!, stack.alertsSubscriptionArn);
  }

  it('posts the Block Kit payload, retrying after the 429 as Retry-After says', async () => {
    slack.failNext(1, 429, 1);
    const event = await publishedEvent();
    expect(event.Records[0]!.Sns.MessageAttributes.event).toEqual({ Type: 'String', Value: 'loop-started' });
    const res = await handler(event, lambdaContext('notify-slack'));
    expect(res).toEqual({ posted: 1, skipped: 0 });
    expect(slack.requests).toHaveLength(2);
    expect(slack.requests[1]!.at - slack.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(slack.requests[0]!.body).toBe(slack.requests[1]!.body);
    const payload = JSON.parse(slack.requests[1]!.body) as SlackPayload;
    expect(payload.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Recreation loop started: pipeline-kafka broker 4', emoji: true },
    });
    const section = payload.blocks[1]!;
    expect(section.type === 'section' && section.fields?.map((f) => f.text.split('\n')[0])).toEqual([
      '*Broker*',
      '*Class*',
      '*Count*',
      '*Period*',
      '*Who*',
      '*Cluster*',
    ]);
    expect(JSON.stringify(payload.blocks)).toContain(
      '`spec.containers[name=kafka].resources.requests.cpu`: `2 → 1200m`',
    );
    expect(JSON.stringify(payload.blocks)).toContain('*Recommendation*');
    expect(ssm.requests).toEqual([{ name: PARAM, withDecryption: true }]);
  });

  it('reads the parameter once per container', async () => {
    slack.requests.length = 0;
    await handler(await publishedEvent(), lambdaContext('notify-slack'));
    expect(slack.requests).toHaveLength(1);
    expect(ssm.requests).toHaveLength(1);
  });

  it('skips a message that is not an alert instead of failing forever', async () => {
    const event = await publishedEvent();
    event.Records[0]!.Sns.Message = 'hello from the console';
    expect(await handler(event, lambdaContext('notify-slack'))).toEqual({ posted: 0, skipped: 1 });
  });

  it('fails the invocation (for Lambda to retry) when Slack keeps failing', async () => {
    process.env.SLACK_MAX_ATTEMPTS = '2';
    slack.failNext(2, 503);
    await expect(handler(await publishedEvent(), lambdaContext('notify-slack'))).rejects.toThrow(
      /after 2 attempts/,
    );
  });
});
