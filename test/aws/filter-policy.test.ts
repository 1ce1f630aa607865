// The SNS filter-policy example in infra/README-deploy.md, applied by a real SNS
// implementation (fauxqs) to messages the analysis publishes: the doc's example must do
// what the doc says.
import { readFileSync } from 'fs';
import * as path from 'path';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { publishSnsMessage } from '../../lib/aws/sns-publisher';
import { drainQueue } from '../../lib/local-aws/local-stack';
import { buildSnsMessage, toAlertMessage } from '../../lib/notify/message';
import { ctx, loop, loopEvent, recreation, recreationEvent } from '../notify/fixtures';

function docPolicy(): string {
  const doc = readFileSync(path.join(__dirname, '..', '..', 'infra', 'README-deploy.md'), 'utf8');
  const m = /For example[\s\S]*?```json\n([\s\S]*?)```/.exec(doc);
  if (!m?.[1]) throw new Error('no filter policy example in infra/README-deploy.md');
  return JSON.stringify(JSON.parse(m[1]));
}

describe('the documented filter policy', () => {
  let fx: Fauxqs;
  beforeAll(async () => {
    fx = await startFauxqs();
  });
  afterAll(async () => fx?.stop());

  it('passes loops of orders clusters and lone reverts, and drops dev clusters and other events', async () => {
    const sns = new SNSClient(fx.clientConfig);
    const sqs = new SQSClient(fx.clientConfig);
    const topic = (await sns.send(new CreateTopicCommand({ Name: 'alerts' }))).TopicArn!;
    const q = (await sqs.send(new CreateQueueCommand({ QueueName: 'filtered' }))).QueueUrl!;
    const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: q, AttributeNames: ['QueueArn'] })))
      .Attributes!.QueueArn!;
    await sns.send(
      new SubscribeCommand({
        TopicArn: topic,
        Protocol: 'sqs',
        Endpoint: arn,
        Attributes: { FilterPolicy: docPolicy() },
      }),
    );

    const orders = { ...loop, kafkaCluster: 'orders-kafka' };
    const cases = [
      { id: 'orders-loop', ev: { ...loopEvent, id: 'orders-loop', loop: orders } },
      { id: 'pipeline-loop', ev: { ...loopEvent, id: 'pipeline-loop' } },
      {
        id: 'orders-loop-dev',
        ev: { ...loopEvent, id: 'orders-loop-dev', cluster: 'dev-eks', loop: orders },
      },
      { id: 'revert', ev: { ...recreationEvent, id: 'revert' } },
      {
        id: 'unknown',
        ev: {
          ...recreationEvent,
          id: 'unknown',
          recreation: { ...recreation, classification: 'unknown' as const },
        },
      },
    ];
    for (const c of cases) await publishSnsMessage(sns, topic, buildSnsMessage(toAlertMessage(c.ev, ctx)));
    const got = (await drainQueue(sqs, q))
      .map((m) => (JSON.parse(JSON.parse(m.Body!).Message) as { id: string }).id)
      .sort();
    expect(got).toEqual(['orders-loop', 'revert']);
  });
});
