// Reads of keys that may not exist yet (a cluster's first alert state, its findings
// history): S3 answers 404 NoSuchKey only to a caller allowed s3:ListBucket on the bucket,
// and 403 AccessDenied to any other, so a 403 cannot be told apart from a real denial.
// Only the 404 means "absent"; a 403 is reported with the permission that fixes it
// rather than read as absent (which would also hide a real denial, e.g. a KMS key policy).
import { S3ServiceException } from '@aws-sdk/client-s3';

export function isMissingKey(e: unknown): boolean {
  return e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404);
}

/** The error to throw instead of a 403 on such a read; other errors pass unchanged. */
export function explainDeniedRead(e: unknown, bucket: string, key: string): unknown {
  if (!(e instanceof S3ServiceException) || e.$metadata.httpStatusCode !== 403) return e;
  return new Error(
    `access denied reading s3://${bucket}/${key} (${e.name}): if the object does not exist yet, ` +
      `S3 answers 403 instead of 404 unless the role may s3:ListBucket on the bucket ` +
      `(no s3:prefix condition); otherwise a bucket or KMS key policy denies the read`,
    { cause: e },
  );
}
