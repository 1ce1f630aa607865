// The scaling runs' folders (bench/lib/split.ts): the file's bytes, all of them, in order,
// cut only at a record's boundary, in as many objects as asked. The smoke test analyses the
// JSON-lines folder; this covers both formats without running an analysis (~2 s). Its own
// seed and count: jest runs test files side by side, and two processes must never make the
// same cached file or folder at once.
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
      const file = await ensureBenchFile({ size: 2 * 1024 * 1024, format, seed: 11 });
      const folder = await ensureSplit(file, 3);
      const parts = readdirSync(folder)
        .sort()
        .map((name) => gunzipSync(readFileSync(path.join(folder, name))));
      expect(parts).toHaveLength(3);
      expect(Buffer.concat(parts).equals(gunzipSync(readFileSync(file.path)))).toBe(true);
      for (const part of parts)
        expect(part.subarray(0, FIRST_BYTES[format].length).toString()).toBe(FIRST_BYTES[format]);
    },
  );
});
