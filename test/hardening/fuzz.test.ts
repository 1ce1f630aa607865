// Hostile and broken input: whatever the bytes, the reader, the projection and the
// analysis never throw, never hang and keep memory bounded; every valid record around a
// bad one is still read, and the bad one is counted with a reason. Properties are seeded
// (reproducible) and bounded in runs so each stays within a few seconds.
import { createHash } from 'crypto';
import fc from 'fast-check';
import type { Transform } from 'stream';
import { constants, createDeflateRaw, createGzip, crc32, deflateRawSync, gunzipSync, gzipSync } from 'zlib';
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { projectRecord } from '../../lib/facts/project';
import { applyJsonPatch, MAX_COPIED_BYTES } from '../../lib/k8s/apply-patch';
import { decodeLastApplied, encodeLastApplied } from '../../lib/k8s/last-applied';
import type { AuditEvent } from '../../lib/model/audit';
import type { Fact } from '../../lib/model/facts';
import type { LogRecord } from '../../lib/model/record';
import { REPORT_FORMATS, renderReport } from '../../lib/report';
import { deleteEvent, jsonLines, readBytes, revertLoopEvents, totalSkipped, WEBHOOK } from './hostile';

const SEED = 20261102;

/** Records → facts → findings → every report format: the stages downstream of the reader. */
function downstream(records: readonly LogRecord[]): { facts: Fact[]; recreations: number } {
  const facts = records.map(projectRecord).filter((f): f is Fact => f !== null);
  const result = analyzeFacts(facts, defaultAnalysisOptions());
  const doc = { recreations: result.recreations, loops: result.loops, summary: {} };
  for (const format of REPORT_FORMATS)
    renderReport(doc, format, { color: false, generatedAt: '2026-11-02T12:00:00Z' });
  return { facts, recreations: result.recreations.length };
}

/** `count` valid relevant events, about 300 bytes each. */
function validEvents(prefix: string, count: number): AuditEvent[] {
  return Array.from({ length: count }, (_, i) => deleteEvent(`${prefix}${i}`, i % 60));
}

describe('the hand-built revert loop these properties mutate', () => {
  it('is read and analysed as four webhook reverts (so its hostile variants exercise every stage)', async () => {
    const { records, stats } = await readBytes(Buffer.from(jsonLines(revertLoopEvents())));
    expect(stats.audit.kept).toBe(8);
    const facts = records.map(projectRecord).filter((f): f is Fact => f !== null);
    const result = analyzeFacts(facts, defaultAnalysisOptions());
    expect(result.recreations.map((r) => [r.classification, r.fields[0]?.by])).toEqual(
      Array.from({ length: 4 }, () => ['external-mutation-revert', `scaler/${WEBHOOK}`]),
    );
    expect(result.loops).toHaveLength(1);
  });
});

describe('random bytes', () => {
  it('any bytes at all: no throw, the object is counted once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 8192 }), async (bytes) => {
        const { stats, records } = await readBytes(bytes);
        expect(stats.files.read).toBe(1);
        downstream(records);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('junk lines between valid records: every valid record is still read and each junk line is accounted for', async () => {
    // 16 valid records first: binary detection samples the first 4 KB, and a file that
    // starts as binary is rightly set aside whole.
    const head = validEvents('h', 16);
    const tail = validEvents('t', 4);
    const junkLine = fc
      .uint8Array({ minLength: 1, maxLength: 512 })
      .map((b) => Buffer.from(b.filter((x) => x !== 0x0a)));
    await fc.assert(
      fc.asyncProperty(fc.array(junkLine, { minLength: 1, maxLength: 8 }), async (junk) => {
        const body = Buffer.concat([
          Buffer.from(jsonLines(head)),
          ...junk.flatMap((j) => [j, Buffer.from('\n')]),
          Buffer.from(jsonLines(tail)),
        ]);
        const { ids, stats } = await readBytes(body);
        expect(ids).toEqual([...head, ...tail].map((e) => e.auditID));
        expect(stats.files.errors).toBe(0);
        // Nothing vanishes silently: unless every junk line is blank (whitespace/NUL), something
        // is counted (an unclosed `{` may swallow following junk lines into one skipped record).
        const blank = (j: Buffer): boolean =>
          j.every((b) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0);
        if (!junk.every(blank))
          expect(totalSkipped(stats) + stats.audit.read - ids.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('a valid gzip truncated at every 1 KB offset', () => {
  // Each event carries a few incompressible hashes, so the gzip is long enough for many cuts.
  const events = validEvents('g', 300).map((e, i) => ({
    ...e,
    requestObject: { notes: [0, 1, 2, 3].map((k) => createHash('sha256').update(`${i}/${k}`).digest('hex')) },
  }));
  const plain = Buffer.from(jsonLines(events));
  const gz = gzipSync(plain);

  /** What zlib itself can recover from the cut: the records a perfect reader must return. */
  function recoverable(cut: Buffer): number {
    const text = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    const pieces = text.split('\n');
    const last = pieces.pop() ?? '';
    let n = pieces.filter((p) => p.length > 0).length;
    try {
      JSON.parse(last);
      n++;
    } catch {
      // the last record was cut: counted as a skip, not read
    }
    return n;
  }

  it('reads everything before the cut, in order, and counts exactly one gzip-truncated error', async () => {
    expect(gz.length).toBeGreaterThan(32 * 1024); // enough cuts to mean something
    for (let off = 1024; off < gz.length; off += 1024) {
      const cut = gz.subarray(0, off);
      const { ids, stats } = await readBytes(cut);
      const want = recoverable(cut);
      expect({ off, ids }).toEqual({ off, ids: events.slice(0, want).map((e) => e.auditID) });
      expect(stats.files.errors).toBe(1);
      expect(stats.details.filter((d) => d.reason === 'gzip-truncated')).toHaveLength(1);
    }
    const whole = await readBytes(gz);
    expect(whole.ids).toHaveLength(events.length);
    expect(whole.stats.files.errors).toBe(0);
  });
});

describe('deeply nested JSON (100k levels) between two valid records', () => {
  const N = 100_000;
  it.each([
    ['arrays', '['.repeat(N) + ']'.repeat(N)],
    ['objects', '{"a":'.repeat(N) + '1' + '}'.repeat(N)],
    ['Fluent Bit `log` wrappers', '{"log":'.repeat(N) + '1' + '}'.repeat(N)],
    ['AKS `properties.log` wrappers', '{"properties":{"log":'.repeat(N) + '1' + '}}'.repeat(N)],
    ['arrays inside an EventList', '{"kind":"EventList","items":[' + '['.repeat(N) + ']'.repeat(N) + ']}'],
    ['never closed', '['.repeat(N)],
    ['a string-embedded document', JSON.stringify({ log: '['.repeat(N) + ']'.repeat(N) })],
  ])('%s: counted as one skip, the records around it read, no file error', async (_label, deep) => {
    const body = jsonLines([deleteEvent('before')]) + deep + '\n' + jsonLines([deleteEvent('after')]);
    const { ids, stats } = await readBytes(Buffer.from(body));
    expect(ids).toEqual(['before', 'after']);
    expect(stats.files.errors).toBe(0);
    expect(totalSkipped(stats)).toBe(1);
  });

  it('a pod body nested 100k levels deep is read, projected and analysed without a throw', async () => {
    const events = revertLoopEvents();
    // Spliced in as text: JSON.stringify itself recurses and cannot write it.
    (events[2].responseObject as { spec: Record<string, unknown> }).spec.affinity = '__DEEP__';
    const text = jsonLines(events).replace('"__DEEP__"', '{"x":'.repeat(N) + '1' + '}'.repeat(N));
    const { records, ids } = await readBytes(Buffer.from(text));
    expect(ids).toHaveLength(events.length);
    expect(() => downstream(records)).not.toThrow();
  });
});

describe('over-long lines', () => {
  it('a single 20 MB line (over the 8 MiB default cap) is counted as line-too-long; the records around it are read', async () => {
    const huge = JSON.stringify({
      ...deleteEvent('huge'),
      requestObject: { pad: 'x'.repeat(20 * 1024 * 1024) },
    });
    const body = Buffer.concat([
      Buffer.from(jsonLines([deleteEvent('before')])),
      Buffer.from(huge + '\n'),
      Buffer.from(jsonLines([deleteEvent('after')])),
    ]);
    const before = process.memoryUsage().rss;
    const { ids, stats } = await readBytes(body);
    expect(ids).toEqual(['before', 'after']);
    expect(stats.skipped['line-too-long']).toBe(1);
    expect(totalSkipped(stats)).toBe(1);
    // Skipped without being buffered whole again (the input itself is already in memory).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('a configured smaller cap applies the same way', async () => {
    const long = JSON.stringify({ ...deleteEvent('long'), requestObject: { pad: 'y'.repeat(64 * 1024) } });
    const body = jsonLines([deleteEvent('before')]) + long + '\n' + jsonLines([deleteEvent('after')]);
    const { ids, stats } = await readBytes(Buffer.from(body), { maxLineBytes: 16 * 1024 });
    expect(ids).toEqual(['before', 'after']);
    expect(stats.skipped['line-too-long']).toBe(1);
  });
});

describe('NUL bytes and invalid UTF-8 inside lines', () => {
  const line = JSON.stringify(deleteEvent('mid'));
  const at = line.indexOf('bob@');
  const splice = (bytes: number[]): Buffer =>
    Buffer.concat([Buffer.from(line.slice(0, at)), Buffer.from(bytes), Buffer.from(line.slice(at))]);
  it.each([
    // A raw control character inside a JSON string is invalid JSON: the record is skipped.
    ['a NUL inside a string', splice([0x00]), false],
    ['NULs between tokens', Buffer.from(line.replace('"verb"', '\u0000\u0000"verb"')), false],
    // Invalid UTF-8 decodes to U+FFFD: the record stays readable.
    ['invalid UTF-8 (0xff 0xfe) inside a string', splice([0xff, 0xfe]), true],
    ['a lone continuation byte and a truncated sequence', splice([0x80, 0xe2, 0x82]), true],
    ['an overlong encoding of "/"', splice([0xc0, 0xaf]), true],
  ])('%s: no throw, neighbours read, the line read or counted', async (_label, bad, readable) => {
    const body = Buffer.concat([
      Buffer.from(jsonLines([deleteEvent('before')])),
      bad,
      Buffer.from('\n'),
      Buffer.from(jsonLines([deleteEvent('after')])),
    ]);
    const { ids, stats, records } = await readBytes(body);
    expect(ids).toEqual(readable ? ['before', 'mid', 'after'] : ['before', 'after']);
    expect(totalSkipped(stats)).toBe(readable ? 0 : 1);
    expect(() => downstream(records)).not.toThrow();
  });

  it('NUL padding between records (a crashed writer) is passed over', async () => {
    // After the first 4 KB: binary detection samples the start of the object (see SECURITY.md).
    const head = validEvents('h', 16);
    const body = Buffer.concat([
      Buffer.from(jsonLines(head)),
      Buffer.alloc(4096),
      Buffer.from('\n' + jsonLines([deleteEvent('after')])),
    ]);
    const { ids, stats } = await readBytes(body);
    expect(ids).toEqual([...head.map((e) => e.auditID), 'after']);
    expect(stats.files.errors).toBe(0);
  });
});

/** Every path into a JSON value (objects and arrays), up to `depth` levels. */
function pathsOf(v: unknown, depth: number, prefix: (string | number)[] = []): (string | number)[][] {
  if (depth === 0 || typeof v !== 'object' || v === null) return [];
  const out: (string | number)[][] = [];
  const entries: [string | number, unknown][] = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : Object.entries(v);
  for (const [k, child] of entries) {
    const p = [...prefix, k];
    out.push(p, ...pathsOf(child, depth - 1, p));
  }
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]] = value;
}

/** Values of the wrong type, huge numbers, prototype keys, deep nesting. */
const HOSTILE_VALUES: readonly unknown[] = [
  'a string',
  '',
  42,
  -1,
  0,
  1e308,
  -1e308,
  2 ** 64,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  null,
  [],
  [1, 'two', null, {}],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown,
  '99999999999999999999999999999999Ei',
  '2026-13-45T99:99:99Z',
  JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown,
];

describe('wrong types in every field of an audit event', () => {
  const base = revertLoopEvents();

  it.each([
    ['string objectRef.uid of a delete', 1, ['objectRef', 'uid'], 'not-a-uid'],
    ['number auditID', 0, ['auditID'], 42],
    ['null objectRef', 2, ['objectRef'], null],
    ['array where user belongs', 0, ['user'], ['bob']],
    ['array where responseObject belongs', 2, ['responseObject'], [1, 2]],
    ['string requestObject of a create', 4, ['requestObject'], 'a pod'],
    ['number timestamps', 6, ['requestReceivedTimestamp'], 1730540000],
    ['object as username', 0, ['user', 'username'], { name: 'x' }],
    ['number namespace', 0, ['objectRef', 'namespace'], 7],
    ['string response code', 0, ['responseStatus', 'code'], '201'],
    ['array of annotations', 0, ['annotations'], ['a']],
    [
      'number last-applied annotation',
      0,
      ['requestObject', 'metadata', 'annotations', 'banzaicloud.com/last-applied'],
      12,
    ],
    ['object where containers belong', 4, ['responseObject', 'spec', 'containers'], { name: 'kafka' }],
    ['number where env belongs', 2, ['responseObject', 'spec', 'containers', 0, 'env'], 5],
    [
      'string webhook patch',
      0,
      ['annotations', 'patch.webhook.admission.k8s.io/round_0_index_0'],
      '{"patch":"not a list"}',
    ],
  ])(
    '%s: read, projected and analysed without a throw; the other events still read',
    async (_label, index, path, value) => {
      const events = structuredClone(base);
      setAt(events[index], path, value);
      const { ids, records } = await readBytes(Buffer.from(jsonLines(events)));
      const others = base.filter((_, i) => i !== index).map((e) => e.auditID);
      expect(ids.filter((id) => id !== base[index].auditID)).toEqual(others);
      expect(() => downstream(records)).not.toThrow();
    },
  );

  it('property: any field of any event set to any hostile value', async () => {
    const targets = base.flatMap((e, index) => pathsOf(e, 7).map((path) => ({ index, path })));
    expect(targets.length).toBeGreaterThan(200);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.constantFrom(...HOSTILE_VALUES),
        async ({ index, path }, value) => {
          const events = structuredClone(base);
          setAt(events[index], path, value);
          const { ids, records } = await readBytes(Buffer.from(jsonLines(events)));
          // The mutated event may be skipped (or its auditID changed); every other one is read, in order.
          const others = base.filter((_, i) => i !== index).map((e) => e.auditID);
          expect(ids.filter((id) => others.includes(id))).toEqual(others);
          downstream(records);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('huge numbers written as JSON text (1e400, 20-digit integers) parse and analyse', async () => {
    const text = jsonLines(base)
      .replace('"code":201', '"code":1e400')
      .replace('"cpu":"500m"', '"cpu":123456789012345678901234567890')
      .replace('"gracePeriodSeconds"', '"gracePeriodSeconds"');
    const { ids, records } = await readBytes(Buffer.from(text));
    expect(ids).toHaveLength(base.length);
    expect(() => downstream(records)).not.toThrow();
  });

  it('duplicated keys: the last one wins, as in every JSON parser the API server logs are read with', async () => {
    const line = JSON.stringify(deleteEvent('real')).replace('{', '{"auditID":"decoy","objectRef":null,');
    const { ids } = await readBytes(Buffer.from(line + '\n'));
    expect(ids).toEqual(['real']);
  });
});

describe('hostile webhook patches in the admission annotations', () => {
  const PATCH_KEY = 'patch.webhook.admission.k8s.io/round_0_index_0';
  /** The revert loop with every create's webhook patch replaced by `ops`. */
  function withPatch(ops: unknown): AuditEvent[] {
    const events = revertLoopEvents();
    for (const e of events) {
      if (e.annotations?.[PATCH_KEY])
        e.annotations[PATCH_KEY] = JSON.stringify({
          configuration: 'scaler',
          webhook: WEBHOOK,
          patch: ops,
          patchType: 'JSONPatch',
        });
    }
    return events;
  }

  it.each([
    ['a __proto__ path', [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }]],
    ['a constructor.prototype path', [{ op: 'add', path: '/constructor/prototype/polluted', value: 'yes' }]],
    [
      'a __proto__ path inside a container',
      [{ op: 'replace', path: '/spec/containers/0/__proto__/polluted', value: 'yes' }],
    ],
    ['an index far past the end', [{ op: 'add', path: '/spec/containers/99999999', value: {} }]],
    ['moving a value into itself', [{ op: 'move', from: '/spec', path: '/spec/x' }]],
    ['removing the root', [{ op: 'remove', path: '/' }]],
    ['an unknown op', [{ op: 'bogus', path: '/x' }]],
    ['operations that are not objects', [null, 5, 'x', []]],
    ['a number as path', [{ op: 'add', path: 7, value: 1 }]],
  ])('%s: analysed without a throw, no prototype polluted', async (_label, ops) => {
    const { records } = await readBytes(Buffer.from(jsonLines(withPatch(ops))));
    expect(() => downstream(records)).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('40 `copy` ops that double the pod each time (a 2 KB annotation, 2^40 expansion) are refused within bounds', async () => {
    const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/spec', path: `/spec/a${i}` }));
    expect(applyJsonPatch({ spec: { x: 'y'.repeat(100) } }, ops)).toEqual({
      ok: false,
      reason: `JSON patch copies more than ${MAX_COPIED_BYTES} bytes`,
    });
    const { records } = await readBytes(Buffer.from(jsonLines(withPatch(ops))));
    const before = process.memoryUsage().rss;
    const started = Date.now();
    expect(() => downstream(records)).not.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('a few small copies (as a real webhook might do) still apply', () => {
    const ops = [{ op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/app-copy' }];
    expect(applyJsonPatch({ metadata: { labels: { app: 'kafka' } } }, ops)).toEqual({
      ok: true,
      value: { metadata: { labels: { app: 'kafka', 'app-copy': 'kafka' } } },
    });
  });
});

/**
 * `head`, then `total` bytes of `fill`, then `tail`, through a zlib compressor, written
 * block by block so the plain bytes never exist in memory.
 */
async function compressed(z: Transform, fill: number, total: number, head = '', tail = ''): Promise<Buffer> {
  const out: Buffer[] = [];
  z.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise<void>((resolve) => z.on('end', () => resolve()));
  z.write(head);
  const block = Buffer.alloc(1024 * 1024, fill);
  for (let written = 0; written < total; written += block.length) {
    if (!z.write(block)) await new Promise<void>((resolve) => z.once('drain', () => resolve()));
  }
  z.write(tail);
  z.end();
  await ended; // the readable side's end: every compressed byte has been emitted
  return Buffer.concat(out);
}

describe('a gzip bomb as an input object', () => {
  it.each([
    ['NUL bytes', 0x00, 0],
    ['one endless line of `[`', 0x5b, 1],
    ['one endless text line', 0x61, 1],
  ])(
    '256 MiB of %s from a small gzip: streamed in bounded memory, the records around it read',
    async (_label, fill, skips) => {
      const head = jsonLines(validEvents('h', 20));
      const gz = await compressed(
        createGzip({ level: 9 }),
        fill,
        256 * 1024 * 1024,
        head,
        '\n' + jsonLines([deleteEvent('after')]),
      );
      expect(gz.length).toBeLessThan(1024 * 1024);
      const before = process.memoryUsage().rss;
      const { ids, stats } = await readBytes(gz);
      expect(ids).toEqual([...validEvents('h', 20).map((e) => e.auditID), 'after']);
      expect(stats.bytes.decompressed).toBeGreaterThan(256 * 1024 * 1024);
      expect(stats.files.errors).toBe(0);
      expect(totalSkipped(stats)).toBe(skips);
      expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    },
  );
});

/** A zip archive (as objectmatcher writes it) whose entries hold `data`, deflated or stored, with declared sizes. */
function zipOf(entries: readonly { name: string; data: Buffer; method: 0 | 8; size: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('hostile last-applied annotations', () => {
  let bomb = '';
  beforeAll(async () => {
    // 1 GiB of zeros deflates to about 1 MB: the annotation is small, its inflated size is not.
    const deflated = await compressed(createDeflateRaw({ level: 9 }), 0, 1024 * 1024 * 1024);
    bomb = zipOf([{ name: 'original', data: deflated, method: 8, size: 0xffffffff }]).toString('base64');
  }, 30_000);

  it('a zip bomb (1 GiB of zeros) is refused at the cap, quickly and without the memory', () => {
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const d = decodeLastApplied(bomb);
    expect(d).toEqual({ ok: false, reason: expect.stringMatching(/inflates past/) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it('the same bomb on every broker pod goes through ingest and analysis without a throw, memory bounded', async () => {
    const before = process.memoryUsage().rss;
    const { ids, records } = await readBytes(Buffer.from(jsonLines(revertLoopEvents({ lastApplied: bomb }))));
    expect(ids).toHaveLength(8);
    expect(() => downstream(records)).not.toThrow();
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  const good = Buffer.from(encodeLastApplied({ spec: { containers: [{ name: 'kafka' }] } }), 'base64');
  it.each([
    [
      'a zip with 20,000 entries, none named original',
      zipOf(
        Array.from({ length: 20_000 }, (_, i) => ({
          name: `e${i}`,
          data: Buffer.from('{}'),
          method: 0 as const,
          size: 2,
        })),
      ),
      /no entry named original/,
    ],
    [
      'a zip with 20,000 entries, original last',
      zipOf([
        ...Array.from({ length: 19_999 }, (_, i) => ({
          name: `e${i}`,
          data: Buffer.from('{}'),
          method: 0 as const,
          size: 2,
        })),
        { name: 'original', data: deflateRawSync('{"spec":{}}'), method: 8 as const, size: 11 },
      ]),
      null,
    ],
    [
      'a stored (uncompressed) entry over the cap',
      zipOf([
        { name: 'original', data: Buffer.alloc(5 * 1024 * 1024, 0x20), method: 0, size: 5 * 1024 * 1024 },
      ]),
      /past|over/,
    ],
    [
      'an unsupported compression method',
      zipOf([{ name: 'original', data: Buffer.from('{}'), method: 12 as 0, size: 2 }]),
      /unsupported/,
    ],
    [
      'base64 that is not a zip',
      Buffer.from('this is not json, not a zip \u0000\u0001\u0002'),
      /invalid JSON|not a JSON object/,
    ],
    [
      'a central directory pointing past the end',
      (() => {
        const z = Buffer.from(good);
        z.writeUInt32LE(0x7fffffff, z.length - 6);
        return z;
      })(),
      /./,
    ],
    [
      'a forged entry count of 65535',
      (() => {
        const z = Buffer.from(good);
        z.writeUInt16LE(0xffff, z.length - 12);
        return z;
      })(),
      null,
    ],
    [
      'a local header offset past the end',
      (() => {
        const z = Buffer.from(good);
        z.writeUInt32LE(0x7ffffff0, z.length - 22 - 'original'.length - 4);
        return z;
      })(),
      /corrupt local header/,
    ],
  ])('%s: answered without a throw', (_label, zip, reason) => {
    const started = Date.now();
    const d = decodeLastApplied(zip.toString('base64'));
    expect(Date.now() - started).toBeLessThan(2000);
    if (reason === null) expect(d.ok).toBe(true);
    else expect(d).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('a valid zip truncated at every byte never throws and never decodes to a wrong object', () => {
    const crcOk = crc32(Buffer.from('{}')) >= 0; // zlib's crc32 exists on this Node (it builds the fixtures)
    expect(crcOk).toBe(true);
    for (let cut = 0; cut < good.length; cut++) {
      const d = decodeLastApplied(good.subarray(0, cut).toString('base64'));
      if (d.ok) expect(d.value).toEqual({ spec: { containers: [{ name: 'kafka' }] } });
    }
    expect(decodeLastApplied(good.toString('base64'))).toMatchObject({ ok: true, encoding: 'zip' });
  });

  it('property: any bytes, base64-encoded, decode or are refused without a throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const d = decodeLastApplied(Buffer.from(bytes).toString('base64'));
        expect(typeof d.ok).toBe('boolean');
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
