// `npm run package`: `osls package` offline. Packaging needs no AWS call, but the
// provider still looks for credentials and a region; dummy ones keep it from reaching
// for a profile or the instance metadata service, and AWS_PROFILE is dropped so a
// developer's own profile is never touched.
import { spawnSync } from 'child_process';
import * as path from 'path';

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

const cli = path.join(root, 'node_modules', 'osls', 'bin', 'serverless.js');
const res = spawnSync(process.execPath, [cli, 'package', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
