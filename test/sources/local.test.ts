// Local files and folders: recursive, sorted, and nothing dropped silently.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { listLocal } from '../../lib/sources/local';
import type { SourceObject } from '../../lib/sources/types';
import { encodeAudit } from '../../sim/encode';
import { auditOf, mixedEvents, readAll } from '../ingest/fixtures';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'koperator-audit-local-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function write(rel: string, data: string | Buffer): string {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
}

async function list(p: string): Promise<SourceObject[]> {
  const out: SourceObject[] = [];
  for await (const o of listLocal(p)) out.push(o);
  return out;
}

async function text(o: SourceObject): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of (await o.open()) as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
}

describe('listLocal', () => {
  it('walks a folder recursively in byte order of names, with sizes', async () => {
    write('b/2.log', 'bb');
    write('a.log', 'a');
    write('b/1/z.log', 'zzz');
    write('B.log', 'B');
    write('b/10.log', '');
    const got = await list(root);
    expect(got.map((o) => path.relative(root, o.name))).toEqual([
      'B.log',
      'a.log',
      'b/1/z.log',
      'b/10.log',
      'b/2.log',
    ]);
    expect(got.map((o) => o.size)).toEqual([1, 1, 3, 0, 2]);
    expect(await text(got[2])).toBe('zzz');
  });

  it('lists a single file as itself', async () => {
    const p = write('one.log', 'x');
    expect((await list(p)).map((o) => o.name)).toEqual([p]);
  });

  it('a missing path is listed, and fails when opened', async () => {
    const got = await list(path.join(root, 'nope'));
    expect(got).toHaveLength(1);
    await expect(got[0].open()).rejects.toThrow(/ENOENT/);
  });

  it('follows links to files, walks each real folder once, lists broken links and FIFOs as failing', async () => {
    write('d/real.log', 'r');
    fs.symlinkSync(path.join(root, 'd/real.log'), path.join(root, 'd/link.log'));
    fs.symlinkSync(root, path.join(root, 'd/loop'));
    fs.symlinkSync(path.join(root, 'gone'), path.join(root, 'd/broken'));
    execFileSync('mkfifo', [path.join(root, 'd/fifo')]);
    const got = await list(root);
    expect(got.map((o) => path.relative(root, o.name))).toEqual([
      'd/broken',
      'd/fifo',
      'd/link.log',
      'd/real.log',
    ]);
    await expect(got[0].open()).rejects.toThrow(/ENOENT/);
    await expect(got[1].open()).rejects.toThrow(/not a regular file/);
    expect(await text(got[2])).toBe('r');
  });

  it('feeds ingest: failing entries are counted, readable ones read', async () => {
    const events = mixedEvents().map((f) => f.event);
    write('logs/a.log.gz', encodeAudit('audit-jsonl', events, { gzip: true }));
    fs.symlinkSync(path.join(root, 'gone'), path.join(root, 'logs/broken'));
    const { records, stats } = await readAll(listLocal(root), { relevantOnly: false });
    expect(auditOf(records)).toEqual(events.filter((e) => e.stage !== 'RequestReceived'));
    // The broken link is an input error, not a file read.
    expect(stats.files).toEqual({ read: 1, empty: 0, foreign: 0, errors: 1 });
    expect(stats.details).toEqual([
      {
        source: path.join(root, 'logs/broken'),
        line: 0,
        reason: 'open-error',
        note: expect.stringMatching(/ENOENT/),
      },
    ]);
  });
});
