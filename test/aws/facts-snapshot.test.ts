// The window snapshot's format and its read: a run through it gets the very facts (their
// `src` included, in the same order) a full read gets; a damaged, foreign or missing
// snapshot costs a full read and is said; a snapshot replaced meanwhile is not overwritten.
import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { defaultLayout, factsSnapshotKey } from '../../lib/aws/bucket-layout';
import {
  decodeSnapshot,
  encodeSnapshot,
  readFactsThroughSnapshot,
  SnapshotFormatError,
  snapshotNotices,
} from '../../lib/aws/facts-snapshot';
import { readFactsWindow, writeFacts, type StoredFactsObject } from '../../lib/aws/facts-store';
import type { Fact } from '../../lib/model/facts';
import { memoryS3, type MemoryS3 } from '../support/memory-s3';
import { podFact } from '../facts/fixtures';

const layout = defaultLayout();
const CLUSTER = 'eks-a';
const FROM = new Date('2026-11-02T09:00:00Z');
const TO = new Date('2026-11-02T11:59:59Z');
const SNAPSHOT = factsSnapshotKey(layout, CLUSTER);

const member = (key: string, text: string): StoredFactsObject => ({
  key,
  etag: `e-${key}`,
  body: Buffer.from(text),
});

describe('snapshot format', () => {
  it('gives back each member, byte for byte, by key', () => {
    const members = [member('a', 'first'), member('b', ''), member('c', 'third\nline')];
    const back = decodeSnapshot(encodeSnapshot(CLUSTER, members), CLUSTER);
    expect([...back.values()].map((m) => [m.key, m.etag, m.body.toString()])).toEqual(
      members.map((m) => [m.key, m.etag, m.body.toString()]),
    );
  });

  const good = encodeSnapshot(CLUSTER, [member('a', 'first')]);
  const header = (h: Record<string, unknown>) => Buffer.from(JSON.stringify(h) + '\nfirst');
  const base = { format: 'koperator-audit/facts-window', version: 1, cluster: CLUSTER };
  it.each<[string, Buffer, RegExp]>([
    ['no header line', Buffer.from('x'), /no header line/],
    ['a header that is not JSON', Buffer.from('{x\n'), /not JSON/],
    ['another format', header({ ...base, format: 'other', objects: [] }), /does not name/],
    ['a newer version', header({ ...base, version: 2, objects: [] }), /version 2/],
    ['another cluster', header({ ...base, cluster: 'eks-b', objects: [] }), /eks-b/],
    ['a bad entry', header({ ...base, objects: [['a', null, -1]] }), /not \[key, etag, bytes\]/],
    ['a cut-off member', good.subarray(0, good.length - 1), /shorter/],
    ['bytes past the members', Buffer.concat([good, Buffer.from('!')]), /longer/],
  ])('refuses %s', (_, data, reason) => {
    expect(() => decodeSnapshot(data, CLUSTER)).toThrow(SnapshotFormatError);
    expect(() => decodeSnapshot(data, CLUSTER)).toThrow(reason);
  });
});

const fact = (minute: number, auditID: string, source: string): Fact =>
  podFact({
    at: `2026-11-02T${String(9 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000000Z`,
    doneAt: `2026-11-02T${String(9 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.100000Z`,
    auditID,
    src: { source, line: minute },
  });

async function deliver(m: MemoryS3, key: string, facts: Fact[]): Promise<void> {
  await writeFacts(m.s3, 'b', layout, { cluster: CLUSTER, bucket: 'logs', key, etag: 'e' }, facts);
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function factsOf(s3: S3Client) {
  return [...(await readFactsWindow(s3, 'b', layout, CLUSTER, FROM, TO)).facts.facts()];
}

describe('reading through the snapshot', () => {
  it('gets the facts of a full read after each delivery, fetching only what is new', async () => {
    const m = memoryS3();
    const steps: [string, Fact[]][][] = [
      [['logs/a', [fact(5, id(1), 'a'), fact(70, id(2), 'a')]]],
      // Late, of the first hour; and a copy of the first object's events from another source.
      [
        ['logs/b', [fact(10, id(3), 'b')]],
        ['logs/copy', [fact(5, id(1), 'copy'), fact(70, id(2), 'copy')]],
      ],
      [['logs/c', [fact(130, id(4), 'c'), fact(131, id(1), 'c')]]],
      [],
    ];
    const fetched: number[] = [];
    for (const step of steps) {
      for (const [key, facts] of step) await deliver(m, key, facts);
      const through = await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
      expect([...through.facts.facts()]).toEqual(await factsOf(m.s3));
      fetched.push(through.fetched);
    }
    // Objects per delivery: a spans two hours, b one, the copy two, c one; the last run none.
    expect(fetched).toEqual([2, 3, 1, 0]);
  });

  it('says a missing snapshot, then reads through the one it wrote', async () => {
    const m = memoryS3();
    await deliver(m, 'logs/a', [fact(5, id(1), 'a')]);
    const first = await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
    expect(first.snapshot).toMatchObject({ found: 'absent', saved: 'written', objects: 0 });
    expect(snapshotNotices(first.snapshot).map((n) => n.level)).toEqual(['info']);
    const second = await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
    expect(second.snapshot).toMatchObject({ found: 'used', saved: 'unchanged', objects: 1 });
    expect(second.fetched).toBe(0);
    expect(snapshotNotices(second.snapshot)).toEqual([]);
  });

  it.each<[string, (b: Buffer) => Buffer, 'unreadable' | 'used', number]>([
    ['damaged (cut short)', (b) => b.subarray(0, b.length - 3), 'unreadable', 1],
    [
      'of another cluster',
      (b) => Buffer.from(b.toString('latin1').replace(CLUSTER, 'eks-b'), 'latin1'),
      'unreadable',
      1,
    ],
    // The header is good but the member's bytes are not gzip: that member alone is fetched again.
    [
      'with a damaged member',
      (b) => Buffer.concat([b.subarray(0, b.length - 4), Buffer.alloc(4)]),
      'used',
      1,
    ],
  ])('reads the window in full when the snapshot is %s, and says so', async (_, damage, found, fetched) => {
    const m = memoryS3();
    await deliver(m, 'logs/a', [fact(5, id(1), 'a')]);
    await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
    const held = m.objects.get(SNAPSHOT)!;
    m.objects.set(SNAPSHOT, { ...held, body: damage(held.body), etag: '"damaged"' });
    const read = await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
    expect(read.snapshot.found).toBe(found);
    expect(read.fetched).toBe(fetched);
    expect([...read.facts.facts()]).toEqual(await factsOf(m.s3));
    expect(read.snapshot.saved).toBe('written');
    if (found === 'unreadable') expect(snapshotNotices(read.snapshot).map((n) => n.level)).toEqual(['warn']);
  });

  it('keeps no snapshot of a window larger than its limit, and says so', async () => {
    const m = memoryS3();
    await deliver(m, 'logs/a', [fact(5, id(1), 'a')]);
    await deliver(m, 'logs/b', [fact(6, id(2), 'b')]);
    const one = m.objects.get([...m.objects.keys()].find((k) => k.startsWith('facts/'))!)!.body.length;
    const read = await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO, one + 1);
    expect(read.snapshot).toMatchObject({ found: 'absent', saved: 'too-large' });
    expect(read.read).toBeNull();
    expect(m.objects.has(SNAPSHOT)).toBe(false);
    expect([...read.facts.facts()]).toEqual(await factsOf(m.s3));
    expect(snapshotNotices(read.snapshot).map((n) => n.message)).toContain(
      'facts window larger than 64 MiB: no snapshot kept, the next run reads it in full',
    );
  });

  it('takes a 403 on the snapshot for a denial, naming the permission that makes it a 404', async () => {
    const denied = {
      send: () =>
        Promise.reject(
          new S3ServiceException({
            name: 'AccessDenied',
            $fault: 'client',
            $metadata: { httpStatusCode: 403 },
            message: 'AccessDenied',
          }),
        ),
    } as unknown as S3Client;
    await expect(readFactsThroughSnapshot(denied, 'b', layout, CLUSTER, FROM, TO)).rejects.toThrow(
      /facts-window\.pack.*s3:ListBucket/,
    );
  });

  it('does not replace a snapshot another run wrote since it was read', async () => {
    const m = memoryS3();
    await deliver(m, 'logs/a', [fact(5, id(1), 'a')]);
    await readFactsThroughSnapshot(m.s3, 'b', layout, CLUSTER, FROM, TO);
    await deliver(m, 'logs/b', [fact(6, id(2), 'b')]);
    // Another run's snapshot lands while this one reads the facts.
    const send = m.s3.send.bind(m.s3) as (c: unknown) => Promise<unknown>;
    const racing = {
      send: async (cmd: { constructor: { name: string } }) => {
        const out = await send(cmd);
        if (cmd.constructor.name === 'ListObjectsV2Command') {
          const held = m.objects.get(SNAPSHOT)!;
          m.objects.set(SNAPSHOT, { ...held, etag: '"theirs"' });
        }
        return out;
      },
    } as unknown as S3Client;
    const read = await readFactsThroughSnapshot(racing, 'b', layout, CLUSTER, FROM, TO);
    expect(read.snapshot.saved).toBe('conflict');
    expect(m.objects.get(SNAPSHOT)!.etag).toBe('"theirs"');
    expect(snapshotNotices(read.snapshot).map((n) => n.level)).toEqual(['warn']);
  });
});
