// The shared corpora live beside the checkout (../shared), never inside it. Suites that
// read them run where they exist (CI has them) and are reported by Jest as skipped where
// they do not: a clone on its own must not count checks it never ran as passed.
//
// KOPERATOR_AUDIT_SHARED_CORPUS points at another folder instead (or at a missing one, to
// see what a clone without ../shared reports).
import { existsSync, promises as fs } from 'fs';
import * as path from 'path';

export const DEFAULT_SHARED_CORPUS = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');
export const SHARED_CORPUS = process.env.KOPERATOR_AUDIT_SHARED_CORPUS
  ? path.resolve(process.env.KOPERATOR_AUDIT_SHARED_CORPUS)
  : DEFAULT_SHARED_CORPUS;
export const SCENARIOS = path.join(SHARED_CORPUS, 'scenarios');
export const EXTERNAL = path.join(SHARED_CORPUS, 'external');
export const FIGHTS = path.join(SHARED_CORPUS, 'fights');
export const DRIFT = path.join(SHARED_CORPUS, 'drift');

/** `describe` where `dir` exists; elsewhere one skipped test that names the missing folder. */
export function describeWithCorpus(dir: string, title: string, body: () => void): void {
  if (existsSync(dir)) {
    describe(title, body);
    return;
  }
  describe(title, () => {
    it.skip(`not run: ${dir} is absent`, () => undefined);
  });
}

/** A corpus' log files, sorted, without its truth (`expected.json`) and notes (`README.md`). */
export async function corpusLogFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await corpusLogFiles(p)));
    else if (e.isFile() && e.name !== 'expected.json' && e.name !== 'README.md') out.push(p);
  }
  return out.sort();
}
