// Input faults where the user looks: a path that does not exist is an input error, never a
// file read; data lost inside a file that opened is a warning on top of every format and on
// stderr (even under --quiet), exit 0, and `--fail-on partial` fails on it, naming it.
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { gzipSync } from 'zlib';
import { runAnalyze } from '../../lib/cli/analyze-command';

const ROOT = path.resolve(__dirname, '../..');
const AUDIT = readFileSync(path.join(ROOT, 'examples/logs/audit/kube-apiserver/audit.log'));

async function analyze(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (b: Buffer) => (out += b.toString()));
  stderr.on('data', (b: Buffer) => (err += b.toString()));
  const code = await runAnalyze(args, { stdout, stderr, stdin: new PassThrough() });
  return { code, stdout: out, stderr: err };
}

/** A folder holding one whole log and one damaged the given way. */
function folderWith(fault: (dir: string) => void): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ka-faults-'));
  writeFileSync(path.join(dir, 'whole.log'), AUDIT);
  fault(dir);
  return dir;
}

const lines = AUDIT.toString().trimEnd().split('\n');
const FAULTS: Array<[string, () => string, string[]]> = [
  [
    'a gzip cut in half',
    () =>
      folderWith((d) => {
        const gz = gzipSync(AUDIT);
        writeFileSync(path.join(d, 'cut.gz'), gz.subarray(0, gz.length >> 1));
      }),
    [],
  ],
  [
    'a line cut short at the end of a file',
    () => folderWith((d) => writeFileSync(path.join(d, 'cut.log'), `${lines[0]}\n${lines[1].slice(0, 200)}`)),
    [],
  ],
  [
    'a record over --max-line-bytes',
    () =>
      folderWith((d) =>
        writeFileSync(
          path.join(d, 'long.log'),
          `${lines[0].replace('"kind"', `"pad":"${'x'.repeat(4096)}","kind"`)}\n`,
        ),
      ),
    ['--max-line-bytes', '2048'],
  ],
];

describe.each(FAULTS)('%s', (_name, make, extra) => {
  let dir: string;
  beforeAll(() => {
    dir = make();
  });

  it('JSON: a summary.warnings entry and summary.partial, exit 0 as the contract says', async () => {
    const r = await analyze(['-f', dir, '-o', 'json', '-q', ...extra]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout).summary;
    expect(summary.partial).toBe(true);
    expect(summary.warnings.filter((w: string) => w.startsWith('read in part:'))).toHaveLength(1);
    expect(summary.inputErrors).toEqual([]);
  });

  it.each([
    // Above the headline: before anything counts findings.
    ['table', (out: string) => out.indexOf('koperator-audit:')],
    ['markdown', (out: string) => out.indexOf('## Loops')],
    [
      'html',
      (out: string) =>
        out.indexOf('<div class="stats">') +
        out.slice(out.indexOf('<div class="stats">')).indexOf('</header>'),
    ],
  ])('%s: a banner at the top', async (format, headlineAt) => {
    const r = await analyze(['-f', dir, '-o', format, '-q', ...extra]);
    expect(r.code).toBe(0);
    const at = r.stdout.indexOf('read in part:');
    expect(at).toBeGreaterThan(-1);
    expect(at).toBeLessThan(headlineAt(r.stdout));
  });

  it('stderr says it even under --quiet', async () => {
    const r = await analyze(['-f', dir, '-o', 'json', '-q', ...extra]);
    expect(r.stderr).toMatch(/^koperator-audit: warning: read in part: /m);
  });

  it('--fail-on partial exits 1 and names the condition, under --quiet too', async () => {
    const r = await analyze(['-f', dir, '-o', 'json', '-q', '--fail-on', 'partial', ...extra]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^koperator-audit: --fail-on partial matched: data lost inside a file/m);
  });
});

describe('a whole read', () => {
  it('warns of nothing and --fail-on partial passes', async () => {
    const r = await analyze([
      '-f',
      path.join(ROOT, 'examples/logs'),
      '-o',
      'json',
      '-q',
      '--fail-on',
      'partial',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ partial: false, warnings: [] });
    expect(r.stderr).toBe('');
  });
});

describe('a path that does not exist', () => {
  const missing = path.join(tmpdir(), 'ka-no-such-folder', 'audit');

  it('alone: an input error, no file read, no hint that the input is not audit logs', async () => {
    const r = await analyze(['-f', missing, '-o', 'json']);
    expect(r.code).toBe(4);
    const summary = JSON.parse(r.stdout).summary;
    expect(summary.files.read).toBe(0);
    expect(summary.inputErrors).toEqual([{ input: missing, reason: 'no such file or folder' }]);
    expect(JSON.stringify(summary.warnings)).not.toMatch(/audit logs/);
    expect(r.stderr).not.toMatch(/audit logs/);
  });

  it('beside a real folder: read counts only the real files', async () => {
    const dir = folderWith(() => undefined);
    const r = await analyze(['-f', dir, '-f', missing, '-o', 'json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).summary.files.read).toBe(1);
  });
});
