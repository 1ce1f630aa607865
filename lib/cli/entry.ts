// Process edge of the CLI: real streams, a lazily made S3 client, the exit code.
import type { S3Client } from '@aws-sdk/client-s3';
import { main } from './main';

// The pinned AWS SDK supports this Node; its once-per-process notice that releases after
// January 2027 need Node 22 is for maintainers (README, "Dependencies"), not for users of
// the command. The SDK reads the variable when a client is made, i.e. after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

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
