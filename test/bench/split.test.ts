// The scaling runs' folders (bench/lib/split.ts): the file's bytes, all of them, in order,
// cut only at a record's boundary, in as many objects as asked. The smoke test analyses the
// JSON-lines folder; this covers both formats without running an analysis (~2 s).
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import { gunzipSync } from 'zlib';
import { ensureBenchFile, type BenchFormat } from '../../bench/generate';
import { ensureSplit } from '../../bench/lib/split';

const FIRST_BYTES: Record<BenchFormat, string> = { jsonl: '{"kind":"Event"', firehose: '{"messageType"' };

describe('bench folders cut from a file', () => {
  it.each<BenchFormat>(['jsonl', 'firehose'])(
    '%s: every byte in order, each object whole records',
    async (format) => {
      const file = await ensureBenchFile({ size: 2 * 1024 * 1024, format, seed: 7 });
      const folder = await ensureSplit(file, 4);
      const parts = readdirSync(folder)
        .sort()
        .map((name) => gunzipSync(readFileSync(path.join(folder, name))));
      expect(parts).toHaveLength(4);
      expect(Buffer.concat(parts).equals(gunzipSync(readFileSync(file.path)))).toBe(true);
      for (const part of parts)
        expect(part.subarray(0, FIRST_BYTES[format].length).toString()).toBe(FIRST_BYTES[format]);
    },
  );
});
