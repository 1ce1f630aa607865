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
