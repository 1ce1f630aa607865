// The alert state object, read with its ETag and written back only if nobody else wrote
// it in between (S3 conditional writes: If-Match for an update, If-None-Match: * for the
// first write). See infra/README-deploy.md, "Alert state and concurrency": the emulator
// used in tests (fauxqs 1.9) ignores these headers on PutObject, so the deployment also
// keeps one run per cluster at a time (the FIFO analysis queue's message group is the
// cluster); real S3 enforces them and they protect against a manual invocation racing the
// schedule.
import { GetObjectCommand, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { explainDeniedRead, isMissingKey } from './s3-missing-key';

export class AlertStateConflictError extends Error {
  override name = 'AlertStateConflictError';
}

export interface StoredState {
  text: string | null;
  /** ETag of the object read, null when there is none yet. */
  etag: string | null;
}

function status(e: unknown): number | undefined {
  return e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined;
}

export async function loadAlertState(s3: S3Client, bucket: string, key: string): Promise<StoredState> {
  try {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return { text: (await res.Body?.transformToString('utf8')) ?? '', etag: res.ETag ?? null };
  } catch (e) {
    if (isMissingKey(e)) return { text: null, etag: null };
    throw explainDeniedRead(e, bucket, key);
  }
}

/** Writes the state if it is still the version read (`expectedEtag`, or none); returns the new ETag. */
export async function saveAlertState(
  s3: S3Client,
  bucket: string,
  key: string,
  text: string,
  expectedEtag: string | null,
): Promise<string | null> {
  try {
    const res = await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: text,
        ContentType: 'application/json',
        ...(expectedEtag === null ? { IfNoneMatch: '*' } : { IfMatch: expectedEtag }),
      }),
    );
    return res.ETag ?? null;
  } catch (e) {
    // 412: someone wrote it since we read it. 409: a concurrent conditional write is in flight.
    if (status(e) === 412 || status(e) === 409) {
      throw new AlertStateConflictError(`alert state s3://${bucket}/${key} changed since it was read`);
    }
    throw e;
  }
}
