// At-least-once delivery, played against a real queue: the same S3 notification sent
// several times in a shuffled order, and a driver that, like Lambda scaling out on a
// busy queue, receives every visible batch first and then invokes the handler on all of
// them at once. Successes are deleted, reported failures made visible again at once.
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SQSEvent } from 'aws-lambda';
import { listObjects } from '../../lib/aws/backfill';
import { receiveBatch, type SqsHandler } from '../../lib/local-aws/local-stack';
import { lambdaContext, sqsEventFromMessages } from '../../lib/local-aws/local-lambda';
import { buildS3Notification } from '../../lib/aws/s3-events';

/** A small deterministic generator (mulberry32), so a failing order can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The ObjectCreated notification S3 sends for each object under `prefix`, as message bodies. */
export async function notificationsFor(
  s3: S3Client,
  bucket: string,
  prefix: string,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const o of listObjects(s3, { bucket, prefix }))
    out.set(o.key, JSON.stringify(buildS3Notification([o], { region: 'us-east-1', eventTime: new Date(0) })));
  return out;
}

export async function sendAll(sqs: SQSClient, queueUrl: string, bodies: readonly string[]): Promise<void> {
  for (const body of bodies)
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
}

export interface ConcurrentDrive {
  /** Rounds of concurrent invocations. */
  rounds: number;
  invocations: number;
  /** Message ids reported failed, per invocation. */
  failures: string[][];
  /** Invocations that threw (Lambda fails the whole batch). */
  thrown: unknown[];
}

/**
 * Until the queue is empty: receive every visible message in batches of `batchSize`
 * (received messages stay invisible for the queue's visibility timeout, so no two
 * batches hold the same delivery), invoke the handler on all batches concurrently, then
 * delete what succeeded and make the failures visible again.
 */
export async function driveConcurrently(
  sqs: SQSClient,
  queueUrl: string,
  queueArn: string,
  handler: SqsHandler,
  opts: { batchSize?: number; maxRounds?: number } = {},
): Promise<ConcurrentDrive> {
  const out: ConcurrentDrive = { rounds: 0, invocations: 0, failures: [], thrown: [] };
  while (out.rounds < (opts.maxRounds ?? 20)) {
    const batches: Awaited<ReturnType<typeof receiveBatch>>[] = [];
    for (;;) {
      const b = await receiveBatch(sqs, queueUrl, opts.batchSize ?? 3);
      if (b.length === 0) break;
      batches.push(b);
    }
    if (batches.length === 0) return out;
    out.rounds++;
    const events: SQSEvent[] = batches.map((b) => sqsEventFromMessages(b, queueArn));
    const results = await Promise.allSettled(events.map((e) => handler(e, lambdaContext('ingest'))));
    for (let i = 0; i < batches.length; i++) {
      out.invocations++;
      const r = results[i]!;
      const failed = new Set<string>();
      if (r.status === 'rejected') {
        out.thrown.push(r.reason);
        for (const m of batches[i]!) failed.add(m.MessageId ?? '');
      } else {
        for (const f of r.value?.batchItemFailures ?? []) failed.add(f.itemIdentifier);
      }
      out.failures.push([...failed]);
      for (const m of batches[i]!) {
        if (failed.has(m.MessageId ?? ''))
          await sqs.send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: queueUrl,
              ReceiptHandle: m.ReceiptHandle,
              VisibilityTimeout: 0,
            }),
          );
        else await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }));
      }
    }
  }
  return out;
}
