// The README is what a newcomer copies from: its commands must print only the report where
// they pipe or redirect it, and it must list every exit status the command can return.
import { readFileSync } from 'fs';
import * as path from 'path';
import { EXIT } from '../../lib/cli/exit-codes';

const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
const shellLines = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n'));

describe('README', () => {
  it('has shell examples to check', () => {
    expect(shellLines.filter((l) => /koperator-audit|npm run/.test(l)).length).toBeGreaterThan(5);
  });

  it('pipes or redirects a report only with npm run --silent or npx (npm prints a banner on stdout)', () => {
    const offenders = shellLines.filter(
      (l) => /npm run (?!--silent)\S+/.test(l) && /[|>]/.test(l.replace(/#.*$/, '')),
    );
    expect(offenders).toEqual([]);
  });

  it('lists every exit status in a table', () => {
    const section = /### Exit status\n([\s\S]*?)\n### /.exec(README)?.[1] ?? '';
    for (const code of Object.values(EXIT)) expect(section).toMatch(new RegExp(`^\\| ${code} +\\|`, 'm'));
  });

  it('shows what a failed input looks like', () => {
    expect(README).toContain('!! 1 INPUT COULD NOT BE READ: this report covers only the rest');
    expect(README).toContain('summary.inputErrors');
  });

  it('says what a run that cannot see prints, and how --fail-on blind gates on it', () => {
    expect(README).toContain('!! NO AUDIT EVENT COULD BE READ: this is not an all-clear');
    expect(README).toMatch(/`--fail-on blind` turns either into exit 1/);
    for (const blind of ['no-audit-events', 'no-pod-events', 'metadata-only'])
      expect(README).toContain(blind);
  });

  it('starts with the examples’ logs folder, which reads clean', () => {
    expect(README).toContain('npm ci && npm run analyze -- --input examples/logs\n');
  });
});
