// Every place one alert goes, in order: the alerts topic (the project's JSON, for
// machines), the chat topic (Amazon Q Developer in chat applications custom notification,
// plain text for email) and, when configured, the EventBridge bus. A failure is thrown
// after what went out already went out; the run keeps the alert pending and the next run
// sends it again, so a sink may see an alert twice (its `id` is stable for de-duplication),
// never zero times.
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { SNSClient } from '@aws-sdk/client-sns';
import { buildChatNotification, buildChatSnsMessage } from '../notify/chat';
import { buildEmailText } from '../notify/email';
import { buildEventBridgeEntry } from '../notify/eventbridge';
import { alertAttributes, alertSubject, buildSnsMessage, type AlertMessage } from '../notify/message';
import { publishChatMessage, publishSnsMessage } from './sns-publisher';

export interface AlertSinksConfig {
  topicArn: string;
  /** Empty: no chat topic. */
  chatTopicArn?: string;
  eksClusterArns?: Readonly<Record<string, string>>;
  /**
   * `arn:<partition>:eks:<region>:<account>:cluster/` when the stack ships EKS clusters
   * (eksClusters): a cluster eksClusterArns does not name is taken for an EKS cluster of the
   * stack's account and region, its ARN derived, so the environment does not grow with the fleet.
   */
  eksClusterArnPrefix?: string;
  /** Event bus name or ARN; empty: no EventBridge events. */
  eventBus?: string;
}

/** EKS's rule for cluster names (CreateCluster): a name outside it is no EKS cluster. */
const EKS_CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;

/** The EKS cluster ARN an alert of `cluster` names: given (eksClusterArns), derived, or none. */
export function eksClusterArnOf(
  config: Pick<AlertSinksConfig, 'eksClusterArns' | 'eksClusterArnPrefix'>,
  cluster: string,
): string | undefined {
  const given = config.eksClusterArns?.[cluster];
  if (given) return given;
  if (config.eksClusterArnPrefix && EKS_CLUSTER_NAME.test(cluster))
    return `${config.eksClusterArnPrefix}${cluster}`;
  return undefined;
}

export async function publishAlert(
  clients: { sns: SNSClient; events?: EventBridgeClient },
  config: AlertSinksConfig,
  m: AlertMessage,
): Promise<void> {
  const eks = eksClusterArnOf(config, m.cluster);
  await publishSnsMessage(clients.sns, config.topicArn, buildSnsMessage(m));
  if (config.chatTopicArn) {
    const chat = buildChatNotification(m, { eksClusterArns: eks ? { [m.cluster]: eks } : {} });
    await publishChatMessage(
      clients.sns,
      config.chatTopicArn,
      buildChatSnsMessage(m, {
        chat,
        email: buildEmailText(m),
        subject: alertSubject(m),
        attributes: alertAttributes(m),
      }),
    );
  }
  if (config.eventBus) {
    if (!clients.events) throw new Error('EVENT_BUS is set but no EventBridge client was given');
    const res = await clients.events.send(
      new PutEventsCommand({ Entries: [buildEventBridgeEntry(m, config.eventBus, eks ? [eks] : [])] }),
    );
    // PutEvents answers 200 with per-entry failures: one that was not accepted is a failure here too.
    if ((res.FailedEntryCount ?? 0) > 0) {
      const e = res.Entries?.[0];
      throw new Error(`EventBridge refused alert ${m.id}: ${e?.ErrorCode ?? '?'} ${e?.ErrorMessage ?? ''}`);
    }
  }
}
