// The README's first command, as a user runs it: the esbuild bundle behind
// bin/koperator-audit.js, in its own process, on the bundled examples. Every other test
// calls the TypeScript directly, so this is the one that fails when the bundle does (a
// module left out of it, an external that is not installed, a top-level import of the AWS
// SDK on the local path).
import { execFileSync, spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';
import type { FindingsDocument } from '../../lib/model/findings';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';

const ROOT = path.resolve(__dirname, '../..');

describe('the installed command (bundle) on examples/logs, the README’s first command', () => {
  let stdout = '';
  let stderr = '';

  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT });
    // Records which AWS packages the process loads, through the documented require hook.
    const hook = `const M=require('module');const load=M._load;const seen=new Set();
M._load=function(r,...a){if(/^@(aws-sdk|smithy|aws-lambda-powertools)\\//.test(r))seen.add(r);return load.call(this,r,...a)};
process.on('exit',()=>process.stderr.write('aws-modules:'+JSON.stringify([...seen])+'\\n'));`;
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `${hook}process.argv.splice(1,0,'cli');require('./bin/koperator-audit.js')`,
        'analyze',
        '--input',
        'examples/logs',
        '--format',
        'json',
      ],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
    );
    stdout = r.stdout;
    stderr = r.stderr;
  }, 60_000);

  it('finds what examples/expected.json says, by the contract’s matching rules', () => {
    const expected = JSON.parse(
      readFileSync(path.join(ROOT, 'examples/expected.json'), 'utf8'),
    ) as ExpectedDocument;
    const actual = JSON.parse(stdout) as FindingsDocument;
    expect(actual.recreations.length).toBeGreaterThan(0);
    expect(contractMistakes(expected, actual)).toEqual([]);
  });

  it('reads every example log whole: nothing skipped, no file that is not a log, no input error', () => {
    const summary = (JSON.parse(stdout) as FindingsDocument).summary;
    expect(summary.skipped).toEqual({});
    expect((summary.files as { foreign: number; errors: number }).foreign).toBe(0);
    expect((summary.files as { foreign: number; errors: number }).errors).toBe(0);
    expect(summary.inputErrors).toEqual([]);
  });

  it('loads no AWS package for local inputs', () => {
    expect(stderr).toContain('aws-modules:[]');
  });
});
