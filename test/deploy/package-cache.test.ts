// The packaging cache the deploy suites share: what decides an entry's key, and that an
// entry is made once, whole, from the base set's bundles, and never read for another tree.
// The packaging itself is stood in for here (the deploy suites run the real one).
import { mkdirSync, mkdtempSync, promises as fs, readdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { BASE_SPEC, entryKey, inputsHash, packaged, type Fill, type PackageSpec } from './package-cache';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'koperator-audit-package-cache-test-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A checkout holding only what packaging reads, plus a test folder it does not. */
function checkout(): string {
  const dir = path.join(scratch, 'checkout');
  const files: Record<string, string> = {
    'serverless.yml': 'service: s\n',
    'package.json': '{}',
    'package-lock.json': '{}',
    'tsconfig.json': '{}',
    'infra/iam.yml': 'Resources: {}\n',
    'functions/ingest.ts': 'export {};\n',
    'lib/aws/clients.ts': 'export {};\n',
    'scripts/serverless-package.ts': 'export {};\n',
    'test/a.test.ts': 'it("x", () => {});\n',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

describe('the key of an entry', () => {
  it.each<[string, boolean, (dir: string) => unknown]>([
    [
      'a library file edited',
      true,
      (d) => writeFileSync(path.join(d, 'lib/aws/clients.ts'), 'export const x = 1;\n'),
    ],
    ['a file added to functions/', true, (d) => writeFileSync(path.join(d, 'functions/new.ts'), '')],
    [
      'a template edited',
      true,
      (d) => writeFileSync(path.join(d, 'infra/iam.yml'), 'Resources: { A: {} }\n'),
    ],
    ['the lockfile changed', true, (d) => writeFileSync(path.join(d, 'package-lock.json'), '{"v":2}')],
    [
      'the packaging script changed',
      true,
      (d) => writeFileSync(path.join(d, 'scripts/serverless-package.ts'), '//'),
    ],
    [
      'a file renamed',
      true,
      (d) => fs.rename(path.join(d, 'lib/aws/clients.ts'), path.join(d, 'lib/aws/c.ts')),
    ],
    ['only a test changed', false, (d) => writeFileSync(path.join(d, 'test/a.test.ts'), '')],
  ])('%s: a new key: %s', async (_, differs, change) => {
    const dir = checkout();
    const before = inputsHash(dir);
    await change(dir);
    expect(inputsHash(dir) !== before).toBe(differs);
  });

  it('tells sets apart, and not by the order params are given in', () => {
    const h = 'a'.repeat(64);
    const a = entryKey(h, { stage: 'test', params: { kmsKeyArn: 'k', eventBridge: 'true' } });
    expect(entryKey(h, { stage: 'test', params: { eventBridge: 'true', kmsKeyArn: 'k' } })).toBe(a);
    expect(entryKey(h, { stage: 'test', params: { eventBridge: 'true' } })).not.toBe(a);
    expect(entryKey(h, { stage: 'prod', params: { kmsKeyArn: 'k', eventBridge: 'true' } })).not.toBe(a);
    expect(
      entryKey('b'.repeat(64), { stage: 'test', params: { kmsKeyArn: 'k', eventBridge: 'true' } }),
    ).not.toBe(a);
  });

  it('packages the base set again under another Node, and reads the other sets packaged under any', () => {
    const h = 'a'.repeat(64);
    const other = { stage: 'test', params: { eventBridge: 'true' } };
    const under = (major: string, spec: PackageSpec): string => {
      const saved = process.env.KOPERATOR_AUDIT_NODE_MAJOR;
      process.env.KOPERATOR_AUDIT_NODE_MAJOR = major;
      try {
        return entryKey(h, spec);
      } finally {
        if (saved === undefined) delete process.env.KOPERATOR_AUDIT_NODE_MAJOR;
        else process.env.KOPERATOR_AUDIT_NODE_MAJOR = saved;
      }
    };
    expect(under('22', BASE_SPEC)).not.toBe(under('24', BASE_SPEC));
    expect(under('22', other)).toBe(under('24', other));
    // Either way the tree's prefix leads, so pruning keeps both.
    expect(under('24', BASE_SPEC).slice(0, 24)).toBe(h.slice(0, 24));
  });
});

describe('an entry', () => {
  const calls: [PackageSpec, string | null][] = [];
  /** Stands in for osls: a template naming the set, a zip, and what its TMPDIR kept. */
  const fake: Fill = async (spec, out, base) => {
    calls.push([spec, base]);
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync(path.join(out, 'cloudformation-template-update-stack.json'), JSON.stringify({ spec }));
    writeFileSync(path.join(out, 'ingest.zip'), base ? 'copied' : 'bundled');
    writeFileSync(path.join(out, 'left-in-tmp.json'), '[]');
  };
  beforeEach(() => (calls.length = 0));
  const KMS: PackageSpec = { stage: 'test', params: { kmsKeyArn: 'k' } };

  it('is made once when two suites ask at the same time, and read by both', async () => {
    const opts = { inputs: 'c'.repeat(64), cache: path.join(scratch, 'cache'), fill: fake };
    const [a, b] = await Promise.all([packaged(BASE_SPEC, opts), packaged(BASE_SPEC, opts)]);
    expect(calls).toHaveLength(1);
    expect([a.packagedHere, b.packagedHere].sort()).toEqual([false, true]);
    expect(a.template).toEqual({ spec: BASE_SPEC });
    expect(b.template).toEqual(a.template);
    expect(a.files).toEqual(['cloudformation-template-update-stack.json', 'ingest.zip']);
  });

  it('of another set is made after the base set, from its bundles', async () => {
    const opts = { inputs: 'c'.repeat(64), cache: path.join(scratch, 'cache'), fill: fake };
    const kms = await packaged(KMS, opts);
    expect(calls.map(([s]) => s)).toEqual([BASE_SPEC, KMS]);
    expect(calls[1]![1]).toBe(path.join(opts.cache, entryKey(opts.inputs, BASE_SPEC)));
    expect(kms.template).toEqual({ spec: KMS });
  });

  it('is reused while the tree is the same, and never read for another tree', async () => {
    const cache = path.join(scratch, 'cache');
    await packaged(BASE_SPEC, { inputs: 'c'.repeat(64), cache, fill: fake });
    const again = await packaged(BASE_SPEC, { inputs: 'c'.repeat(64), cache, fill: fake });
    expect(again.packagedHere).toBe(false);
    expect(calls).toHaveLength(1);
    const changed = await packaged(BASE_SPEC, { inputs: 'd'.repeat(64), cache, fill: fake });
    expect(changed.packagedHere).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('is not there at all when its packaging fails, and the next ask packages again', async () => {
    const cache = path.join(scratch, 'cache');
    const failing: Fill = async (spec, out) => {
      writeFileSync(path.join(out, 'cloudformation-template-update-stack.json'), '{}');
      throw new Error('osls failed');
    };
    await expect(packaged(BASE_SPEC, { inputs: 'c'.repeat(64), cache, fill: failing })).rejects.toThrow(
      'osls failed',
    );
    expect(readdirSync(cache)).toEqual([]);
    await packaged(BASE_SPEC, { inputs: 'c'.repeat(64), cache, fill: fake });
    expect(calls).toHaveLength(1);
  });

  it('is made even when a packaging that died left its lock behind', async () => {
    const cache = path.join(scratch, 'cache');
    const inputs = 'c'.repeat(64);
    const lock = path.join(cache, `${entryKey(inputs, BASE_SPEC)}.lock`);
    mkdirSync(lock, { recursive: true });
    // A process id no process has (Linux's pid_max is at most 2^22).
    writeFileSync(path.join(lock, 'owner'), String(2 ** 22 + 1));
    const entry = await packaged(BASE_SPEC, { inputs, cache, fill: fake });
    expect(entry.packagedHere).toBe(true);
    expect(readdirSync(cache)).toEqual([entryKey(inputs, BASE_SPEC)]);
  });
});
