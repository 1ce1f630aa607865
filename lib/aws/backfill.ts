// Enqueues existing objects into the ingest queue as S3 ObjectCreated notifications, so
// logs that landed before the deployment (or while ingest was broken) take the same path
// as new ones. One object per message, as S3 itself sends them: one bad object then
// fails, retries and dead-letters alone.
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { buildS3Notification } from './s3-events';
import type { S3Location } from './s3-source';

export interface ListedObject {
  bucket: string;
  key: string;
  size: number;
  etag: string;
}

export async function* listObjects(s3: S3Client, loc: S3Location): AsyncGenerator<ListedObject> {
  let token: string | undefined;
  do {
    const res = await s3.send(
      new ListObjectsV2Command({ Bucket: loc.bucket, Prefix: loc.prefix, ContinuationToken: token }),
    );
    for (const o of res.Contents ?? []) {
      // "Folder" placeholder objects hold no logs.
      if (!o.Key || o.Key.endsWith('/')) continue;
      yield { bucket: loc.bucket, key: o.Key, size: o.Size ?? 0, etag: (o.ETag ?? '').replace(/^"|"$/g, '') };
    }
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
}

export interface EnqueueResult {
  objects: number;
  failed: { key: string; reason: string }[];
}

/** Sends one notification per object, ten messages per SendMessageBatch call. */
export async function enqueueObjects(
  sqs: SQSClient,
  queueUrl: string,
  objects: AsyncIterable<ListedObject>,
  opts: { region: string; now?: () => Date; onObject?: (o: ListedObject) => void },
): Promise<EnqueueResult> {
  const now = opts.now ?? (() => new Date());
  const out: EnqueueResult = { objects: 0, failed: [] };
  let batch: ListedObject[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const entries = batch.map((o, i) => ({
      Id: String(i),
      MessageBody: JSON.stringify(buildS3Notification([o], { region: opts.region, eventTime: now() })),
    }));
    const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    for (const f of res.Failed ?? [])
      out.failed.push({ key: batch[Number(f.Id)]?.key ?? '?', reason: f.Message ?? f.Code ?? 'failed' });
    out.objects += batch.length - (res.Failed?.length ?? 0);
    batch = [];
  };
  for await (const o of objects) {
    opts.onObject?.(o);
    batch.push(o);
    if (batch.length === 10) await flush();
  }
  await flush();
  return out;
}
