// Compression is recognised from the bytes: gzip (one member or many), plain, and
// archives we do not open. Damaged gzip yields everything before the damage and one error.
import * as zlib from 'zlib';
import { gzipSync } from 'zlib';
import { encodeAudit, gzipMembers } from '../../sim/encode';
import { auditOf, memoryObject, mixedEvents, readOne } from './fixtures';

const events = [...mixedEvents(), ...mixedEvents(), ...mixedEvents()].map((f) => f.event);
const text = encodeAudit('audit-jsonl', events).toString('utf8');

describe('gzip', () => {
  it.each([1, 2, 5, 17])('reads %i concatenated members as one stream', async (members) => {
    const { records, stats } = await readOne(memoryObject('mem/a.log.gz', gzipMembers(text, members), 100), {
      relevantOnly: false,
    });
    expect(auditOf(records)).toEqual(events);
    expect(stats.files.errors).toBe(0);
    expect(stats.bytes.decompressed).toBe(Buffer.byteLength(text));
  });

  // Small members are inflated in one call, the rest streamed: both kinds, side by side.
  it('a member inflating past the one-call limit is streamed, between small ones', async () => {
    const lines = text.split('\n').filter((l) => l.length > 0);
    // ~6 MiB of repeated lines compress to well under the 128 KiB a call may read.
    const big = Array.from({ length: Math.ceil((6 * 2 ** 20) / text.length) }, () => text).join('');
    const bytes = Buffer.concat([gzipMembers(text, 4), gzipSync(big), gzipMembers(text, 4)]);
    const { records, stats } = await readOne(memoryObject('mem/mixed.gz', bytes, 4096), {
      relevantOnly: false,
    });
    const copies = big.split('\n').length - 1;
    expect(records).toHaveLength(2 * lines.length + copies);
    expect(stats.files.errors).toBe(0);
    expect(stats.bytes.decompressed).toBe(2 * Buffer.byteLength(text) + Buffer.byteLength(big));
  });

  it('accepts zero padding between members and after the last', async () => {
    const zeros = Buffer.alloc(37);
    const padded = Buffer.concat([gzipMembers(text, 2), zeros, gzipMembers(text, 3), zeros]);
    const { records, stats } = await readOne(memoryObject('mem/pad.gz', padded), { relevantOnly: false });
    expect(records).toHaveLength(2 * events.length);
    expect(stats.files.errors).toBe(0);
  });

  it('accepts zero padding after the last member', async () => {
    const padded = Buffer.concat([gzipMembers(text, 3), Buffer.alloc(512)]);
    const { records, stats } = await readOne(memoryObject('mem/a.gz', padded), { relevantOnly: false });
    expect(records).toHaveLength(events.length);
    expect(stats.files.errors).toBe(0);
  });

  const gz = gzipMembers(text, 3);
  const cuts = [
    5,
    11,
    64,
    Math.floor(gz.length / 3),
    Math.floor(gz.length / 2),
    gz.length - 9,
    gz.length - 4,
    gz.length - 1,
  ];
  it.each(cuts)(
    'a gzip cut at byte %i yields every complete record before the cut and one error',
    async (cut) => {
      const truncated = gz.subarray(0, cut);
      let prefix = '';
      try {
        prefix = zlib.gunzipSync(truncated, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8');
      } catch {
        prefix = ''; // cut inside the first header: nothing to decompress
      }
      const complete = prefix.split('\n').length - 1;
      const { records, stats } = await readOne(memoryObject('mem/cut.gz', truncated, 1000), {
        relevantOnly: false,
      });
      expect(records).toHaveLength(complete);
      expect(auditOf(records)).toEqual(events.slice(0, complete));
      expect(stats.files.errors).toBe(1);
      expect(stats.details.filter((d) => d.reason === 'gzip-truncated')).toEqual([
        { source: 'mem/cut.gz', line: 0, reason: 'gzip-truncated', note: 'unexpected end of file' },
      ]);
      // The partial last line, if any, is counted, never emitted.
      const tail = prefix.slice(prefix.lastIndexOf('\n') + 1);
      expect(stats.skipped['incomplete-record'] ?? 0).toBe(tail.length > 0 ? 1 : 0);
    },
  );

  it('damage inside the deflate data: records before it, one gzip-corrupt error', async () => {
    const damaged = Buffer.from(gzipMembers(text, 3));
    const second = damaged.indexOf(Buffer.from([0x1f, 0x8b, 0x08]), 10);
    for (let i = second + 40; i < second + 60; i++) damaged[i] ^= 0xff;
    const { records, stats } = await readOne(memoryObject('mem/bad.gz', damaged), { relevantOnly: false });
    expect(records.length).toBeGreaterThan(0);
    expect(auditOf(records)).toEqual(events.slice(0, records.length));
    expect(stats.files.errors).toBe(1);
    expect(
      stats.details.find((d) => d.reason === 'gzip-corrupt' || d.reason === 'gzip-truncated'),
    ).toBeDefined();
  });

  it('garbage after a complete member: all records, one error', async () => {
    const bytes = Buffer.concat([gzipMembers(text), Buffer.from('garbage that is not gzip')]);
    const { records, stats } = await readOne(memoryObject('mem/trail.gz', bytes), { relevantOnly: false });
    expect(records).toHaveLength(events.length);
    expect(stats.files.errors).toBe(1);
  });
});

describe('not gzip', () => {
  it('plain text passes through, whatever the file is called', async () => {
    const { records } = await readOne(memoryObject('mem/looks-compressed.gz', text), { relevantOnly: false });
    expect(records).toHaveLength(events.length);
  });

  it('a gzip file without the .gz name is still decompressed', async () => {
    const { records } = await readOne(memoryObject('mem/08-objectf53f6492', gzipMembers(text)), {
      relevantOnly: false,
    });
    expect(records).toHaveLength(events.length);
  });

  it.each([
    ['zip archive', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)])],
    ['bzip2 data', Buffer.concat([Buffer.from('BZh91AY&SY'), Buffer.alloc(100, 7)])],
    ['xz data', Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(100, 3)])],
    ['zstd data', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(100, 5)])],
  ])('%s is a foreign file, not read', async (what, bytes) => {
    const { records, stats } = await readOne(memoryObject('mem/archive', bytes));
    expect(records).toEqual([]);
    expect(stats.files).toEqual({ read: 1, empty: 0, foreign: 1, errors: 0 });
    expect(stats.details).toEqual([{ source: 'mem/archive', line: 0, reason: 'foreign-file', note: what }]);
  });
});
