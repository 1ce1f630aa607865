// S3 event notifications as they reach the ingest queue, read and (for backfill and the
// local pipeline) written. Pure: no SDK, just the JSON shapes of
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-content-structure.html
import type { S3Event, S3EventRecord } from 'aws-lambda';

export interface S3ObjectRef {
  bucket: string;
  /** Decoded object key. */
  key: string;
  size: number | null;
  /** ETag without quotes, as S3 notifications carry it; null when the message had none. */
  etag: string | null;
  /** When S3 says the object was created (the notification's eventTime), where it says so. */
  arrivedAt?: string;
  eventName: string;
}

export type ParsedNotification =
  { kind: 'test' } | { kind: 'objects'; objects: S3ObjectRef[]; ignored: string[] };

export class NotificationError extends Error {
  override name = 'NotificationError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** S3 URL-encodes keys in notifications, with `+` for spaces (form encoding). */
export function decodeNotificationKey(key: string): string {
  return decodeURIComponent(key.replace(/\+/g, ' '));
}

export function encodeNotificationKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');
}

/**
 * Parses one SQS message body from the bucket's notification. `s3:TestEvent` (sent once
 * when the notification is configured) is recognised and ignored; removal and other
 * non-create events are listed in `ignored`, never ingested.
 */
export function parseS3Notification(body: string): ParsedNotification {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    throw new NotificationError('message body is not JSON');
  }
  if (isRecord(v) && v.Event === 's3:TestEvent') return { kind: 'test' };
  // An SNS-wrapped notification (bucket → SNS → SQS without raw delivery) carries it in Message.
  if (isRecord(v) && v.Type === 'Notification' && typeof v.Message === 'string')
    return parseS3Notification(v.Message);
  if (!isRecord(v) || !Array.isArray(v.Records))
    throw new NotificationError('message body is not an S3 event notification');
  const objects: S3ObjectRef[] = [];
  const ignored: string[] = [];
  for (const r of v.Records as unknown[]) {
    if (!isRecord(r) || !isRecord(r.s3) || !isRecord(r.s3.bucket) || !isRecord(r.s3.object)) {
      throw new NotificationError('S3 notification record lacks s3.bucket or s3.object');
    }
    const eventName = typeof r.eventName === 'string' ? r.eventName : '';
    const bucket = r.s3.bucket.name;
    const key = r.s3.object.key;
    if (typeof bucket !== 'string' || typeof key !== 'string')
      throw new NotificationError('S3 notification record lacks bucket name or key');
    if (!eventName.startsWith('ObjectCreated:')) {
      ignored.push(`${eventName || 'unnamed event'} s3://${bucket}/${key}`);
      continue;
    }
    objects.push({
      bucket,
      key: decodeNotificationKey(key),
      size: typeof r.s3.object.size === 'number' ? r.s3.object.size : null,
      etag:
        typeof r.s3.object.eTag === 'string' && r.s3.object.eTag !== ''
          ? r.s3.object.eTag.replace(/^"|"$/g, '')
          : null,
      eventName,
      ...(typeof r.eventTime === 'string' && !Number.isNaN(Date.parse(r.eventTime))
        ? { arrivedAt: r.eventTime }
        : {}),
    });
  }
  return { kind: 'objects', objects, ignored };
}

/** An ObjectCreated notification for existing objects, shaped as S3 sends it (backfill, local pipeline). */
export function buildS3Notification(
  objects: readonly { bucket: string; key: string; size: number; etag: string }[],
  opts: { region: string; eventTime: Date; eventName?: string },
): S3Event {
  const Records: S3EventRecord[] = objects.map((o) => ({
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: opts.region,
    eventTime: opts.eventTime.toISOString(),
    eventName: opts.eventName ?? 'ObjectCreated:Put',
    userIdentity: { principalId: 'koperator-audit-backfill' },
    requestParameters: { sourceIPAddress: '127.0.0.1' },
    responseElements: { 'x-amz-request-id': 'backfill', 'x-amz-id-2': 'backfill' },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: 'koperator-audit-backfill',
      bucket: {
        name: o.bucket,
        ownerIdentity: { principalId: 'koperator-audit' },
        arn: `arn:aws:s3:::${o.bucket}`,
      },
      object: {
        key: encodeNotificationKey(o.key),
        size: o.size,
        eTag: o.etag.replace(/^"|"$/g, ''),
        sequencer: '0',
      },
    },
  }));
  return { Records };
}
