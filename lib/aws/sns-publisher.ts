// Publishes one built alert message to the topic.
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
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
