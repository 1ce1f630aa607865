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
