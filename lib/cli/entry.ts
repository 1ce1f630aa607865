// Process edge of the CLI: real streams, a lazily made S3 client, the exit code.
import type { S3Client } from '@aws-sdk/client-s3';
import { main } from './main';

let s3: S3Client | undefined;

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  s3Client: async () => (s3 ??= new (await import('@aws-sdk/client-s3')).S3Client({})),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`koperator-audit: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
