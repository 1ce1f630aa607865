import type { S3Client } from '@aws-sdk/client-s3';

/** A bad flag or missing argument: exit 2 with the message and a pointer to --help. */
export class UsageError extends Error {}

/** A clear failure that is not a usage error (an unreadable S3 prefix for backfill): one line, `code`. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface S3ClientOptions {
  /** --region; the SDK's own chain (AWS_REGION, the profile) when absent. */
  region?: string;
}

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream;
  s3Client?: (opts: S3ClientOptions) => Promise<S3Client>;
  /**
   * The bundled ingest worker (dist/ingest-worker.js, beside the bundled command). Absent
   * (the command run from source, in tests), inputs are read on the main thread.
   */
  ingestWorker?: string;
  /** Print stacks of unexpected errors (--debug). */
  debug?: boolean;
}
