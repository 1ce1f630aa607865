// Publishes one built alert message to a topic.
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { ChatSnsMessage } from '../notify/chat';
import type { SnsMessage } from '../notify/message';

export async function publishSnsMessage(
  sns: SNSClient,
  topicArn: string,
  m: SnsMessage,
): Promise<string | undefined> {
  const res = await sns.send(
    new PublishCommand({
      TopicArn: topicArn,
      Subject: m.subject,
      Message: m.body,
      MessageAttributes: m.attributes,
    }),
  );
  return res.MessageId;
}

/** A MessageStructure json message: SNS delivers its `email` key to email endpoints, `default` to the rest. */
export async function publishChatMessage(
  sns: SNSClient,
  topicArn: string,
  m: ChatSnsMessage,
): Promise<string | undefined> {
  const res = await sns.send(
    new PublishCommand({
      TopicArn: topicArn,
      Subject: m.subject,
      Message: m.message,
      MessageStructure: 'json',
      MessageAttributes: m.attributes,
    }),
  );
  return res.MessageId;
}
