// `koperator-audit local-pipeline`: the serverless deployment on one machine, with no AWS
// account. Starts the fauxqs emulator (S3/SNS/SQS), a Parameter Store stand-in holding the
// Slack webhook URL and a Slack stand-in that records posts; uploads a folder of logs;
// then plays the Lambda service: S3 notifications → ingest handler, a scheduled event →
// dispatch handler → one analysis-queue message per cluster → analyze handler, SNS →
// notify-slack handler; and prints the SNS messages and Slack
// payloads that came out.
//
// The handlers run unchanged: they find the emulators through the SDK's standard
// AWS_ENDPOINT_URL* variables, set here for the duration of the run. They are imported
// after that (their loggers read the environment when loaded); their SDK clients follow
// the endpoint variables, so a second run in the same process talks to its own emulator.
import { randomUUID } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import type { SNSEvent } from 'aws-lambda';
import { enqueueObjects, listObjects } from '../aws/backfill';
import { startFauxqs } from '../local-aws/fauxqs-server';
import { runSchedule } from '../local-aws/local-schedule';
import { startLocalSlack } from '../local-aws/local-slack';
import { startLocalSsm } from '../local-aws/local-ssm';
import { listFactsHours } from '../aws/facts-store';
import {
  chatDelivery,
  createLocalStack,
  type ChatDelivery,
  driveSnsHandler,
  driveSqsHandler,
  drainQueue,
  localClients,
  uploadObject,
  type LocalClients,
} from '../local-aws/local-stack';
import { emptyAlertState } from '../alerts/diff';
import { encodeAlertState } from '../alerts/state';
import { saveAlertState } from '../aws/alert-state-store';
import { alertStateKey, defaultLayout, normalisePrefix } from '../aws/bucket-layout';
import { hourStart } from '../facts/partition';
import { parseDurationSeconds } from '../config/duration';
import { listLocal } from '../sources/local';
import { describeInputError } from '../sources/input-errors';
import { UsageError } from './io';
import { chatAsRead, slackAsRead, withoutEmulatorLinksDeep } from './sink-text';

export interface LocalPipelineOptions {
  /** Folder (read recursively) or file to upload; default `examples/logs`. */
  input?: string;
  /** Kubernetes cluster name the logs are filed under (`logs/<cluster>/...`); default `local`. */
  cluster?: string;
  /** The scheduled run's time (RFC 3339); default: the end of the newest hour with facts. */
  now?: string;
  /** Look-back window, e.g. 6h; default: from the oldest hour with facts, so everything uploaded is analysed. */
  lookback?: string;
  /** `text` (default) or `json`: one document with the SNS messages and Slack payloads. */
  format?: 'text' | 'json';
  /** Show the functions' own structured logs and EMF metrics on stdout. */
  verbose?: boolean;
  /**
   * Play the logs as a backfill into a cluster the deployment already watched (an earlier
   * run found nothing): loops already over are alerted, started and ended. Without it the
   * run is the deployment's first, and those go to the report only.
   */
  backfill?: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface PublishedMessage {
  subject: string;
  attributes: Record<string, string>;
  body: unknown;
}

export interface LocalPipelineResult {
  uploaded: number;
  ingestInvocations: number;
  ingestFailures: number;
  deadLettered: number;
  analyze: unknown;
  sns: PublishedMessage[];
  slack: unknown[];
  /** What the chat topic delivered: the custom notification (parsed) and the email text. */
  chat: (Omit<ChatDelivery, 'default'> & { notification: unknown })[];
}

/** The files to upload, as the local reader lists them (recursive, sorted). */
async function filesUnder(p: string): Promise<string[]> {
  const out: string[] = [];
  for await (const o of listLocal(p)) {
    // A file listed but unreadable (or the input itself missing) would fail the upload midway.
    try {
      const s = await o.open();
      (s as { destroy?: () => void }).destroy?.();
    } catch (e) {
      throw new UsageError(`--input ${o.name}: ${describeInputError(e)}`);
    }
    out.push(o.name);
  }
  return out;
}

const BUCKET = 'koperator-audit-local';

export async function runLocalPipeline(opts: LocalPipelineOptions): Promise<LocalPipelineResult> {
  const input = opts.input ?? 'examples/logs';
  const cluster = opts.cluster ?? 'local';
  const say = (s: string): void => void opts.stderr.write(s + '\n');
  const files = await filesUnder(input);
  if (files.length === 0) throw new UsageError(`--input ${input}: no files under it`);

  const fauxqs = await startFauxqs();
  const slack = await startLocalSlack();
  // A name per run: the notifier caches the URL per parameter name, as in a warm container.
  const WEBHOOK_PARAMETER = `/koperator-audit/local/${randomUUID()}/slack-webhook-url`;
  const ssm = await startLocalSsm({ [WEBHOOK_PARAMETER]: { value: slack.url, type: 'SecureString' } });
  const savedEnv = { ...process.env };
  try {
    say(
      `fauxqs on ${fauxqs.endpoint}; Parameter Store stand-in on ${ssm.endpoint}; Slack stand-in on ${slack.url}`,
    );
    const clients = localClients(fauxqs.clientConfig);
    const { s3, sqs } = clients;
    const stack = await createLocalStack(clients, { bucket: BUCKET });
    const layout = defaultLayout();

    Object.assign(process.env, {
      AWS_REGION: fauxqs.region,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: fauxqs.endpoint,
      AWS_ENDPOINT_URL_SSM: ssm.endpoint,
      KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
      BUCKET,
      TOPIC_ARN: stack.topicArn,
      ANALYSIS_QUEUE_URL: stack.analysisQueueUrl,
      // Everything is uploaded before the run: every hour of it is settled.
      FINDINGS_SETTLE: '0',
      CHAT_TOPIC_ARN: stack.chatTopicArn,
      SLACK_WEBHOOK_PARAMETER: WEBHOOK_PARAMETER,
      DEFAULT_CLUSTER: cluster,
      POWERTOOLS_LOG_LEVEL: opts.verbose ? 'INFO' : 'ERROR',
      POWERTOOLS_METRICS_DISABLED: opts.verbose ? 'false' : 'true',
    });
    delete process.env.AWS_PROFILE;

    // 1. Logs land in the bucket, and S3 announces each object to the ingest queue.
    const logsPrefix = `${normalisePrefix(layout.logsPrefix)}${cluster}/`;
    const base = (await fs.stat(input)).isFile() ? path.dirname(input) : input;
    for (const f of files) {
      const rel = path.relative(base, f).split(path.sep).join('/');
      await uploadObject(s3, BUCKET, logsPrefix + rel, await fs.readFile(f));
    }
    await enqueueObjects(sqs, stack.ingestQueueUrl, listObjects(s3, { bucket: BUCKET, prefix: logsPrefix }), {
      region: fauxqs.region,
    });
    say(`uploaded ${files.length} files to s3://${BUCKET}/${logsPrefix}`);

    const ingest = await import('../../functions/ingest');
    const dispatch = await import('../../functions/dispatch-analysis');
    const analyze = await import('../../functions/analyze');
    const notify = await import('../../functions/notify-slack');

    // 2. The queue's event source mapping invokes ingest in batches.
    const drive = await driveSqsHandler(sqs, stack.ingestQueueUrl, stack.ingestQueueArn, ingest.handler, {
      batchSize: 5,
    });
    const failures = drive.failures.reduce((n, f) => n + f.length, 0);
    const dead = (await drainQueue(sqs, stack.dlqUrl)).length;
    say(`ingest: ${drive.invocations} invocations, ${failures} message failures, ${dead} dead-lettered`);

    // 3. The schedule invokes dispatch, which queues one analysis per cluster for analyze.
    const window = await factsSpan(clients, BUCKET, cluster);
    const now = opts.now ? new Date(opts.now) : window ? new Date(window.to) : new Date();
    if (Number.isNaN(now.getTime())) throw new UsageError(`--now is not a time: ${opts.now}`);
    const lookbackSeconds = opts.lookback
      ? parseDurationSeconds(opts.lookback)
      : window
        ? Math.max(3600, (now.getTime() - Date.parse(window.from)) / 1000)
        : 6 * 3600;
    if (lookbackSeconds === null || lookbackSeconds <= 0)
      throw new UsageError(`--lookback is not a duration: ${opts.lookback}`);
    process.env.LOOKBACK = String(Math.ceil(lookbackSeconds));
    if (opts.backfill) {
      const watched = {
        ...emptyAlertState(cluster),
        updatedAt: new Date(now.getTime() - lookbackSeconds * 1000).toISOString(),
      };
      await saveAlertState(s3, BUCKET, alertStateKey(layout, cluster), encodeAlertState(watched), null);
    }
    const analyzed = await runSchedule(
      sqs,
      stack,
      { dispatch: dispatch.handler, analyze: analyze.analyzeBatch },
      now,
    );
    say(
      `analyze at ${now.toISOString()} over ${Math.ceil(lookbackSeconds / 3600)}h: ${JSON.stringify(analyzed.clusters)}`,
    );
    say(
      `findings history (Athena): ${analyzed.clusters.reduce((n, c) => n + c.findingsRows, 0)} rows under s3://${BUCKET}/findings/`,
    );

    // 4. SNS delivers each alert to the notifier, which posts to Slack.
    const snsEvents: SNSEvent[] = await driveSnsHandler(
      sqs,
      stack.alertsQueueUrl,
      stack.alertsSubscriptionArn,
      notify.handler,
    );
    const published: PublishedMessage[] = snsEvents.map((e) => {
      const s = e.Records[0]!.Sns;
      return {
        subject: s.Subject ?? '',
        attributes: Object.fromEntries(Object.entries(s.MessageAttributes).map(([k, v]) => [k, v.Value])),
        body: JSON.parse(s.Message) as unknown,
      };
    });
    const slackPayloads = slack.requests.map((r) => JSON.parse(r.body) as unknown);
    const chat = (await drainQueue(sqs, stack.chatQueueUrl)).map((m) => {
      const d = chatDelivery(m.Body ?? '{}');
      return {
        subject: d.subject,
        notification: JSON.parse(d.default) as unknown,
        email: d.email,
        attributes: d.attributes,
      };
    });

    const result: LocalPipelineResult = {
      uploaded: files.length,
      ingestInvocations: drive.invocations,
      ingestFailures: failures,
      deadLettered: dead,
      analyze: analyzed,
      sns: published,
      slack: slackPayloads,
      chat,
    };
    print(opts, result, fauxqs.endpoint);
    return result;
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
    await Promise.all([fauxqs.stop(), slack.stop(), ssm.stop()]);
  }
}

/** First and last hour with facts for the cluster, so a default run analyses all of them. */
async function factsSpan(
  clients: LocalClients,
  bucket: string,
  cluster: string,
): Promise<{ from: string; to: string } | null> {
  const hours = await listFactsHours(clients.s3, bucket, defaultLayout(), cluster);
  if (hours.length === 0) return null;
  return {
    from: hourStart(hours[0]!).toISOString(),
    to: new Date(hourStart(hours[hours.length - 1]!).getTime() + 3600_000).toISOString(),
  };
}

function print(opts: LocalPipelineOptions, r: LocalPipelineResult, endpoint: string): void {
  const out = opts.stdout;
  if (opts.format === 'json') {
    const raw = { sns: r.sns, slack: r.slack, chat: r.chat, analyze: r.analyze };
    out.write(JSON.stringify(withoutEmulatorLinksDeep(raw, endpoint), null, 2) + '\n');
    return;
  }
  // Links are dropped from the payloads first, so each reader sees the note where the link was.
  const dead = <T>(v: T): T => withoutEmulatorLinksDeep(v, endpoint) as T;
  const events = r.sns.map((m) => m.attributes.event ?? 'alert');
  const counts = [...new Set(events)].map((e) => `${events.filter((x) => x === e).length} ${e}`);
  out.write(
    `${r.sns.length} alert(s) published${counts.length ? `: ${counts.join(', ')}` : ''}; ` +
      `${r.slack.length} Slack post(s), ${r.chat.length} chat notification(s) and email(s). ` +
      `Below, what each received; the raw payloads: --format json.\n`,
  );
  const over = overLoops(r.analyze);
  if (!opts.backfill && over > 0)
    out.write(
      `${over} loop(s) ended before this first analysis: they are in the report, not alerted ` +
        `(--backfill alerts them, as logs backfilled into a watched cluster would be).\n`,
    );
  const endedDrifts = clustersOf(r.analyze).reduce((n, c) => n + (c.endedDrifts ?? 0), 0);
  if (!opts.backfill && endedDrifts > 0)
    out.write(
      `${endedDrifts} drift(s) were already over (reverted, or the pod deleted) before this first analysis: ` +
        `they are in the report, not alerted (--backfill alerts them).\n`,
    );
  out.write('Report links are left out: they point into the emulator, which stops with this command.\n');
  const slackLeft = new Set(r.slack);
  const chatLeft = new Set(r.chat);
  r.sns.forEach((m, i) => {
    const id = String((m.body as { id?: unknown }).id ?? '');
    out.write(`\n━━ Alert ${i + 1} of ${r.sns.length}: ${m.subject}\n`);
    const slack = r.slack.find((p) => slackLeft.has(p) && id !== '' && JSON.stringify(p).includes(id));
    if (slack) {
      slackLeft.delete(slack);
      out.write(`\n── Slack\n${indent(slackAsRead(dead(slack)))}\n`);
    }
    const chat = r.chat.find((c) => chatLeft.has(c) && (c.notification as { id?: unknown }).id === id);
    if (chat) {
      chatLeft.delete(chat);
      out.write(`\n── Chat (Amazon Q Developer)\n${indent(chatAsRead(dead(chat.notification)))}\n`);
      out.write(`\n── Email: ${chat.subject}\n${indent(dead(chat.email.trimEnd()))}\n`);
    }
  });
  // Nothing a sink received goes unshown, matched to an alert or not.
  for (const p of slackLeft) out.write(`\n── Slack (no matching alert)\n${indent(slackAsRead(dead(p)))}\n`);
  for (const c of chatLeft) {
    out.write(`\n── Chat (no matching alert)\n${indent(chatAsRead(dead(c.notification)))}\n`);
    out.write(`\n── Email: ${c.subject}\n${indent(dead(c.email.trimEnd()))}\n`);
  }
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '   ');
}

/** Loops the analysis found that were over by the end of the data. */
function clustersOf(analyze: unknown): { loops?: number; activeLoops?: number; endedDrifts?: number }[] {
  return (
    (analyze as { clusters?: { loops?: number; activeLoops?: number; endedDrifts?: number }[] }).clusters ??
    []
  );
}

function overLoops(analyze: unknown): number {
  return clustersOf(analyze).reduce((n, c) => n + Math.max(0, (c.loops ?? 0) - (c.activeLoops ?? 0)), 0);
}
