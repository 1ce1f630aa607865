// The CloudWatch payload scan finds message literals in the bytes; whenever the layout is
// not exactly CloudWatch's it declines, and the payload is parsed whole with the same result.
import { scanCwlPayload } from '../../lib/ingest/formats/firehose-cwl';
import { cloudWatchPayloads } from '../../sim/encode';
import { gzipSync } from 'zlib';
import { auditEvent, auditOf, memoryObject, mixedEvents, readOne } from './fixtures';

function messagesOf(payload: string): string[] | null {
  const buf = Buffer.from(payload);
  const scan = scanCwlPayload(buf, 0, buf.length);
  if (!scan) return null;
  if (scan.kind === 'control') return [];
  return scan.messages.map(([a, b]) => JSON.parse(`"${buf.toString('utf8', a, b)}"`) as string);
}

describe('scanCwlPayload', () => {
  const tricky = auditEvent({
    verb: 'create',
    resource: 'pods',
    requestObject: { note: 'ends in a backslash \\', also: '"},{"id":"not-a-boundary"}]}', uni: 'ü ✓' },
  });
  const events = [...mixedEvents().map((f) => f.event), tricky];

  it('finds every message of payloads as CloudWatch writes them', () => {
    for (const p of cloudWatchPayloads(events, { perPayload: 5, controlMessage: true })) {
      const want = p.messageType === 'CONTROL_MESSAGE' ? [] : p.logEvents.map((e) => e.message);
      expect(messagesOf(JSON.stringify(p))).toEqual(want);
    }
  });

  it('finds a message however long the fields before it', () => {
    const [p] = cloudWatchPayloads([tricky, tricky]);
    const long = { ...p, logEvents: p.logEvents.map((e) => ({ ...e, id: 'x'.repeat(300) })) };
    expect(messagesOf(JSON.stringify(long))).toEqual([JSON.stringify(tricky), JSON.stringify(tricky)]);
  });

  it('handles an empty logEvents array and trailing whitespace', () => {
    const [p] = cloudWatchPayloads([tricky]);
    expect(messagesOf(`${JSON.stringify({ ...p, logEvents: [] })}\n`)).toEqual([]);
    expect(messagesOf(`${JSON.stringify(p)}  \n`)).toEqual([JSON.stringify(tricky)]);
  });

  const [p] = cloudWatchPayloads(events, { perPayload: 100 });
  const unusual: [string, object][] = [
    [
      'message is not the last key',
      { ...p, logEvents: p.logEvents.map((e) => ({ message: e.message, id: e.id, timestamp: e.timestamp })) },
    ],
    ['logEvents is not last', { messageType: p.messageType, logEvents: p.logEvents, owner: p.owner }],
    [
      'a number follows the message',
      { ...p, logEvents: p.logEvents.map((e) => ({ id: e.id, message: e.message, timestamp: e.timestamp })) },
    ],
  ];
  it.each(unusual)('declines when %s, and the reader still gets every event', async (_, payload) => {
    const text = JSON.stringify(payload);
    expect(messagesOf(text)).toBeNull();
    const { records, stats } = await readOne(memoryObject('mem/odd', gzipSync(text)), {
      relevantOnly: false,
    });
    expect(auditOf(records)).toEqual(events);
    expect(stats.records).toEqual({ 'eks-firehose-cwl': events.length });
  });

  it('declines anything that is not a payload', () => {
    expect(
      messagesOf('{"messageType":"DATA_MESSAGE","logEvents":[{"id":"1","message":"unterminated}]}'),
    ).toBeNull();
    expect(messagesOf('{"kind":"Event"}')).toBeNull();
  });
});

// One delivery stream for a fleet of EKS clusters: an object holds payloads of many log
// groups, and each record must carry its own, the scanned way and the parsed way alike;
// the newest time read is kept per log group, so each cluster's end of data is its own.
describe('payloads of several log groups in one object', () => {
  const a = mixedEvents().map((f) => f.event);
  const b = mixedEvents().map((f) => f.event);
  const payloads = [
    ...cloudWatchPayloads(a, { logGroup: '/aws/eks/prod-eu/cluster', perPayload: 3, controlMessage: true }),
    ...cloudWatchPayloads(b, { logGroup: '/aws/eks/prod_us/cluster', perPayload: 4 }),
  ];
  // Interleaved, as a shared stream writes them; one written with escaped slashes, one with its keys reordered (parsed whole).
  const mixed = payloads
    .map((p, i) => (i % 2 === 0 ? payloads[i / 2]! : payloads[payloads.length - 1 - (i - 1) / 2]!))
    .map((p, i) =>
      i === 1
        ? JSON.stringify(p).replace(
            /"logGroup":"([^"]*)"/,
            (_, g: string) => `"logGroup":"${g.replace(/\//g, '\\/')}"`,
          )
        : i === 2
          ? JSON.stringify({ logEvents: p.logEvents, logGroup: p.logGroup, messageType: p.messageType })
          : JSON.stringify(p),
    );

  it.each([true, false])(
    'gives every audit record its payload’s log group (relevantOnly %s)',
    async (relevantOnly) => {
      const { records, stats } = await readOne(
        memoryObject('s3://b/logs/_eks/x', Buffer.concat(mixed.map((m) => gzipSync(m)))),
        { relevantOnly },
      );
      const audit = records.filter((r) => r.kind === 'audit');
      expect(audit.length).toBeGreaterThan(0);
      const groupOf = new Map<string, string>();
      for (const p of payloads) for (const e of p.logEvents) groupOf.set(e.message, p.logGroup);
      for (const r of audit)
        expect(r.kind === 'audit' && r.logGroup).toBe(
          groupOf.get(JSON.stringify(r.kind === 'audit' ? r.event : null)),
        );
      expect(new Set(audit.map((r) => r.kind === 'audit' && r.logGroup))).toEqual(
        new Set(['/aws/eks/prod-eu/cluster', '/aws/eks/prod_us/cluster']),
      );
      const newest = (events: typeof a) =>
        events
          .map((e) => e.requestReceivedTimestamp)
          .reduce((x, y) => (Date.parse(y) > Date.parse(x) ? y : x));
      expect(stats.newestByLogGroup).toEqual({
        '/aws/eks/prod-eu/cluster': newest(a),
        '/aws/eks/prod_us/cluster': newest(b),
      });
    },
  );
});
