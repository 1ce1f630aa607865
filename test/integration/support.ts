// Shared steps of the end-to-end tests: the deployment on fauxqs, handlers loaded with
// the environment Lambda would give them, and the truth-vs-messages comparison.
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import type { SNSEvent } from 'aws-lambda';
import { listObjects } from '../../lib/aws/backfill';
import { buildS3Notification } from '../../lib/aws/s3-events';
import { createLocalStack, drainQueue, type LocalStack } from '../../lib/local-aws/local-stack';
import { snsEventFromEnvelope } from '../../lib/local-aws/local-lambda';
import { pointHandlersAt } from '../../lib/local-aws/handler-env';
import { runSchedule, type ScheduleRun } from '../../lib/local-aws/local-schedule';
import type { ClusterSummary } from '../../functions/analyze';
import type { Fauxqs } from '../support/fauxqs';
import type { AlertMessage, LoopAlertMessage } from '../../lib/notify/message';
import type { Classification, Loop, Recreation } from '../../lib/model/findings';
import { emptyAlertState } from '../../lib/alerts/diff';
import { encodeAlertState } from '../../lib/alerts/state';
import { saveAlertState } from '../../lib/aws/alert-state-store';
import { alertStateKey, defaultLayout } from '../../lib/aws/bucket-layout';

export interface Env {
  s3: S3Client;
  sqs: SQSClient;
  sns: SNSClient;
  stack: LocalStack;
}

/** Points the handlers (their SDK clients read these) at the emulator, as the local pipeline does. */
export function handlerEnv(fx: Fauxqs, stack: LocalStack, extra: Record<string, string> = {}): void {
  pointHandlersAt(fx, stack, extra);
}

export async function deploy(fx: Fauxqs, bucket: string): Promise<Env> {
  const s3 = new S3Client(fx.clientConfig);
  const sqs = new SQSClient(fx.clientConfig);
  const sns = new SNSClient(fx.clientConfig);
  const stack = await createLocalStack({ s3, sqs, sns }, { bucket, prefix: bucket });
  return { s3, sqs, sns, stack };
}

/** What S3 sends the queue for each object under the prefix: one ObjectCreated:Put notification per message. */
export async function notifyObjects(env: Env, prefix: string, region = 'us-east-1'): Promise<number> {
  let n = 0;
  for await (const o of listObjects(env.s3, { bucket: env.stack.bucket, prefix })) {
    const body = JSON.stringify(buildS3Notification([o], { region, eventTime: new Date() }));
    await env.sqs.send(new SendMessageCommand({ QueueUrl: env.stack.ingestQueueUrl, MessageBody: body }));
    n++;
  }
  return n;
}

/** Everything the topic published since the last call, as the subscribed queue received it. */
export async function receivedAlerts(env: Env): Promise<{ events: SNSEvent[]; alerts: AlertMessage[] }> {
  const events = (await drainQueue(env.sqs, env.stack.alertsQueueUrl)).map((m) =>
    snsEventFromEnvelope(m.Body ?? '{}', env.stack.alertsSubscriptionArn),
  );
  return { events, alerts: events.map((e) => JSON.parse(e.Records[0]!.Sns.Message) as AlertMessage) };
}

export function loopKey(l: { namespace: string; kafkaCluster: string; brokerId: string }): string {
  return `${l.namespace}/${l.kafkaCluster}/${l.brokerId}`;
}

/** Truth loops as the messages must report them: one loop-started per loop, with its count and class. */
export function expectedLoopStarts(
  loops: readonly Loop[],
): { key: string; count: number; classification: Classification }[] {
  return loops
    .map((l) => ({ key: loopKey(l), count: l.count, classification: l.classification }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

export function reportedLoopStarts(
  alerts: readonly AlertMessage[],
): { key: string; count: number; classification: Classification }[] {
  return alerts
    .filter((a): a is LoopAlertMessage => a.event === 'loop-started' && a.findingType === 'loop')
    .map((a) => ({
      key: loopKey(a.finding),
      count: a.finding.count,
      classification: a.finding.classification,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Truth recreations that must be announced one by one: chosen classes, not inside a truth loop. */
export function expectedRecreations(
  recreations: readonly Recreation[],
  loops: readonly Loop[],
  classes: readonly Classification[],
): Recreation[] {
  const inLoop = (r: Recreation): boolean =>
    loops.some(
      (l) =>
        loopKey(l) === loopKey(r) &&
        r.deletedPod.deletedAt >= l.firstAt &&
        r.deletedPod.deletedAt <= l.lastAt,
    );
  return recreations.filter((r) => classes.includes(r.classification) && !inLoop(r));
}

export function reportedRecreations(alerts: readonly AlertMessage[]): Recreation[] {
  return alerts.filter((a) => a.findingType === 'recreation').map((a) => a.finding as Recreation);
}

/**
 * The contract's matching rule: on deletedPod.uid, or on deletedPod.name where the truth
 * has no uid; the class must agree. Returns what is left unmatched on either side.
 */
export function unmatchedRecreations(
  reported: readonly Recreation[],
  truth: readonly Recreation[],
): { missing: string[]; extra: string[] } {
  const left = [...reported];
  const missing: string[] = [];
  for (const t of truth) {
    const i = left.findIndex(
      (r) =>
        (t.deletedPod.uid
          ? r.deletedPod.uid === t.deletedPod.uid
          : r.deletedPod.name === t.deletedPod.name) && r.classification === t.classification,
    );
    if (i < 0) missing.push(`${t.deletedPod.uid ?? t.deletedPod.name}:${t.classification}`);
    else left.splice(i, 1);
  }
  return { missing, extra: left.map((r) => `${r.deletedPod.uid ?? r.deletedPod.name}:${r.classification}`) };
}

/** One tick of the schedule as Lambda plays it: dispatch, then the analysis queue drained through analyze. */
export async function scheduleAnalysis(env: Env, now: Date): Promise<ScheduleRun<ClusterSummary>> {
  const { handler: dispatch } = await import('../../functions/dispatch-analysis');
  const { analyzeBatch } = await import('../../functions/analyze');
  return runSchedule(env.sqs, env.stack, { dispatch, analyze: analyzeBatch }, now);
}

/**
 * The alert state an earlier run of the deployment leaves when it found nothing: the logs
 * uploaded next arrive as a backfill into a watched cluster, so a loop already over is news
 * (started and ended). Without it the first analysis over old logs would put such loops in
 * its report only (lib/alerts/diff.ts, isFirstRun).
 */
export async function watchedBefore(env: Env, cluster: string, at: Date): Promise<void> {
  const state = { ...emptyAlertState(cluster), updatedAt: at.toISOString() };
  await saveAlertState(
    env.s3,
    env.stack.bucket,
    alertStateKey(defaultLayout(), cluster),
    encodeAlertState(state),
    null,
  );
}
