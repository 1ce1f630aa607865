// `npm run package`: `osls package` offline. Packaging needs no AWS call, but the
// provider still looks for credentials and a region; dummy ones keep it from reaching
// for a profile or the instance metadata service, and AWS_PROFILE is dropped so a
// developer's own profile is never touched.
//
// serverless-esbuild stages each function's zip in a folder of the temp folder and then
// fails to remove it (a non-recursive remove of a full folder, its error swallowed): four
// ~7 MB folders left in /tmp per run. It runs here with TMPDIR set to a private folder,
// removed afterwards, so packaging leaves nothing behind.
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { helpRequested } from './usage';

helpRequested(
  process.argv.slice(2),
  'Usage: npm run package [-- osls package options, e.g. --stage test --package DIR]\n\n' +
    'Packages the deployment offline (osls package), without AWS credentials.\n',
);

const root = path.join(__dirname, '..');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  AWS_ACCESS_KEY_ID: 'AKIAPACKAGEONLY00000',
  AWS_SECRET_ACCESS_KEY: 'package-only-not-a-secret',
  AWS_REGION: process.env.AWS_REGION || 'us-east-1',
  AWS_SDK_LOAD_CONFIG: '0',
  AWS_EC2_METADATA_DISABLED: 'true',
  SLS_TELEMETRY_DISABLED: '1',
  SLS_NOTIFICATIONS_MODE: 'off',
};
delete env.AWS_PROFILE;
delete env.AWS_SESSION_TOKEN;
const scratch = mkdtempSync(path.join(tmpdir(), 'koperator-audit-package-tmp-'));
env.TMPDIR = scratch;

// One packaging at a time per checkout: osls and serverless-esbuild work in folders of the
// checkout (.serverless, .esbuild), and two packagings at once (parallel test suites) raced
// there until one hung. mkdir is atomic; a lock older than the longest packaging is stale.
const lock = path.join(root, '.package.lock');
const STALE_MS = 10 * 60_000;
const waitUntil = Date.now() + 2 * STALE_MS;
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // Released meanwhile: try again.
    }
    if (Date.now() > waitUntil) throw new Error(`another packaging holds ${lock}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}
let status = 1;
try {
  const cli = path.join(root, 'node_modules', 'osls', 'bin', 'serverless.js');
  const res = spawnSync(process.execPath, [cli, 'package', ...process.argv.slice(2)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  status = res.status ?? 1;
} finally {
  rmSync(lock, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);
