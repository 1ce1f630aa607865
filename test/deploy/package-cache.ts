// `npm run package` for the deploy suites, each parameter set packaged at most once and
// shared: package.test.ts, eks-package.test.ts and aws-rules.test.ts (rules/packaged-sets.ts)
// all ask here, in whichever Jest worker, and the first to need a set packages it while
// the others wait for it. Each osls package takes ~15 s of a CPU, and the three suites
// packaged the default set three times.
//
// An entry is keyed by a hash of everything packaging reads (serverless.yml, infra/,
// functions/, lib/, scripts/, package.json, package-lock.json, tsconfig.json) and the set's
// stage and params, so it is reused across runs while nothing changed and never read once
// anything did: a changed file is another key. The base set's key also holds the Node major:
// it bundles, and package.test.ts checks that packaging works as a user's would on each Node
// the project supports. The other sets only render the template from the base set's bundles,
// and a template is a function of the tree and params alone, so under a second Node they are
// read, not packaged again (CI runs the suite under Node 22, then 24: 13 osls runs saved). An entry
// appears whole or not at all (packaged into a folder of its own, then renamed), and a
// lock per key keeps two workers from packaging the same set at once; osls runs still
// take turns through the checkout's lock in scripts/serverless-package.ts.
//
// Every packaging runs as a user's would: `npm run package` without any AWS credentials,
// profile or region, with HOME and TMPDIR folders of its own. What it left in that
// TMPDIR is kept with the entry (package.test.ts asserts it is nothing), so the check
// holds for the very packaging whose output the suites read.
//
// KOPERATOR_AUDIT_PACKAGE_CACHE=<dir> puts the cache elsewhere (default
// node_modules/.cache/koperator-audit-package); deleting the folder forces packaging.
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import { existsSync, promises as fs, readdirSync, readFileSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const root = path.join(__dirname, '..', '..');
const TEMPLATE = 'cloudformation-template-update-stack.json';
/** What packaging reads: a change in any of these is a new key. */
const INPUTS = [
  'serverless.yml',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'infra',
  'functions',
  'lib',
  'scripts',
];
/** Bumped when an entry's contents change meaning. */
const FORMAT = 'koperator-audit-package-cache/2';
/** A lock older than the longest packaging (one set waits for its base set's too) is stale. */
const STALE_MS = 15 * 60_000;
/** Entries of other keys (older trees) are pruned once unused this long. */
const PRUNE_MS = 24 * 3_600_000;

export interface PackageSpec {
  stage: string;
  params: Record<string, string>;
}

/** The set every other one reuses the bundles of: the one that bundles. */
export const BASE_SPEC: PackageSpec = { stage: 'test', params: {} };

export interface PackageRun {
  status: number | null;
  output: string;
}

export interface PackagedEntry {
  key: string;
  /** The template osls would upload (read once: the folder may be pruned by a later tree). */
  template: unknown;
  /** The files of the package folder (zips, templates, state). */
  files: string[];
  /** What the packaging left in its own TMPDIR, as listed right after it ended. */
  leftInTmp: string[];
  /** True when this process packaged it, false when it was already there. */
  packagedHere: boolean;
}

export function cacheRoot(): string {
  return (
    process.env.KOPERATOR_AUDIT_PACKAGE_CACHE ??
    path.join(root, 'node_modules', '.cache', 'koperator-audit-package')
  );
}

function hashTree(h: ReturnType<typeof createHash>, base: string, rel: string): void {
  const abs = path.join(base, rel);
  if (!existsSync(abs)) {
    h.update(`absent ${rel}\n`);
    return;
  }
  if (statSync(abs).isDirectory()) {
    for (const name of readdirSync(abs).sort()) hashTree(h, base, path.posix.join(rel, name));
    return;
  }
  const content = readFileSync(abs);
  h.update(`${rel} ${content.length}\n`).update(content);
}

/** The running Node's major version; KOPERATOR_AUDIT_NODE_MAJOR stands in for it in tests. */
export function nodeMajor(): string {
  return process.env.KOPERATOR_AUDIT_NODE_MAJOR ?? process.versions.node.split('.')[0]!;
}

/** The hash of what packaging reads in a checkout (this one by default), now. */
export function inputsHash(checkout: string = root): string {
  const h = createHash('sha256').update(`${FORMAT}\n`);
  for (const rel of INPUTS) hashTree(h, checkout, rel);
  return h.digest('hex');
}

export function entryKey(inputs: string, spec: PackageSpec): string {
  const params = Object.entries(spec.params).sort(([a], [b]) => a.localeCompare(b));
  const isBase = spec.stage === BASE_SPEC.stage && params.length === 0;
  const set = createHash('sha256')
    .update(JSON.stringify([spec.stage, params, isBase ? `node ${nodeMajor()}` : '']))
    .digest('hex');
  return `${inputs.slice(0, 24)}-${set.slice(0, 16)}`;
}

/**
 * `npm run package` for a stage and params into `outDir`, as a user without AWS
 * credentials would run it, with HOME and TMPDIR of its own (`tmp`, which it should leave empty).
 */
export function runPackage(
  spec: PackageSpec,
  outDir: string,
  dirs: { home: string; tmp: string },
  extraEnv: Record<string, string> = {},
): Promise<PackageRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dirs.home, TMPDIR: dirs.tmp, ...extraEnv };
  // No credentials, profile or region at all: the script must bring its own dummies.
  for (const k of [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
  ])
    delete env[k];
  const args = ['run', '--silent', 'package', '--', '--stage', spec.stage, '--package', outDir];
  for (const [k, v] of Object.entries(spec.params)) args.push('--param', `${k}=${v}`);
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Holds `lock` (a folder naming its owner) while `fn` runs; a dead owner's or an old lock is taken over. */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const until = Date.now() + 2 * STALE_MS;
  for (;;) {
    try {
      await fs.mkdir(lock);
      await fs.writeFile(path.join(lock, 'owner'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(await fs.readFile(path.join(lock, 'owner'), 'utf8').catch(() => 'NaN'));
      const age = Date.now() - ((await fs.stat(lock).catch(() => null))?.mtimeMs ?? Date.now());
      // An owner not yet written is a lock just taken: wait for it like any other.
      if ((Number.isInteger(owner) && !alive(owner)) || age > STALE_MS)
        await fs.rm(lock, { recursive: true, force: true });
      else if (Date.now() > until) throw new Error(`${lock} is held by ${owner}`);
      else await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

async function read(dir: string, key: string, packagedHere: boolean): Promise<PackagedEntry> {
  const files = (await fs.readdir(dir)).filter((f) => f !== 'left-in-tmp.json' && f !== 'output.txt').sort();
  return {
    key,
    template: JSON.parse(await fs.readFile(path.join(dir, TEMPLATE), 'utf8')),
    files,
    leftInTmp: JSON.parse(await fs.readFile(path.join(dir, 'left-in-tmp.json'), 'utf8')) as string[],
    packagedHere,
  };
}

/** Entries of other trees, unused for a day: the cache does not grow without bound. */
async function prune(cache: string, inputs: string): Promise<void> {
  for (const name of await fs.readdir(cache)) {
    if (name.startsWith(inputs.slice(0, 24))) continue;
    const at = (await fs.stat(path.join(cache, name)).catch(() => null))?.mtimeMs;
    if (at !== undefined && Date.now() - at > PRUNE_MS)
      await fs.rm(path.join(cache, name), { recursive: true, force: true });
  }
}

/** Packages `spec` into `out` (an empty folder), from the bundles in `base` unless null; throws on failure. */
export type Fill = (spec: PackageSpec, out: string, base: string | null) => Promise<void>;

async function fill(
  cache: string,
  key: string,
  spec: PackageSpec,
  base: string | null,
  pack: Fill,
): Promise<void> {
  const work = await fs.mkdtemp(path.join(cache, `${key}.fill-`));
  try {
    const out = path.join(work, 'package');
    await fs.mkdir(out);
    await pack(spec, out, base);
    await fs.rename(out, path.join(cache, key));
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The real thing: `npm run package`, its TMPDIR's leftovers and its output kept beside its files. */
export const osls: Fill = async (spec, out, base) => {
  const home = await fs.mkdtemp(path.join(tmpdir(), 'koperator-audit-package-home-'));
  const tmp = await fs.mkdtemp(path.join(tmpdir(), 'koperator-audit-package-tmpdir-'));
  try {
    // The bundles do not depend on params: a set other than the base one reuses the base
    // set's (serverless-esbuild's skipBuild, in a work folder of its own).
    let extraEnv: Record<string, string> = {};
    if (base !== null) {
      for (const z of (await fs.readdir(base)).filter((f) => f.endsWith('.zip')))
        await fs.copyFile(path.join(base, z), path.join(out, z));
      extraEnv = {
        KOPERATOR_AUDIT_REUSE_BUNDLES: 'true',
        KOPERATOR_AUDIT_ESBUILD_WORK: `.esbuild-rules-${process.pid}`,
      };
    }
    const run = await runPackage(spec, out, { home, tmp }, extraEnv);
    if (run.status !== 0)
      throw new Error(`npm run package ${JSON.stringify(spec)} failed (${run.status}):\n${run.output}`);
    await fs.writeFile(path.join(out, 'left-in-tmp.json'), JSON.stringify((await fs.readdir(tmp)).sort()));
    await fs.writeFile(path.join(out, 'output.txt'), run.output);
  } finally {
    await fs.rm(home, { recursive: true, force: true });
    await fs.rm(tmp, { recursive: true, force: true });
  }
};

export interface CacheOptions {
  /** inputsHash() of the tree; computed when not given. */
  inputs?: string;
  /** The cache folder; cacheRoot() when not given. */
  cache?: string;
  /** How a missing entry is made; `npm run package` when not given. */
  fill?: Fill;
}

/** The packaged set, from the cache or packaged now (the base set first, for its bundles). */
export async function packaged(spec: PackageSpec, opts: CacheOptions = {}): Promise<PackagedEntry> {
  const inputs = opts.inputs ?? inputsHash();
  const cache = opts.cache ?? cacheRoot();
  const pack = opts.fill ?? osls;
  await fs.mkdir(cache, { recursive: true });
  const key = entryKey(inputs, spec);
  const dir = path.join(cache, key);
  const isBase = key === entryKey(inputs, BASE_SPEC);
  const hit = async (): Promise<PackagedEntry | null> => {
    if (!existsSync(dir)) return null;
    const now = new Date();
    await fs.utimes(dir, now, now);
    return read(dir, key, false);
  };
  const found = await hit();
  if (found) return found;
  const base = isBase ? null : await packaged(BASE_SPEC, { inputs, cache, fill: pack });
  return withLock(`${dir}.lock`, async () => {
    const meanwhile = await hit();
    if (meanwhile) return meanwhile;
    await fill(cache, key, spec, base ? path.join(cache, base.key) : null, pack);
    await prune(cache, inputs);
    return read(dir, key, true);
  });
}
