// Starts a real fauxqs server (S3/SNS/SQS emulator) as a child process on a free port,
// for the integration tests and `koperator-audit local-pipeline`: both talk the AWS SDK's
// wire protocol to it instead of mocks. fauxqs is ESM-only; a separate process also keeps
// it out of Jest's module system and out of the CLI bundle.
//
// fauxqs builds its Fastify server with an 11 MiB body limit (dist/app.js, "large enough
// for S3 multipart parts") and has no option for it, so a single PutObject above 11 MiB,
// which S3 takes up to 5 GiB, fails with "XML parse error: unexpected content". The child
// therefore starts with a module-resolution hook that hands fauxqs's app, and only it, a
// Fastify factory with S3's limit (capped at what one Node Buffer holds).
import { spawn, type ChildProcess } from 'child_process';
import { constants as bufferConstants } from 'buffer';
import { existsSync } from 'fs';
import { createServer } from 'net';
import * as path from 'path';

export interface Fauxqs {
  endpoint: string;
  region: string;
  /** Client settings for any @aws-sdk v3 client pointed at the emulator. */
  clientConfig: {
    endpoint: string;
    region: string;
    forcePathStyle: boolean;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** fauxqs's CLI script, found from wherever this file runs (lib/ under ts-jest, dist/ when bundled). */
function fauxqsCli(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const cli = path.join(dir, 'node_modules', 'fauxqs', 'dist', 'cli.js');
    if (existsSync(cli)) return cli;
    if (path.dirname(dir) === dir)
      throw new Error('fauxqs is not installed (it is a devDependency: run npm ci)');
  }
}

/** What one S3 PutObject may carry, and so what the stand-in must accept. */
export const S3_MAX_PUT_BYTES = 5 * 1024 ** 3;
export const FAUXQS_BODY_LIMIT = Math.min(S3_MAX_PUT_BYTES, bufferConstants.MAX_LENGTH);

/** The `--import` module that registers the hook (data: URLs, so nothing is written to disk or bundled apart). */
function bodyLimitHook(limit: number): string {
  const hooks = [
    'export async function resolve(specifier, context, next) {',
    '  const r = await next(specifier, context);',
    "  if (specifier !== 'fastify' || !String(context.parentURL).endsWith('/fauxqs/dist/app.js')) return r;",
    `  const src = 'import F from ' + JSON.stringify(r.url) + '; export default (o) => F({ ...o, bodyLimit: ${limit} });';`,
    "  return { url: 'data:text/javascript,' + encodeURIComponent(src), shortCircuit: true };",
    '}',
  ].join('\n');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(
    'data:text/javascript,' + encodeURIComponent(hooks),
  )});`;
  return 'data:text/javascript,' + encodeURIComponent(register);
}

export async function startFauxqs(): Promise<Fauxqs> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', bodyLimitHook(FAUXQS_BODY_LIMIT), fauxqsCli()],
    {
      env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_LOGGER: 'false', FAUXQS_HOST: 'localhost' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`fauxqs exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(`${endpoint}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`fauxqs did not become healthy on ${endpoint}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const region = 'us-east-1';
  return {
    endpoint,
    region,
    clientConfig: {
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
