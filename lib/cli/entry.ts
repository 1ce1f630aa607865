// Process edge of the CLI: real streams, a lazily made S3 client, the exit code.
import { existsSync } from 'fs';
import * as path from 'path';
import type { S3Client } from '@aws-sdk/client-s3';
import { EXIT } from './exit-codes';
import { main } from './main';

// The pinned AWS SDK supports this Node; its once-per-process notice that releases after
// January 2027 need Node 22 is for maintainers (README, "Dependencies"), not for users of
// the command. The SDK reads the variable when a client is made, i.e. after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const clients = new Map<string, S3Client>();
const WORKER = path.join(__dirname, 'ingest-worker.js');

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  // Bundled beside this file by scripts/build-cli.mjs; a bundle built before the worker
  // existed reads on one thread (the same findings, only slower) rather than failing every file.
  ingestWorker: existsSync(WORKER) ? WORKER : undefined,
  s3Client: async ({ region }) => {
    const key = region ?? '';
    let client = clients.get(key);
    if (!client) {
      const { S3Client } = await import('@aws-sdk/client-s3');
      // An emulator on 127.0.0.1 has no bucket subdomains (lib/aws/clients.ts reads the same variable).
      client = new S3Client({
        ...(region ? { region } : {}),
        forcePathStyle: process.env.KOPERATOR_AUDIT_S3_PATH_STYLE === 'true',
      });
      clients.set(key, client);
    }
    return client;
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // main() reports every error itself; this is the last guard, still without a stack.
    process.stderr.write(`koperator-audit: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = EXIT.internal;
  },
);
