// The analyze command spools its recreations to a temporary file: the built command, in its
// own process, leaves nothing in TMPDIR whether it succeeds or fails, and a temporary file it
// cannot write is an error with no report, never a report with fewer recreations.
import { spawnSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/koperator-audit.js');
const EXAMPLES = path.join(ROOT, 'examples/logs');

function analyze(args: string[], opts: { fileSizeKiB?: number } = {}) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'ka-spool-cli-'));
  const command = [process.execPath, BIN, 'analyze', '--input', EXAMPLES, ...args];
  // A file size limit makes the spool's writes fail for real (Node ignores SIGXFSZ: EFBIG).
  const r = opts.fileSizeKiB
    ? spawnSync('bash', ['-c', `ulimit -f ${opts.fileSizeKiB}; exec "$@"`, 'bash', ...command], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: tmp },
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      })
    : spawnSync(command[0], command.slice(1), {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: tmp },
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, left: readdirSync(tmp) };
}

const expected = JSON.parse(readFileSync(path.join(ROOT, 'examples/expected.json'), 'utf8')) as {
  recreations: unknown[];
};

it('succeeds and leaves TMPDIR empty, every recreation in the report', () => {
  const r = analyze(['--format', 'json']);
  expect(r.code).toBe(0);
  expect(r.left).toEqual([]);
  const doc = JSON.parse(r.stdout) as {
    recreations: unknown[];
    summary: { recreations: number; brokerRemovals: number };
  };
  expect(doc.recreations.length).toBe(expected.recreations.length);
  // The list holds the pods re-created and the brokers a downscale removed, counted apart.
  expect(doc.summary.brokerRemovals).toBeGreaterThan(0);
  expect(doc.summary.recreations + doc.summary.brokerRemovals).toBe(doc.recreations.length);
});

it.each(['json', 'table', 'markdown', 'html'])(
  '--format %s to a full disk (--out /dev/full): exit 2 naming it, TMPDIR empty',
  (format) => {
    const r = analyze(['--format', format, '--out', '/dev/full']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out \/dev\/full: .*no space left on device/i);
    expect(r.stderr).not.toMatch(/Unhandled|at .*\.js:\d+/);
    expect(r.left).toEqual([]);
  },
);

it('a temporary file that cannot be written: exit 5 naming it, no report at all, TMPDIR empty', () => {
  // 16 KiB: less than the examples' 30 recreations take (~1 KB each as JSON).
  const r = analyze(['--format', 'json'], { fileSizeKiB: 16 });
  expect(r.code).toBe(5);
  expect(r.stderr).toMatch(
    /^koperator-audit analyze: the recreations' temporary file in .*ka-spool-cli-\S+ failed: EFBIG: file too large/m,
  );
  expect(r.stderr).not.toMatch(/unexpected error/);
  expect(r.stdout).toBe('');
  expect(r.left).toEqual([]);
});
