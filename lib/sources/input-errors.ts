// Why an input could not be listed or opened, in the words a user acts on. The errors
// come from Node's fs (codes like ENOENT) and from the AWS SDK (error names like
// NoSuchBucket, or plain messages like "Region is missing"); both are matched on their
// shape here, so this file needs neither the SDK nor a live error to be tested.
import type { InputError } from '../model/findings';

interface ErrorShape {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links (a link loop?)',
  EISDIR: 'a folder where a file was expected',
  EMFILE: 'too many open files',
  EIO: 'I/O error reading the disk',
};

const S3_REASONS: Record<string, string> = {
  NoSuchBucket: 'no such bucket',
  AccessDenied: 'access denied (the credentials may not list or read this bucket or prefix)',
  AllAccessDisabled: 'access denied (all access to this bucket is disabled)',
  InvalidAccessKeyId: 'the AWS access key ID is not valid',
  SignatureDoesNotMatch: 'the AWS secret access key does not match the access key ID',
  ExpiredToken: 'the AWS session token has expired (log in again)',
  TokenRefreshRequired: 'the AWS session token has expired (log in again)',
  InvalidToken: 'the AWS session token is not valid',
  NoSuchKey: 'the object is gone (deleted after it was listed?)',
  PermanentRedirect: 'the bucket is in another region (set AWS_REGION or --region to its region)',
  AuthorizationHeaderMalformed: 'the bucket is in another region (set AWS_REGION or --region to its region)',
  InvalidBucketName: 'not a valid bucket name',
  SlowDown: 'S3 throttled the requests (try again later)',
};

/** Plain words for why `e` stopped an input. */
export function describeInputError(e: unknown): string {
  const err = (e && typeof e === 'object' ? e : { message: String(e) }) as ErrorShape;
  const message = err.message ?? '';
  if (err.code && FS_REASONS[err.code]) return FS_REASONS[err.code];
  if (/region is missing/i.test(message)) return 'no AWS region (set AWS_REGION or --region)';
  if (err.name === 'CredentialsProviderError' || /could not load credentials/i.test(message))
    return 'no AWS credentials (set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)';
  const s3 = S3_REASONS[err.name ?? ''] ?? S3_REASONS[err.Code ?? ''];
  if (s3) return s3;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return `cannot reach the AWS endpoint (${message})`;
  if (err.code === 'ETIMEDOUT' || err.name === 'TimeoutError') return 'the request to AWS timed out';
  const status = err.$metadata?.httpStatusCode;
  if (status === 403) return 'access denied (HTTP 403)';
  if (status === 404) return 'not found (HTTP 404)';
  return message.split('\n')[0] || err.name || 'unknown error';
}

/** `input: reason`, the one line each failed input gets. */
export function inputErrorLine(e: InputError): string {
  return `${e.input}: ${e.reason}`;
}
