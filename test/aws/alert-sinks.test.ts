// One alert to every sink: both topics over the wire on the emulator; EventBridge (which
// fauxqs does not emulate) through a recording client that answers as PutEvents does.
import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { publishAlert } from '../../lib/aws/alert-sinks';
import {
  chatDelivery,
  createLocalStack,
  drainQueue,
  localClients,
  type LocalStack,
} from '../../lib/local-aws/local-stack';
import { buildChatNotification } from '../../lib/notify/chat';
import { DETAIL_TYPES, EVENT_SOURCE } from '../../lib/notify/eventbridge';
import { toAlertMessage } from '../../lib/notify/message';
import { ctx, loopEvent } from '../notify/fixtures';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';

const EKS_ARN = 'arn:aws:eks:eu-west-1:123456789012:cluster/prod';

function recordingEvents(answer: { FailedEntryCount: number; Entries: unknown[] }) {
  const sent: PutEventsCommand[] = [];
  const client = {
    send: async (cmd: PutEventsCommand) => {
      sent.push(cmd);
      return answer;
    },
  } as unknown as EventBridgeClient;
  return { client, sent };
}

describe('publishAlert', () => {
  let fx: Fauxqs;
  let clients: ReturnType<typeof localClients>;
  let stack: LocalStack;
  const m = toAlertMessage(loopEvent, ctx);

  beforeAll(async () => {
    fx = await startFauxqs();
    clients = localClients(fx.clientConfig);
    stack = await createLocalStack(clients, { bucket: 'sinks' });
  });
  afterAll(async () => fx.stop());

  it('sends the JSON to the alerts topic, the notification and email text to the chat topic, the event to EventBridge', async () => {
    const events = recordingEvents({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });
    await publishAlert(
      { sns: clients.sns, events: events.client },
      {
        topicArn: stack.topicArn,
        chatTopicArn: stack.chatTopicArn,
        eksClusterArns: { 'eks-prod': EKS_ARN },
        eventBus: 'default',
      },
      m,
    );
    const machine = await drainQueue(clients.sqs, stack.alertsQueueUrl);
    expect(machine).toHaveLength(1);
    expect(JSON.parse((JSON.parse(machine[0]!.Body!) as { Message: string }).Message)).toEqual(m);
    const chat = (await drainQueue(clients.sqs, stack.chatQueueUrl)).map((q) => chatDelivery(q.Body!));
    expect(chat).toHaveLength(1);
    expect(JSON.parse(chat[0]!.default)).toEqual(
      buildChatNotification(m, { eksClusterArns: { 'eks-prod': EKS_ARN } }),
    );
    expect(chat[0]!.email).toMatch(
      /^Recreation loop started: kafka\/pipeline-kafka broker 4 in cluster eks-prod\n/,
    );
    expect(chat[0]!.attributes).toMatchObject({ event: 'loop-started', cluster: 'eks-prod' });
    expect(events.sent).toHaveLength(1);
    const entry = events.sent[0]!.input.Entries![0]!;
    expect(entry).toMatchObject({
      Source: EVENT_SOURCE,
      DetailType: DETAIL_TYPES['loop-started'],
      EventBusName: 'default',
      Resources: [EKS_ARN],
    });
    expect(JSON.parse(entry.Detail!)).toEqual(m);
  });

  it('sends nothing to a sink that is not configured', async () => {
    await publishAlert({ sns: clients.sns }, { topicArn: stack.topicArn }, m);
    expect(await drainQueue(clients.sqs, stack.alertsQueueUrl)).toHaveLength(1);
    expect(await drainQueue(clients.sqs, stack.chatQueueUrl)).toHaveLength(0);
  });

  it('fails when EventBridge refuses the entry (PutEvents answers 200 with FailedEntryCount)', async () => {
    const events = recordingEvents({
      FailedEntryCount: 1,
      Entries: [{ ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' }],
    });
    await expect(
      publishAlert(
        { sns: clients.sns, events: events.client },
        { topicArn: stack.topicArn, eventBus: 'default' },
        m,
      ),
    ).rejects.toThrow(/EventBridge refused alert id-loop: ThrottlingException slow down/);
    await drainQueue(clients.sqs, stack.alertsQueueUrl);
  });
});
