// The shared corpora live beside the checkout (../shared), never inside it. Suites that
// read them run where they exist (CI has them) and say plainly that they did not run
// where they do not, instead of skipping silently.
import { existsSync, promises as fs } from 'fs';
import * as path from 'path';

export const SHARED_CORPUS = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');
export const SCENARIOS = path.join(SHARED_CORPUS, 'scenarios');
export const EXTERNAL = path.join(SHARED_CORPUS, 'external');
export const FIGHTS = path.join(SHARED_CORPUS, 'fights');
export const DRIFT = path.join(SHARED_CORPUS, 'drift');

export function describeWithCorpus(dir: string, title: string, body: () => void): void {
  if (existsSync(dir)) {
    describe(title, body);
    return;
  }
  describe(title, () => {
    it(`was not run: ${dir} is absent`, () => {
      console.warn(`${title}: not run, ${dir} does not exist on this machine`);
      expect(existsSync(dir)).toBe(false);
    });
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
