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
import { mkdtempSync, rmSync } from 'fs';
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

const cli = path.join(root, 'node_modules', 'osls', 'bin', 'serverless.js');
const res = spawnSync(process.execPath, [cli, 'package', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
rmSync(scratch, { recursive: true, force: true });
process.exit(res.status ?? 1);
