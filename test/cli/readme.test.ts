// The README and docs/ are what a newcomer copies from: their commands must print only the
// report where they pipe or redirect it, and docs/exit-codes.md must list every exit status
// the command can return.
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import { EXIT } from '../../lib/cli/exit-codes';

const ROOT = path.resolve(__dirname, '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const EXIT_CODES = readFileSync(path.join(ROOT, 'docs', 'exit-codes.md'), 'utf8');
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => readFileSync(path.join(ROOT, 'docs', f), 'utf8'));
const shellLinesOf = (text: string): string[] =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n'));

describe('README and docs/', () => {
  it('has shell examples to check', () => {
    expect(shellLinesOf(README).filter((l) => /koperator-audit|npm run/.test(l)).length).toBeGreaterThan(5);
  });

  it('pipes or redirects a report only with npm run --silent or npx (npm prints a banner on stdout)', () => {
    const offenders = [README, ...DOCS]
      .flatMap(shellLinesOf)
      .filter((l) => /npm run (?!--silent)\S+/.test(l) && /[|>]/.test(l.replace(/#.*$/, '')));
    expect(offenders).toEqual([]);
  });

  it('lists every exit status in a table', () => {
    const section = /## Exit status\n([\s\S]*?)\n## /.exec(EXIT_CODES)?.[1] ?? '';
    for (const code of Object.values(EXIT)) expect(section).toMatch(new RegExp(`^\\| ${code} +\\|`, 'm'));
  });

  it('shows what a failed input looks like', () => {
    expect(EXIT_CODES).toContain('!! 1 INPUT COULD NOT BE READ: this report covers only the rest');
    expect(EXIT_CODES).toContain('summary.inputErrors');
  });

  it('says what a run that cannot see prints, and how --fail-on blind gates on it', () => {
    expect(EXIT_CODES).toContain('!! NO AUDIT EVENT COULD BE READ: this is not an all-clear');
    expect(EXIT_CODES).toMatch(/`--fail-on blind` turns either into exit 1/);
    for (const blind of ['no-audit-events', 'no-pod-events', 'metadata-only'])
      expect(EXIT_CODES).toContain(blind);
  });

  it('starts with the examples’ logs folder, which reads clean', () => {
    expect(README).toContain('npm ci && npm run analyze -- --input examples/logs\n');
  });
});
