// Bad input never crashes the reader and never costs what could be read: every skipped
// line is counted by reason and located by {source, line}.
import { Readable } from 'stream';
import { createIngestStats, readObject } from '../../lib/ingest';
import { encodeAudit, gzipMembers } from '../../sim/encode';
import type { SourceObject } from '../../lib/sources/types';
import { auditEvent, auditOf, memoryObject, mixedEvents, operatorOf, readAll, readOne } from './fixtures';

const unhandled: unknown[] = [];
const onUnhandled = (e: unknown): void => {
  unhandled.push(e);
};
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});
afterEach(() => expect(unhandled).toEqual([]));

// A pod that shows it is koperator's (other teams' pods are not relevant records).
const good = (name = 'p-0'): string =>
  JSON.stringify(
    auditEvent({
      verb: 'delete',
      resource: 'pods',
      name,
      responseObject: { kind: 'Pod', metadata: { name, labels: { app: 'kafka' } } },
    }),
  );

describe('damaged lines among good ones', () => {
  const table: { name: string; bad: string | Buffer; reason: string }[] = [
    {
      name: 'half-written line',
      bad: '{"kind":"Event","auditID":"x","stage":"Resp',
      reason: 'incomplete-record',
    },
    {
      name: 'line cut outside a string',
      bad: '{"kind":"Event","objectRef":{"resource":"pods"},',
      reason: 'incomplete-record',
    },
    {
      name: 'invalid JSON that looks closed',
      bad: '{"kind":"Event","auditID":,"pods":1}',
      reason: 'corrupt-json',
    },
    { name: 'fragment of a line', bad: 'mpute.internal","pods":1}}', reason: 'not-a-log-line' },
    {
      name: 'NUL run then a cut line',
      bad: Buffer.concat([Buffer.alloc(30), Buffer.from('{"kind":"Event","level":"Requ')]),
      reason: 'incomplete-record',
    },
    {
      name: 'raw NUL inside a record',
      bad: Buffer.from('{"kind":"Event","pods":"a\0b"}'),
      reason: 'corrupt-json',
    },
    {
      name: 'binary junk line',
      bad: Buffer.from([0x01, 0x02, 0xff, 0xfe, 0x00, 0x13, 0x7f]),
      reason: 'not-a-log-line',
    },
    { name: 'JSON that is not a log record', bad: '{"hello":"pods"}', reason: 'foreign-record' },
    { name: 'a JSON array of non-records', bad: '["pods"]', reason: 'foreign-record' },
    {
      name: 'event without auditID',
      bad: JSON.stringify({ ...auditEvent({ verb: 'create', resource: 'pods' }), auditID: undefined }),
      reason: 'missing-auditID',
    },
    {
      name: 'event without stage',
      bad: JSON.stringify({ ...auditEvent({ verb: 'create', resource: 'pods' }), stage: undefined }),
      reason: 'missing-stage',
    },
    {
      name: 'event without verb',
      bad: JSON.stringify({ ...auditEvent({ verb: 'create', resource: 'pods' }), verb: 7 }),
      reason: 'missing-verb',
    },
    {
      name: 'event without timestamps',
      bad: JSON.stringify({
        ...auditEvent({ verb: 'create', resource: 'pods' }),
        requestReceivedTimestamp: undefined,
        stageTimestamp: undefined,
      }),
      reason: 'missing-timestamp',
    },
    {
      name: 'zap line with an unusable ts',
      bad: '{"level":"info","ts":"yesterday","msg":"broker pod deleted"}',
      reason: 'bad-ts',
    },
  ];

  it.each(table)('$name: counted as $reason at its line, neighbours kept', async ({ bad, reason }) => {
    const bytes = Buffer.concat([
      Buffer.from(`${good('a')}\n${good('b')}\n`),
      Buffer.isBuffer(bad) ? bad : Buffer.from(bad),
      Buffer.from(`\n${good('c')}\n`),
    ]);
    for (const chunk of [1 << 20, 5]) {
      const { records, stats } = await readOne(memoryObject('mem/damaged.log', bytes, chunk));
      expect(auditOf(records).map((e) => e.objectRef?.name)).toEqual(['a', 'b', 'c']);
      expect(stats.skipped).toEqual({ [reason]: 1 });
      expect(stats.details).toEqual([
        expect.objectContaining({ source: 'mem/damaged.log', line: 3, reason }),
      ]);
      expect(stats.files).toEqual({ read: 1, empty: 0, foreign: 0, errors: 0 });
    }
  });
});

describe('hostile nesting', () => {
  it.each([
    ['arrays', `${'['.repeat(100_000)}${good('x')}${']'.repeat(100_000)}`],
    ['Fluent Bit log objects', `${'{"log":'.repeat(100_000)}${good('x')}${'}'.repeat(100_000)}`],
    ['AKS properties', `${'{"properties":{"log":'.repeat(50_000)}${good('x')}${'}}'.repeat(50_000)}`],
  ])('a record wrapped in %s 100 000 deep is skipped, the next lines read', async (_, deep) => {
    const { records, stats } = await readOne(
      memoryObject('mem/deep', `${good('a')}\n${deep}\n${good('b')}\n`),
    );
    expect(auditOf(records).map((e) => e.objectRef?.name)).toEqual(['a', 'b']);
    expect(stats.files.errors).toBe(0);
    expect(stats.skipped).toEqual({ 'foreign-record': 1 });
    expect(stats.details).toEqual([
      { source: 'mem/deep', line: 2, reason: 'foreign-record', note: 'wrapped more than 8 levels deep' },
    ]);
  });
});

describe('whole files that are not logs', () => {
  const table: {
    name: string;
    bytes: Buffer;
    want: { empty: number; foreign: number };
    note?: string | RegExp;
  }[] = [
    { name: 'empty file', bytes: Buffer.alloc(0), want: { empty: 1, foreign: 0 } },
    { name: 'whitespace only', bytes: Buffer.from('\n\n  \r\n'), want: { empty: 1, foreign: 0 } },
    { name: 'empty gzip', bytes: gzipMembers(''), want: { empty: 1, foreign: 0 } },
    {
      name: 'only NUL bytes',
      bytes: Buffer.alloc(5000),
      want: { empty: 0, foreign: 1 },
      note: 'only NUL bytes',
    },
    {
      name: 'binary file',
      bytes: Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256)),
      want: { empty: 0, foreign: 1 },
      note: 'binary data',
    },
    {
      name: 'text file',
      bytes: Buffer.from('# Notes\n\nNothing to see.\n'),
      want: { empty: 0, foreign: 1 },
      note: 'not-a-log-line: text, 7 bytes',
    },
    {
      name: 'S3 write test',
      bytes: Buffer.from('Permission Check Successful'),
      want: { empty: 0, foreign: 1 },
      note: 'not-a-log-line: text, 27 bytes',
    },
    {
      name: 'other JSON document',
      bytes: Buffer.from('{\n  "name": "x",\n  "version": "1.0.0"\n}\n'),
      want: { empty: 0, foreign: 1 },
      note: /foreign-record/,
    },
    {
      name: "Falco's fuzz stub",
      bytes: Buffer.from('{"kind": 0}'),
      want: { empty: 0, foreign: 1 },
      note: /foreign-record/,
    },
  ];
  it.each(table)('$name', async ({ bytes, want, note }) => {
    const { records, stats } = await readOne(memoryObject('mem/file', bytes));
    expect(records).toEqual([]);
    expect(stats.files).toEqual({ read: 1, errors: 0, ...want });
    if (note !== undefined) {
      expect(stats.details).toEqual([
        { source: 'mem/file', line: 0, reason: 'foreign-file', note: expect.stringMatching(note) },
      ]);
    } else {
      expect(stats.details).toEqual([]);
    }
  });

  it('a Firehose object holding only a CONTROL_MESSAGE is neither empty nor foreign', async () => {
    const bytes = encodeAudit('eks-firehose-cwl', [], { cloudWatch: { controlMessage: true } });
    const { stats } = await readOne(memoryObject('mem/fh', bytes));
    expect(stats.controlMessages).toBe(1);
    expect(stats.files).toEqual({ read: 1, empty: 0, foreign: 0, errors: 0 });
  });
});

describe('limits', () => {
  it('an over-long line is counted and skipped, the rest read', async () => {
    const long = JSON.stringify(
      auditEvent({ verb: 'create', resource: 'pods', requestObject: { pad: 'x'.repeat(5000) } }),
    );
    const { records, stats } = await readOne(
      memoryObject('mem/long', `${good('a')}\n${long}\n${good('b')}\n`, 700),
      { maxLineBytes: 2000 },
    );
    expect(auditOf(records).map((e) => e.objectRef?.name)).toEqual(['a', 'b']);
    expect(stats.skipped).toEqual({ 'line-too-long': 1 });
    expect(stats.details).toEqual([{ source: 'mem/long', line: 2, reason: 'line-too-long' }]);
  });

  it('keeps at most 20 details per file, counting the rest as omitted', async () => {
    const lines = Array.from({ length: 100 }, () => 'junk').join('\n');
    const { stats } = await readOne(memoryObject('mem/junk', `${good()}\n${lines}\n`));
    expect(stats.skipped).toEqual({ 'not-a-log-line': 100 });
    expect(stats.details).toHaveLength(20);
    expect(stats.detailsOmitted).toBe(80);
  });

  it('invalid UTF-8 inside a string does not lose the event', async () => {
    const ev = auditEvent({ verb: 'delete', resource: 'pods', name: 'orders-kafka-0-abcde' });
    const text = JSON.stringify({ ...ev, userAgent: 'AGENT' });
    const bytes = Buffer.from(text);
    const at = bytes.indexOf('AGENT');
    bytes[at] = 0xc3; // a lead byte with no continuation
    bytes[at + 1] = 0x28;
    const { records, stats } = await readOne(memoryObject('mem/utf8', bytes));
    expect(stats.skipped).toEqual({});
    expect(auditOf(records)).toHaveLength(1);
    expect(auditOf(records)[0].userAgent).toBe('\ufffd(ENT');
  });

  it('a CloudWatch message cut by CloudWatch is counted as such', async () => {
    const ev = auditEvent({ verb: 'create', resource: 'pods' });
    const payload = {
      messageType: 'DATA_MESSAGE',
      owner: '1',
      logGroup: 'g',
      logStream: 's',
      subscriptionFilters: [],
      logEvents: [
        { id: '1', timestamp: 1, message: `${JSON.stringify(ev).slice(0, 200)}[Truncated...]` },
        { id: '2', timestamp: 1, message: JSON.stringify(ev) },
      ],
    };
    const { records, stats } = await readOne(memoryObject('mem/cwl', gzipMembers(JSON.stringify(payload))));
    expect(records).toHaveLength(1);
    expect(stats.skipped).toEqual({ 'cloudwatch-truncated': 1 });
  });
});

describe('CRI partial lines', () => {
  const zap =
    '{"level":"info","ts":"2026-11-02T10:00:00.000Z","msg":"broker pod deleted","pod":"p-1","brokerId":"1"}';
  const ts = '2026-11-02T10:00:00.123456789Z';

  it('joins P parts per stream until F, even when the other stream interleaves', async () => {
    const text = [
      `${ts} stderr P ${zap.slice(0, 30)}`,
      `${ts} stdout F plain text from another writer`,
      `${ts} stderr P ${zap.slice(30, 60)}`,
      `${ts} stderr F ${zap.slice(60)}`,
    ].join('\n');
    const { records, stats } = await readOne(memoryObject('mem/cri', `${text}\n`, 9));
    expect(operatorOf(records)).toEqual([
      {
        ts: '2026-11-02T10:00:00.000Z',
        level: 'info',
        msg: 'broker pod deleted',
        fields: { pod: 'p-1', brokerId: '1' },
      },
    ]);
    expect(records[0].at).toEqual({ source: 'mem/cri', line: 1 });
    expect(stats.skipped).toEqual({ 'not-a-log-line': 1 });
    expect(stats.details).toEqual([
      { source: 'mem/cri', line: 2, reason: 'not-a-log-line', note: 'text, 30 bytes' },
    ]);
  });

  it('a P part never finished: what was received is tried, then counted', async () => {
    const complete = await readOne(memoryObject('mem/cri', `${ts} stderr P ${zap}\n`));
    expect(operatorOf(complete.records)).toHaveLength(1);
    const cut = await readOne(memoryObject('mem/cri', `${ts} stderr P ${zap.slice(0, 40)}\n`));
    expect(cut.records).toEqual([]);
    expect(cut.stats.skipped).toEqual({ 'incomplete-record': 1 });
  });

  it('joined parts beyond the cap are skipped once', async () => {
    const parts = Array.from({ length: 10 }, () => `${ts} stderr P ${'x'.repeat(100)}`);
    const { stats } = await readOne(
      memoryObject('mem/cri', `${parts.join('\n')}\n${ts} stderr F }\n${ts} stderr F ${zap}\n`),
      { maxLineBytes: 500 },
    );
    expect(stats.skipped).toEqual({ 'line-too-long': 1 });
    expect(stats.operator.kept).toBe(1);
  });
});

describe('sources that fail', () => {
  it('an object that cannot be opened is one counted error', async () => {
    const obj: SourceObject = { name: 'mem/denied', open: () => Promise.reject(new Error('AccessDenied')) };
    const { records, stats } = await readAll([obj, memoryObject('mem/ok', `${good()}\n`)]);
    expect(records).toHaveLength(1);
    // Not opened, not read: an input error.
    expect(stats.files).toEqual({ read: 1, empty: 0, foreign: 0, errors: 1 });
    expect(stats.details).toEqual([
      { source: 'mem/denied', line: 0, reason: 'open-error', note: 'AccessDenied' },
    ]);
  });

  it('a stream failing part way keeps the records read before', async () => {
    const obj: SourceObject = {
      name: 'mem/reset',
      open: async () =>
        Readable.from(
          (async function* () {
            yield Buffer.from(`${good('a')}\n${good('b')}\n{"kind":"Ev`);
            throw new Error('ECONNRESET');
          })(),
        ),
    };
    const { records, stats } = await readAll([obj]);
    expect(auditOf(records).map((e) => e.objectRef?.name)).toEqual(['a', 'b']);
    expect(stats.files.errors).toBe(1);
    // The line the failure cut is counted too.
    expect(stats.details).toEqual([
      { source: 'mem/reset', line: 0, reason: 'read-error', note: 'ECONNRESET' },
      { source: 'mem/reset', line: 3, reason: 'incomplete-record' },
    ]);
  });

  it('a listing that fails is reported, what was read is still emitted', async () => {
    async function* listing(): AsyncGenerator<SourceObject> {
      yield memoryObject('mem/one', `${good()}\n`);
      throw new Error('NoSuchBucket');
    }
    const { records, stats } = await readAll(listing());
    expect(records).toHaveLength(1);
    expect(stats.details).toEqual([
      { source: 'listing', line: 0, reason: 'list-error', note: 'NoSuchBucket' },
    ]);
  });

  it('a caller that stops early leaves nothing running', async () => {
    const bytes = gzipMembers(
      encodeAudit(
        'audit-jsonl',
        mixedEvents().map((f) => f.event),
      ),
      4,
    );
    let n = 0;
    const stats = createIngestStats();
    for await (const _ of readObject(memoryObject('mem/x', bytes, 50), stats, { relevantOnly: false })) {
      if (++n === 2) break;
    }
    expect(n).toBe(2);
    expect(stats.files.errors).toBe(0);
  });
});
