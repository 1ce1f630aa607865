// readFactsWindow downloads a window's facts objects in parallel but merges them in key
// order: which copy of a repeated event is kept must not depend on which download
// finished first. A stub S3 client (this is a unit test) makes the first object the slowest.
import { gzipSync } from 'zlib';
import type { S3Client } from '@aws-sdk/client-s3';
import { readFactsWindow } from '../../lib/aws/facts-store';
import { encodeFacts } from '../../lib/facts/codec';
import { defaultLayout, hourFactsPrefix } from '../../lib/aws/bucket-layout';
import { podFact } from '../facts/fixtures';

const layout = defaultLayout();
const prefix = hourFactsPrefix(layout, 'eks-a', '2026-11-02-10');

function stubS3(objects: Record<string, Buffer>, delayMs: Record<string, number>): S3Client {
  const send = async (cmd: { constructor: { name: string }; input: Record<string, string> }) => {
    if (cmd.constructor.name === 'ListObjectsV2Command') {
      const keys = Object.keys(objects).filter((k) => k.startsWith(cmd.input.Prefix));
      return { Contents: keys.map((Key) => ({ Key })), IsTruncated: false };
    }
    const key = cmd.input.Key;
    await new Promise((r) => setTimeout(r, delayMs[key] ?? 0));
    return { Body: { transformToByteArray: async () => new Uint8Array(objects[key]) } };
  };
  return { send } as unknown as S3Client;
}

it('keeps the copy of the first object in key order, whichever download finishes first', async () => {
  const at = '2026-11-02T10:00:01.000000Z';
  const copy = (source: string) => podFact({ at, doneAt: at, src: { source, line: 1 } });
  const object = (source: string, extra = 0) =>
    gzipSync(
      encodeFacts({ source, etag: null, cluster: 'eks-a', hour: '2026-11-02-10' }, [
        copy(source),
        ...Array.from({ length: extra }, (_, i) =>
          podFact({ at, doneAt: at, auditID: `other-${source}-${i}`, src: { source, line: 2 + i } }),
        ),
      ]),
    );
  const objects = {
    [`${prefix}a.jsonl.gz`]: object('export', 1),
    [`${prefix}b.jsonl.gz`]: object('firehose', 2),
  };
  const s3 = stubS3(objects, { [`${prefix}a.jsonl.gz`]: 50 });
  const win = await readFactsWindow(
    s3,
    'bucket',
    layout,
    'eks-a',
    new Date('2026-11-02T10:00:00Z'),
    new Date('2026-11-02T10:59:59Z'),
  );
  const facts = [...win.facts.facts()];
  expect(win.objects).toBe(2);
  // One copy of the repeated event (the export's, listed first), and every other event.
  expect(facts.map((f) => f.src.source)).toEqual(['export', 'export', 'firehose', 'firehose']);
});
