// The framer alone: where records start and end, which line they are on, and how it
// recovers from damage, whatever the chunking of the input.
import fc from 'fast-check';
import { Framer, type FrameSkip } from '../../lib/ingest/framing';

type Out = ['json' | 'text', string, number] | ['skip', FrameSkip, number];

function frame(
  input: string | Buffer,
  chunk = Number.MAX_SAFE_INTEGER,
  max = 1 << 20,
): { out: Out[]; nul: number } {
  const out: Out[] = [];
  const f = new Framer(
    {
      json: (b, s, e, line) => out.push(['json', b.toString('utf8', s, e), line]),
      text: (b, s, e, line) => out.push(['text', b.toString('utf8', s, e), line]),
      skip: (line, reason) => out.push(['skip', reason, line]),
    },
    max,
  );
  const buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  for (let i = 0; i < buf.length; i += chunk) f.push(buf.subarray(i, i + chunk));
  f.end();
  return { out, nul: f.nulBytes };
}

const table: { name: string; input: string; max?: number; want: Out[] }[] = [
  {
    name: 'JSON lines',
    input: '{"a":1}\n{"b":2}\n',
    want: [
      ['json', '{"a":1}', 1],
      ['json', '{"b":2}', 2],
    ],
  },
  {
    name: 'last line without newline',
    input: '{"a":1}\n{"b":2}',
    want: [
      ['json', '{"a":1}', 1],
      ['json', '{"b":2}', 2],
    ],
  },
  {
    name: 'CRLF, blank lines, trailing spaces',
    input: '{"a":1}  \r\n\r\n\n{"b":2}\r\n',
    want: [
      ['json', '{"a":1}', 1],
      ['json', '{"b":2}', 4],
    ],
  },
  { name: 'byte order mark', input: '\ufeff{"a":1}\n', want: [['json', '{"a":1}', 1]] },
  { name: 'top-level array', input: '[{"a":1},{"b":2}]\n', want: [['json', '[{"a":1},{"b":2}]', 1]] },
  {
    name: 'pretty-printed document',
    input: '{\n  "items": [\n    {"a": "x"}\n  ]\n}',
    want: [['json', '{\n  "items": [\n    {"a": "x"}\n  ]\n}', 1]],
  },
  {
    name: 'document then a line',
    input: '{\n "a": 1\n}\n{"b":2}\n',
    want: [
      ['json', '{\n "a": 1\n}', 1],
      ['json', '{"b":2}', 4],
    ],
  },
  {
    name: 'concatenated, no delimiter',
    input: '{"a":1}{"b":{"c":2}}{"d":3}',
    want: [
      ['json', '{"a":1}', 1],
      ['json', '{"b":{"c":2}}', 1],
      ['json', '{"d":3}', 1],
    ],
  },
  {
    name: 'concatenated, then newline-delimited',
    input: '{"a":1}{"b":2}\n{"c":3}\n',
    want: [
      ['json', '{"a":1}', 1],
      ['json', '{"b":2}', 1],
      ['json', '{"c":3}', 2],
    ],
  },
  {
    name: '}{ inside a string is not a boundary',
    input: '{"a":"x}{y","b":"\\"}{\\""}\n{"c":3}\n',
    want: [
      ['json', '{"a":"x}{y","b":"\\"}{\\""}', 1],
      ['json', '{"c":3}', 2],
    ],
  },
  {
    name: 'text lines',
    input: '2026-11-02T10:00:00Z stderr F hello\nplain text\n',
    want: [
      ['text', '2026-11-02T10:00:00Z stderr F hello', 1],
      ['text', 'plain text', 2],
    ],
  },
  {
    name: 'line cut inside a string, next line intact',
    input: '{"a":1}\n{"kind":"Event","x":"trunc\n{"b":2}\n',
    want: [
      ['json', '{"a":1}', 1],
      ['skip', 'incomplete-record', 2],
      ['json', '{"b":2}', 3],
    ],
  },
  {
    name: 'line cut outside a string, next line intact',
    input: '{"a":{"b":1},\n{"c":2}\n',
    want: [
      ['skip', 'incomplete-record', 1],
      ['json', '{"c":2}', 2],
    ],
  },
  {
    name: 'fragment of a line (its start lost)',
    input: 'pute.internal","x":1}}\n{"c":2}\n',
    want: [
      ['text', 'pute.internal","x":1}}', 1],
      ['json', '{"c":2}', 2],
    ],
  },
  { name: 'NUL padding before a record', input: '\0\0\0\0{"a":1}\n', want: [['json', '{"a":1}', 1]] },
  {
    name: 'NUL run then a cut record',
    input: '\0\0{"kind":"Event","level":"Requ\n{"b":2}\n',
    want: [
      ['skip', 'incomplete-record', 1],
      ['json', '{"b":2}', 2],
    ],
  },
  {
    name: 'file ends inside a record',
    input: '{"a":1}\n{"b":"unfinished',
    want: [
      ['json', '{"a":1}', 1],
      ['skip', 'incomplete-record', 2],
    ],
  },
  { name: 'file ends inside a document', input: '{\n "a": [1,\n', want: [['skip', 'incomplete-record', 1]] },
  {
    name: 'over-long JSON line is skipped, the next one read',
    input: `{"a":"${'x'.repeat(100)}"}\n{"b":2}\n`,
    max: 50,
    want: [
      ['skip', 'line-too-long', 1],
      ['json', '{"b":2}', 2],
    ],
  },
  {
    name: 'over-long text line is skipped',
    input: `${'y'.repeat(100)}\n{"b":2}\n`,
    max: 50,
    want: [
      ['skip', 'line-too-long', 1],
      ['json', '{"b":2}', 2],
    ],
  },
  {
    name: 'over-long value among concatenated ones',
    input: `{"a":1}{"big":"${'z'.repeat(100)}"}{"c":3}`,
    max: 50,
    want: [
      ['json', '{"a":1}', 1],
      ['skip', 'line-too-long', 1],
      ['json', '{"c":3}', 1],
    ],
  },
  {
    name: 'over-long multi-line document',
    input: `{\n "a": "${'z'.repeat(100)}"\n}\n{"c":3}\n`,
    max: 50,
    want: [
      ['skip', 'line-too-long', 1],
      ['json', '{"c":3}', 4],
    ],
  },
];

describe('Framer', () => {
  it.each(table)('$name', ({ input, max, want }) => {
    // The same frames whatever the chunking: whole, every byte apart, and odd sizes.
    for (const chunk of [Number.MAX_SAFE_INTEGER, 1, 2, 3, 7, 16]) {
      expect(frame(input, chunk, max ?? 1 << 20).out).toEqual(want);
    }
  });

  it('counts NUL padding instead of framing it', () => {
    expect(frame('\0\0\0\n\0').nul).toBe(4);
    expect(frame('\0\0\0\n\0').out).toEqual([]);
  });

  it('never keeps more than the cap of an endless line', () => {
    // 64 MiB without a newline, in 1 MiB chunks, with an 8 MiB cap: one skip, then the next line.
    const out: Out[] = [];
    const f = new Framer(
      {
        json: (b, s, e, line) => out.push(['json', b.toString('utf8', s, e), line]),
        text: (b, s, e, line) => out.push(['text', b.toString('utf8', s, e), line]),
        skip: (line, reason) => out.push(['skip', reason, line]),
      },
      8 << 20,
    );
    const chunk = Buffer.alloc(1 << 20, 'a');
    f.push(Buffer.from('{"x":"'));
    for (let i = 0; i < 64; i++) {
      f.push(chunk);
      // The framer's own buffer stays bounded: it holds at most the cap plus one chunk.
      expect(
        (f as unknown as { buf: Buffer; pos: number }).buf.length - (f as unknown as { pos: number }).pos,
      ).toBeLessThanOrEqual((8 << 20) + (1 << 20));
    }
    f.push(Buffer.from('"}\n{"y":1}\n'));
    f.end();
    expect(out).toEqual([
      ['skip', 'line-too-long', 1],
      ['json', '{"y":1}', 2],
    ]);
  });

  it('frames concatenated values cut exactly between them (Firehose: one chunk per payload)', () => {
    const values = ['{"a":1}', '{"b":"x}{\\"y"}', '{"c":[{"d":2},{"e":3}]}', '{"f":{}}'];
    const out: Out[] = [];
    const f = new Framer(
      {
        json: (b, s, e, line) => out.push(['json', b.toString('utf8', s, e), line]),
        text: (b, s, e, line) => out.push(['text', b.toString('utf8', s, e), line]),
        skip: (line, reason) => out.push(['skip', reason, line]),
      },
      1 << 20,
    );
    for (const v of values) f.push(Buffer.from(v));
    // Each value is framed as soon as the next one proves where it ends.
    expect(out.map((o) => o[1])).toEqual(values.slice(0, -1));
    f.end();
    expect(out).toEqual(values.map((v) => ['json', v, 1]));
  });

  it('a carried value over the cap is still skipped at a chunk boundary', () => {
    const big = `{"a":"${'x'.repeat(40)}"}`;
    const out = frame(`${big}{"b":1}`, big.length, 32).out;
    expect(out).toEqual([
      ['skip', 'line-too-long', 1],
      ['json', '{"b":1}', 1],
    ]);
  });

  it('splits any sequence of JSON values identically under any chunking (property)', () => {
    const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ v }));
    const sep = fc.constantFrom('', '\n', '\r\n', '\n\n', ' \n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, sep), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        (items, chunk) => {
          const input = items.map(([v, s]) => v + s).join('\n');
          const got = frame(input, chunk).out;
          expect(got.map((o) => o[1])).toEqual(items.map(([v]) => v));
        },
      ),
      { numRuns: 300 },
    );
  });
});
