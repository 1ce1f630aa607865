// Every command of the repository takes --help: it prints its usage and exits 0 without
// doing its work (bench/generate.ts used to ignore --help and write two 100 MB files).
import { spawnSync } from 'child_process';
import { existsSync, readdirSync, statSync } from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** What each command would write: its listing before and after must be the same. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return ['(absent)'];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => `${f} ${statSync(path.join(dir, f)).mtimeMs}`)
    .sort();
}

const COMMANDS: Array<[string, string[], string]> = [
  ['bench/generate.ts', [TSX, 'bench/generate.ts'], 'bench/data'],
  ['bench/run.ts', [TSX, 'bench/run.ts'], 'bench/results'],
  ['scripts/measure-ingest-cost.ts', [TSX, 'scripts/measure-ingest-cost.ts'], 'bench/data'],
  ['scripts/generate-examples.ts', [TSX, 'scripts/generate-examples.ts'], 'examples'],
  ['scripts/screenshot-report.ts', [TSX, 'scripts/screenshot-report.ts'], 'docs'],
  ['scripts/build-cli.mjs', [process.execPath, 'scripts/build-cli.mjs'], 'dist'],
];

describe('every command takes --help without side effects', () => {
  for (const [name, command, writes] of COMMANDS) {
    for (const flag of ['--help']) {
      it(`${name} ${flag}`, () => {
        const before = snapshot(path.join(ROOT, writes));
        const [bin, ...args] = command;
        const r = spawnSync(bin, [...args, flag], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(r.stdout).toMatch(/^Usage: /);
        expect(snapshot(path.join(ROOT, writes))).toEqual(before);
      }, 60_000);
    }
  }
});
