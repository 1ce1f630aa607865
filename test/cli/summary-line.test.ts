// The line the analyze command writes to stderr: an input it could not read, or a file that
// holds no logs, is named there, so an empty report never passes for a quiet cluster.
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough, Readable } from 'stream';
import { gzipSync } from 'zlib';
import { main } from '../../lib/cli/main';

async function analyze(inputs: string[]): Promise<{ code: number; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const err: Buffer[] = [];
  stderr.on('data', (b: Buffer) => err.push(b));
  stdout.resume();
  const argv = ['analyze', ...inputs.flatMap((i) => ['--input', i]), '--format', 'json'];
  const code = await main(argv, { stdout, stderr, stdin: Readable.from([]) });
  return { code, stderr: Buffer.concat(err).toString('utf8') };
}

describe('analyze summary line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ka-summary-'));
  const event = JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: 'a1',
    stage: 'ResponseComplete',
    verb: 'get',
    user: { username: 'u' },
    // A pod read: the logs show pods, so the run is not blind (visibility.ts) and says nothing more.
    objectRef: { resource: 'pods', namespace: 'kube-system' },
    requestReceivedTimestamp: '2026-11-02T10:00:00.000000Z',
    stageTimestamp: '2026-11-02T10:00:00.000000Z',
  });
  const whole = gzipSync(Buffer.from(`${event}\n`.repeat(2000)));
  writeFileSync(path.join(dir, 'ok.log.gz'), whole);
  writeFileSync(path.join(dir, 'cut.log.gz'), whole.subarray(0, Math.floor(whole.length / 2)));
  writeFileSync(path.join(dir, 'photo.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));

  it('counts a damaged file (read in part, exit 0) and files that are not logs', async () => {
    const { code, stderr } = await analyze([dir]);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^koperator-audit: 0 recreations, 0 loops \(0 active\), 0 fights \(0 active\) in \d+\.\d s; [\d,]+ events read; 0 inputs failed; .*1 file read only in part \(see summary\.details\); 1 file not logs/m,
    );
  });

  it('says only the counts when every input was read, with thousands separators', async () => {
    const { stderr } = await analyze([path.join(dir, 'ok.log.gz')]);
    expect(stderr).toMatch(
      /^koperator-audit: 0 recreations, 0 loops \(0 active\), 0 fights \(0 active\) in \d+\.\d s; 2,000 events read; 0 inputs failed\n$/,
    );
  });

  it('names each input that could not be read, one line each, and exits 3', async () => {
    const missing = path.join(dir, 'no-such-folder');
    const { code, stderr } = await analyze([path.join(dir, 'ok.log.gz'), missing]);
    expect(code).toBe(3);
    expect(stderr).toContain(`koperator-audit: cannot read ${missing}: no such file or folder\n`);
    expect(stderr).toMatch(/; 1 input failed\n$/);
  });
});
