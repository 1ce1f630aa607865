// The simulator, the tests and the benchmarks may use the product; the product must never
// depend on them, so that lib/ and functions/ ship alone.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const PRODUCT = ['lib', 'functions'];
const FORBIDDEN = ['sim', 'test', 'bench', 'scripts'];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

function importsOutsideProduct(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.filter((spec) => {
    const top = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0];
    return FORBIDDEN.includes(top);
  });
}

describe('product code', () => {
  const files = PRODUCT.flatMap((d) => tsFiles(path.join(root, d)));

  it('finds the product sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(FORBIDDEN)('imports nothing from %s/', (dir) => {
    const offenders = files.flatMap((f) =>
      importsOutsideProduct(f)
        .filter((spec) => path.relative(root, path.resolve(path.dirname(f), spec)).startsWith(dir + path.sep))
        .map((spec) => `${path.relative(root, f)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });
});

// What the Lambda bundles hold: each handler serverless.yml names and everything it reaches
// through relative imports (static, dynamic or require), as esbuild would follow them. The
// emulation of AWS (lib/local-aws/, fauxqs, a devDependency) serves local-pipeline and the
// tests; a bundle that reached it would ship the emulator, or fail to load without it.
const EMULATION_DIR = path.join('lib', 'local-aws');
const EMULATION_PACKAGES = ['fauxqs'];
const SPEC = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]([^'"]+)['"]/g;

type ReadSource = (file: string) => string;

function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find(
    (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
  );
}

/** Every file a handler reaches, and every bare package it imports, with the file that imports it. */
function bundleClosure(
  entry: string,
  read: ReadSource,
): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    if (!file.endsWith('.ts')) continue;
    for (const [, spec] of read(file).matchAll(SPEC)) {
      if (spec!.startsWith('.')) {
        const target = resolveRelative(file, spec!);
        if (target) todo.push(target);
      } else if (!packages.has(spec!)) packages.set(spec!, path.relative(root, file));
    }
  }
  return { files, packages };
}

function handlerEntries(): string[] {
  const yml = fs.readFileSync(path.join(root, 'serverless.yml'), 'utf8');
  return [...yml.matchAll(/^\s+handler:\s*(\S+)\.\w+\s*$/gm)].map((m) => path.join(root, `${m[1]}.ts`));
}

/** What of the emulation each handler's bundle would reach. */
function emulationInBundles(read: ReadSource): string[] {
  return handlerEntries().flatMap((entry) => {
    const { files, packages } = bundleClosure(entry, read);
    const name = path.relative(root, entry);
    return [
      ...[...files]
        .map((f) => path.relative(root, f))
        .filter((f) => f.startsWith(EMULATION_DIR + path.sep))
        .map((f) => `${name} → ${f}`),
      ...EMULATION_PACKAGES.filter((p) => packages.has(p)).map((p) => `${name} → ${p} (${packages.get(p)})`),
    ];
  });
}

const readSource: ReadSource = (file) => fs.readFileSync(file, 'utf8');

describe('the Lambda bundles', () => {
  it('are the six handlers serverless.yml names, each found', () => {
    const entries = handlerEntries();
    expect(entries.map((e) => path.relative(root, e)).sort()).toEqual([
      'functions/analyze.ts',
      'functions/dispatch-analysis.ts',
      'functions/eks-log-groups.ts',
      'functions/ingest.ts',
      'functions/notify-slack.ts',
      'functions/report-link.ts',
    ]);
    for (const e of entries) expect(fs.existsSync(e)).toBe(true);
  });

  it('reach lib/aws/ but never the emulation of AWS (lib/local-aws/, fauxqs)', () => {
    const reached = handlerEntries().flatMap((e) => [...bundleClosure(e, readSource).files]);
    // The walk follows imports at all: the handlers do reach the deployed adapters.
    expect(reached.some((f) => path.relative(root, f).startsWith(path.join('lib', 'aws') + path.sep))).toBe(
      true,
    );
    expect(emulationInBundles(readSource)).toEqual([]);
  });

  // A planted import, deep in what a bundle reaches, is found: by a relative path to the
  // emulation, and by the emulator's package.
  it.each([
    ['a relative import of lib/local-aws/', "import { createLocalStack } from '../local-aws/local-stack';\n"],
    ['a dynamic import of lib/local-aws/', "const s = () => import('../local-aws/local-ssm');\n"],
    ['the fauxqs package', "import 'fauxqs';\n"],
  ])('would fail on %s planted in lib/aws/clients.ts', (_, planted) => {
    const clients = path.join(root, 'lib', 'aws', 'clients.ts');
    const read: ReadSource = (file) => (file === clients ? planted : '') + readSource(file);
    const found = emulationInBundles(read);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => /→ (lib\/local-aws\/|fauxqs)/.test(f))).toBe(true);
  });
});
