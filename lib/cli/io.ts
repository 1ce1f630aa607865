import type { S3Client } from '@aws-sdk/client-s3';

/** A bad flag or missing argument: exit 2 with the message and a pointer to --help. */
export class UsageError extends Error {}

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  s3Client?: () => Promise<S3Client>;
}
