// The parameter sets the template checks run over, each packaged by `npm run package`
// exactly as a user would, once per test run. The first (default) set bundles; the others
// reuse its bundles (serverless-esbuild's skipBuild, each in its own work folder), since
// the bundles do not depend on parameters, so all of them cost one bundling.
import { spawn } from 'child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { Template } from './template';

export interface ParameterSet {
  name: string;
  stage: string;
  params: Record<string, string>;
}

export const KMS_KEY = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
export const WEBHOOK_KEY = 'arn:aws:kms:us-east-1:123456789012:key/abcd1234-ab12-cd34-ef56-abcdef123456';

export const PARAMETER_SETS: readonly ParameterSet[] = [
  { name: 'default', stage: 'test', params: {} },
  { name: 'existing bucket', stage: 'test', params: { existingBucketName: 'acme-eks-audit-logs' } },
  { name: 'KMS', stage: 'test', params: { kmsKeyArn: KMS_KEY, slackWebhookKmsKeyArn: WEBHOOK_KEY } },
  { name: 'EventBridge', stage: 'test', params: { eventBridge: 'true' } },
  // 31 characters: the longest stage infra/names.cjs admits.
  { name: 'long stage', stage: 'production-eu-west-1-team-kafka', params: {} },
  { name: 'hyphenated stage', stage: 'team-a-prod', params: {} },
  // Pre-signed links: no report-link function, no link secret.
  { name: 'presigned links', stage: 'test', params: { reportLink: 'presigned' } },
];

const root = path.join(__dirname, '..', '..', '..');

export interface PackageRun {
  status: number | null;
  output: string;
}

/** `npm run package` for a stage and params into `outDir`, without AWS credentials. */
export function runPackage(
  stage: string,
  params: Record<string, string>,
  outDir: string,
  extraEnv: Record<string, string> = {},
): Promise<PackageRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: outDir, ...extraEnv };
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'])
    delete env[k];
  const args = ['run', '--silent', 'package', '--', '--stage', stage, '--package', outDir];
  for (const [k, v] of Object.entries(params)) args.push('--param', `${k}=${v}`);
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

export interface Packaged {
  set: ParameterSet;
  template: Template;
}

/** Packages every set (the default one first, bundling); throws with osls' output on failure. */
export async function packageAll(sets: readonly ParameterSet[] = PARAMETER_SETS): Promise<Packaged[]> {
  // KOPERATOR_AUDIT_PACKAGED=<dir>: package into that folder and keep it; when it already
  // holds every set's template, reuse them (for working on the checks themselves only).
  const keep = process.env.KOPERATOR_AUDIT_PACKAGED;
  const work = keep ?? mkdtempSync(path.join(tmpdir(), 'koperator-audit-rules-'));
  const dirs = sets.map((_, i) => path.join(work, `set-${i}`));
  const read = (dir: string): Template =>
    JSON.parse(readFileSync(path.join(dir, 'cloudformation-template-update-stack.json'), 'utf8')) as Template;
  const check = (set: ParameterSet, r: PackageRun): void => {
    if (r.status !== 0) throw new Error(`npm run package (${set.name}) failed (${r.status}):\n${r.output}`);
  };
  const kept = (): boolean =>
    keep !== undefined &&
    dirs.every((d) => existsSync(path.join(d, 'cloudformation-template-update-stack.json')));
  try {
    if (kept()) return sets.map((set, i) => ({ set, template: read(dirs[i]!) }));
    const [first, ...rest] = sets;
    if (!first) return [];
    check(first, await runPackage(first.stage, first.params, dirs[0]!));
    const zips = readdirSync(dirs[0]!).filter((f) => f.endsWith('.zip'));
    // One after another: serverless-esbuild copies the reused bundles through the service
    // folder's .serverless/, which runs side by side would race on.
    const runs: PackageRun[] = [];
    for (const [i, set] of rest.entries()) {
      const dir = dirs[i + 1]!;
      mkdirSync(dir, { recursive: true });
      for (const z of zips) copyFileSync(path.join(dirs[0]!, z), path.join(dir, z));
      runs.push(
        await runPackage(set.stage, set.params, dir, {
          KOPERATOR_AUDIT_REUSE_BUNDLES: 'true',
          KOPERATOR_AUDIT_ESBUILD_WORK: `.esbuild-rules-${process.pid}`,
        }),
      );
    }
    rest.forEach((set, i) => check(set, runs[i]!));
    return sets.map((set, i) => ({ set, template: read(dirs[i]!) }));
  } finally {
    if (keep === undefined) rmSync(work, { recursive: true, force: true });
  }
}
