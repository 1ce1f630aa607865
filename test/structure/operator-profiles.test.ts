// Operators as profiles (lib/operators/, docs/architecture.md): the core asks the registries,
// never an operator's folder. Only the three registries import lib/koperator/, and the exceptions
// left by step 1 of issue 30 are named here, so that none is added unnoticed.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Files outside lib/koperator/ that still import it, and what from (issue 30, step 1's remainder). */
const ALLOWED: Record<string, string[]> = {
  'lib/operators/registry.ts': ['profile'],
  'lib/operators/analysis-registry.ts': ['analysis-profile'],
  'lib/operators/words-registry.ts': ['words'],
  // NiFiKop runs koperator's toleration merge as its nifi.go copied it (lib/nifikop/README.md).
  'lib/nifikop/steps.ts': ['tolerations'],
  // objectmatcher's last-applied annotation and the intent diff (last-applied to desired) are
  // the same Go code in both operators; they live in koperator's pod-diff.ts.
  'lib/nifikop/analysis-profile.ts': ['pod-diff'],
};

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

function koperatorImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/from\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    .map((m) => path.relative(root, path.resolve(path.dirname(file), m[1])))
    .filter((p) => p.startsWith(`lib${path.sep}koperator${path.sep}`))
    .map((p) => path.basename(p));
}

describe('operator profiles', () => {
  it('only the registries (and the named exceptions) import lib/koperator/', () => {
    const found: Record<string, string[]> = {};
    for (const dir of ['lib', 'functions']) {
      for (const f of tsFiles(path.join(root, dir))) {
        const rel = path.relative(root, f).split(path.sep).join('/');
        if (rel.startsWith('lib/koperator/')) continue;
        const imports = koperatorImports(f);
        if (imports.length > 0) found[rel] = [...new Set(imports)].sort();
      }
    }
    expect(found).toEqual(ALLOWED);
  });
});
