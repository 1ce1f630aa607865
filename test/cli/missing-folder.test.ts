// A vanished path is said as the folder to fix, not as "unexpected error: ENOENT …".
import { missingFolder } from '../../lib/cli/missing-folder';

const enoent = (p: string) =>
  Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT', path: p });

describe('missingFolder', () => {
  it.each([
    [
      enoent('/tmp/x/koperator-audit-spool-XXXXXX'),
      '/tmp/x',
      'the temporary folder /tmp/x does not exist (set TMPDIR to a folder that exists, or create it)',
    ],
    [
      enoent('/tmp/x'),
      '/tmp/x',
      'the temporary folder /tmp/x does not exist (set TMPDIR to a folder that exists, or create it)',
    ],
    [
      enoent('/data/out/report.html'),
      '/tmp',
      'the folder /data/out does not exist (needed for /data/out/report.html)',
    ],
    [Object.assign(new Error('EACCES'), { code: 'EACCES', path: '/x' }), '/tmp', null],
    [new Error('plain'), '/tmp', null],
  ])('%s', (err, tmp, want) => {
    expect(missingFolder(err, tmp)).toBe(want);
  });
});
