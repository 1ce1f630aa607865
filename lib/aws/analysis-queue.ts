// The analysis queue between the schedule and the per-cluster analysis: one message per
// cluster per scheduled time. The queue is FIFO with the cluster as message group, so SQS
// hands Lambda at most one message of a cluster at a time (its runs never overlap and its
// alert state has one writer) while different clusters run side by side; the
// deduplication id makes a retried dispatch of the same schedule a no-op. Each request says
// when it was sent, by the sender's clock (after the facts it asks about were written), so
// the analysis can tell a request a finished run already covered (lib/alerts/coverage.ts).
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'crypto';
import { clusterSegment } from './bucket-layout';

export interface AnalysisRequest {
  cluster: string;
  /**
   * The schedule's time (RFC 3339): the run's "now", so a late run analyses the window it was
   * meant for; on evidence, the newest event of the facts that asked.
   */
  time: string;
  /**
   * `evidence`: the ingest asked (lib/alerts/evidence.ts), and the run reads up to the newest
   * facts present, not only to `time`, so it covers every request queued behind it. Absent: the schedule.
   */
  reason?: 'evidence';
  /** When it was sent (RFC 3339, the sender's clock); absent in requests sent before it was recorded. */
  sentAt?: string;
}

export function encodeAnalysisRequest(r: AnalysisRequest): string {
  return JSON.stringify({
    cluster: r.cluster,
    time: r.time,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.sentAt ? { sentAt: r.sentAt } : {}),
  });
}

/** Parses a message body; throws a message that says what is wrong with it. */
export function parseAnalysisRequest(body: string): AnalysisRequest {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    throw new Error(`analysis request is not JSON: ${body.slice(0, 200)}`);
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof o.cluster !== 'string' || o.cluster === '')
    throw new Error(`analysis request without a cluster: ${body.slice(0, 200)}`);
  if (typeof o.time !== 'string' || Number.isNaN(Date.parse(o.time)))
    throw new Error(`analysis request without a valid time: ${body.slice(0, 200)}`);
  if (o.reason !== undefined && o.reason !== 'evidence')
    throw new Error(`analysis request with an unknown reason: ${body.slice(0, 200)}`);
  if (o.sentAt !== undefined && (typeof o.sentAt !== 'string' || Number.isNaN(Date.parse(o.sentAt))))
    throw new Error(`analysis request with an invalid sentAt: ${body.slice(0, 200)}`);
  return {
    cluster: o.cluster,
    time: o.time,
    ...(o.reason === 'evidence' ? { reason: 'evidence' as const } : {}),
    ...(typeof o.sentAt === 'string' ? { sentAt: o.sentAt } : {}),
  };
}

/** When a request was sent (epoch ms): its own `sentAt`, else SQS's SentTimestamp; NaN when neither is known. */
export function requestSentMs(r: AnalysisRequest, sentTimestamp: string | undefined): number {
  if (r.sentAt) return Date.parse(r.sentAt);
  const n = Number(sentTimestamp);
  return sentTimestamp !== undefined && sentTimestamp !== '' && Number.isFinite(n) ? n : NaN;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** FIFO message group of a cluster: at most 128 characters of [A-Za-z0-9] and punctuation. */
export function messageGroupOf(cluster: string): string {
  const seg = clusterSegment(cluster);
  return seg.length <= 128 ? seg : sha(cluster);
}

export function deduplicationIdOf(r: AnalysisRequest): string {
  return sha(`${r.cluster}\n${r.time}`);
}

/**
 * Sends one request per cluster, ten per call, each stamped with the time of its call (after
 * whatever the caller wrote before); throws naming the clusters SQS refused.
 */
export async function sendAnalysisRequests(
  sqs: SQSClient,
  queueUrl: string,
  requests: readonly AnalysisRequest[],
): Promise<number> {
  let sent = 0;
  for (let i = 0; i < requests.length; i += 10) {
    const sentAt = new Date().toISOString();
    const chunk = requests.slice(i, i + 10).map((r) => ({ ...r, sentAt }));
    const res = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((r, j) => ({
          Id: String(j),
          MessageBody: encodeAnalysisRequest(r),
          MessageGroupId: messageGroupOf(r.cluster),
          MessageDeduplicationId: deduplicationIdOf(r),
        })),
      }),
    );
    const failed = res.Failed ?? [];
    if (failed.length > 0)
      throw new Error(
        `analysis queue refused ${failed
          .map((f) => `${chunk[Number(f.Id)]?.cluster ?? f.Id} (${f.Code ?? ''}: ${f.Message ?? ''})`)
          .join(', ')}`,
      );
    sent += chunk.length;
  }
  return sent;
}
