// The byte decision on an event still escaped inside a CloudWatch message (Firehose
// delivery of EKS audit logs) against the string path it replaces for most messages:
// the words test on the literal, its unescaping, the string pre-filter on the message,
// then JSON.parse and isRelevantAuditEvent. The same messages kept, on the simulator's
// traffic encoded as CloudWatch payloads and on hostile variants of it.
import fc from 'fast-check';
import { ByteVerdict, judgeAuditBytes, judgeEscapedAuditBytes } from '../../lib/ingest/byte-relevance';
import { applyTextEdit, RELEVANCE_ROWS, RS, shuffled, textEdits } from './byte-relevance-table';
import { irrelevantEvents, isRelevantAuditEvent, lacksRelevantWords } from '../../lib/ingest/filter';
import { toAuditEvent } from '../../lib/ingest/formats/audit-event';
import { scanCwlPayload } from '../../lib/ingest/formats/firehose-cwl';
import { isObject } from '../../lib/ingest/formats/json';
import type { AuditEvent } from '../../lib/model/audit';
import { noiseEvents } from '../../sim';
import { cloudWatchPayloads, firehoseObject } from '../../sim/encode';
import { fmtMicros, parseTime } from '../../sim/time';
import { koperatorStretch } from '../../bench/gen/koperator';
import { fightsStretch } from '../../bench/gen/fights';
import { readBytes } from '../hardening/hostile';
import { auditEvent } from './fixtures';

type Decision = boolean | 'invalid';

/** What parsing the message decides: relevant or not, or not an audit event at all. */
function parsedMessage(message: string): Decision {
  let v: unknown;
  try {
    v = JSON.parse(message);
  } catch {
    return 'invalid';
  }
  if (!isObject(v)) return 'invalid';
  const ev = toAuditEvent(v);
  return typeof ev === 'string' ? 'invalid' : isRelevantAuditEvent(ev);
}

/** The message a literal's content holds, or null when it is no valid string. */
function unescaped(content: string): string | null {
  try {
    const s: unknown = JSON.parse(`"${content}"`);
    return typeof s === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** The rules on the event the literal holds. */
function rule(content: string): Decision {
  const message = unescaped(content);
  return message === null ? 'invalid' : parsedMessage(message);
}

/** The string path of the reader (object-reader.ts), as it was for every message. */
function stringDecision(content: string): Decision {
  if (lacksRelevantWords(`"${content}"`)) return false;
  const message = unescaped(content);
  if (message === null) return 'invalid';
  return irrelevantEvents(message, false) === 1 ? false : parsedMessage(message);
}

/** The escaped verdict on a literal's content, framed as in a payload: quotes and bytes around it. */
function verdict(content: string): ByteVerdict {
  const buf = Buffer.from(`{"message":"${content}"}]}`, 'utf8');
  const from = '{"message":"'.length;
  return judgeEscapedAuditBytes(buf, from, buf.length - 4);
}

/** The reader's path now: the escaped verdict, and the string path where it is unsure. */
function byteDecision(content: string): Decision {
  const v = verdict(content);
  if (v === ByteVerdict.Irrelevant) return false;
  return v === ByteVerdict.Parse ? rule(content) : stringDecision(content);
}

function plainVerdict(line: string): ByteVerdict {
  const buf = Buffer.from(`##${line}\n`, 'utf8');
  return judgeAuditBytes(buf, 2, buf.length - 1);
}

/** A literal's content, as JSON writes a string (without its quotes). */
function escape(message: string): string {
  return JSON.stringify(message).slice(1, -1);
}

function simulatedEvents(): AuditEvent[] {
  const start = parseTime('2026-11-02T00:00:00Z');
  const kop = koperatorStretch(3, 0, start);
  const fights = fightsStretch(5, start);
  const noise = [...noiseEvents(7, fmtMicros(start), 4000)];
  return [...kop.events, ...fights.events, ...noise];
}

/** The message literals of the events' CloudWatch payloads, as scanCwlPayload finds them in the bytes. */
function payloadMessages(events: AuditEvent[]): string[] {
  const out: string[] = [];
  for (const p of cloudWatchPayloads(events, { perPayload: 50 })) {
    const buf = Buffer.from(JSON.stringify(p));
    const scan = scanCwlPayload(buf, 0, buf.length);
    if (scan?.kind !== 'data') throw new Error('the simulator wrote a payload the scan declines');
    for (const [from, to] of scan.messages) {
      const judged = judgeEscapedAuditBytes(buf, from, to);
      const content = buf.toString('utf8', from, to);
      // Framed in a payload or on its own, the bytes decide alike.
      expect(verdict(content)).toBe(judged);
      out.push(content);
    }
  }
  return out;
}

describe('relevance on the escaped bytes of CloudWatch messages', () => {
  const events = simulatedEvents();
  const messages = payloadMessages(events);

  it('decides every simulated message as the string path does, and as the bytes of the bare event', () => {
    expect(messages.length).toBe(events.length);
    const counts = [0, 0, 0];
    for (const content of messages) {
      const v = verdict(content);
      counts[v]++;
      // The same reading in either dialect.
      expect([content.slice(0, 200), v]).toEqual([content.slice(0, 200), plainVerdict(unescaped(content)!)]);
      const want = stringDecision(content);
      expect([content.slice(0, 300), byteDecision(content)]).toEqual([content.slice(0, 300), want]);
    }
    const [unsure, irrelevant, parse] = counts;
    expect(irrelevant).toBeGreaterThan(messages.length * 0.6);
    expect(unsure).toBeLessThan(messages.length * 0.05);
    expect(parse).toBeGreaterThan(100);
  });

  it('reads messages whose encoder escapes every slash (`\\/`) as it reads them unescaped', () => {
    let decided = 0;
    for (const content of messages) {
      const slashed = content.replace(/\//g, '\\/');
      expect(unescaped(slashed)).toBe(unescaped(content));
      const v = verdict(slashed);
      expect([slashed.slice(0, 200), v]).toEqual([slashed.slice(0, 200), verdict(content)]);
      if (v !== ByteVerdict.Unsure) decided++;
    }
    expect(decided).toBeGreaterThan(messages.length * 0.9);
  });

  it('keeps every message a rule keeps and parses only what it must (table)', () => {
    const rows = RELEVANCE_ROWS;
    for (const [verb, resource, subresource, name, username, want] of rows) {
      // Outside namespace `kafka` and by another user: no `kafka` anywhere in the message.
      const content = escape(
        JSON.stringify(
          auditEvent({ verb, resource, subresource, name, username: username ?? RS, namespace: 'shop' }),
        ),
      );
      expect([verb, resource, subresource, name, verdict(content)]).toEqual([
        verb,
        resource,
        subresource,
        name,
        want,
      ]);
      expect(byteDecision(content)).toBe(stringDecision(content));
    }
  });

  const lease = escape(JSON.stringify(auditEvent({ verb: 'update', resource: 'leases', name: 'n' })));
  it.each([
    // Escapes of the string that could spell the event's structure are never read through.
    ['a quote spelled \\u0022', (c: string) => c.replace('\\"verb\\":', '\\u0022verb\\":')],
    ['a key spelled with \\u', (c: string) => c.replace('\\"verb\\":', '\\"v\\u0065rb\\":')],
    ['a resource spelled with \\u', (c: string) => c.replace('leases', 'l\\u0065ases')],
    ['a name spelled with \\u', (c: string) => c.replace('\\"name\\":\\"n\\"', '\\"name\\":\\"\\u006e\\"')],
    ['a newline escape between keys', (c: string) => c.replace(',\\"verb\\":', ',\\n\\"verb\\":')],
    ['whitespace', (c: string) => c.replace(/\\":\\"/g, '\\": \\"')],
    ['a raw quote in a value read', (c: string) => c.replace('kafka-operator\\"', 'kafka"operator\\"')],
    ['no auditID', (c: string) => c.replace(/\\"auditID\\":\\"[^\\]*\\",/, '')],
    ['an EventList kind', (c: string) => c.replace('\\"kind\\":\\"Event\\"', '\\"kind\\":\\"EventList\\"')],
    ['a container key first', (c: string) => `{\\"log\\":\\"x\\",${c.slice(1)}`],
    ['a message CloudWatch cut short', (c: string) => `${c.slice(0, 600)}[Truncated...]`],
  ])('%s: unsure, and the string path decides', (_what, mutate) => {
    const content = mutate(lease);
    expect(content).not.toBe(lease);
    expect(verdict(content)).toBe(ByteVerdict.Unsure);
  });

  it('reads the event escapes inside values (quotes, backslashes) as the string path does', () => {
    const ev = auditEvent({ verb: 'update', resource: 'leases', name: 'n' });
    ev.userAgent = 'tool "quoted" \\ back\\slash /v1 ü';
    ev.user.groups = ['a"b', 'c\\'];
    const content = escape(JSON.stringify(ev));
    expect(content).toContain('\\\\\\"quoted\\\\\\"');
    expect(verdict(content)).toBe(ByteVerdict.Irrelevant);
    expect(stringDecision(content)).toBe(false);
  });

  it('never reads a later objectRef when an earlier one is spelled with an escape', () => {
    // The top-level objectRef names a broker pod; one inside the body names a lease. Found by
    // search, the body's would be the first plain `,\"objectRef\":{`.
    const ev = auditEvent({
      verb: 'patch',
      resource: 'pods',
      name: 'orders-1-abcde',
      requestObject: { note: 'x', objectRef: { resource: 'leases' } },
    }) as AuditEvent & { requestObject: unknown };
    const plain = escape(JSON.stringify(ev));
    expect(plain.split(',\\"objectRef\\":{').length).toBe(3);
    const hidden = plain.replace(',\\"objectRef\\":{', ',\\"objectR\\u0065f\\":{');
    expect(rule(hidden)).toBe(true);
    expect(verdict(hidden)).toBe(ByteVerdict.Unsure);
    expect(byteDecision(hidden)).toBe(true);
    expect(verdict(plain)).toBe(ByteVerdict.Parse);
  });

  it('hostile variants of simulated messages: never a message rejected that the rules keep', () => {
    const sample = messages.filter((_, i) => i % 7 === 0);
    const mutation = fc.oneof(
      // a character replaced, deleted or inserted anywhere in the literal
      ...textEdits([
        '"',
        '\\',
        '\\"',
        '\\\\',
        '\\\\\\"',
        '\\/',
        '\\n',
        '\\u0022',
        '\\u005c',
        '\\u0061',
        '\\u007b',
        '{',
        '}',
        ',',
        ' ',
        ',\\"verb\\":\\"delete\\"',
        ',\\"objectRef\\":{\\"resource\\":\\"pods\\"}',
        ',\\"x\\":{\\"objectRef\\":{\\"resource\\":\\"leases\\"}}',
        ',\\u0022objectRef\\u0022:{\\u0022resource\\u0022:\\u0022pods\\u0022}',
        'é',
      ]),
      // the event's keys in another order
      fc.record({ kind: fc.constant('shuffle' as const), seed: fc.nat() }),
      // the slashes escaped
      fc.record({ kind: fc.constant('slashes' as const) }),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: sample.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (i, ms) => {
          let c = sample[i];
          for (const m of ms) {
            if (m.kind === 'shuffle') c = shuffledLiteral(c, m.seed);
            else if (m.kind === 'slashes') c = c.replace(/\//g, '\\/');
            else c = applyTextEdit(c, m);
          }
          const v = verdict(c);
          const r = rule(c);
          // What the bytes reject, the rules reject too, or it is no audit event at all.
          if (v === ByteVerdict.Irrelevant) expect([c, r]).not.toEqual([c, true]);
          // Where the bytes decide, they decide as the rules do on the parsed event.
          if (v !== ByteVerdict.Unsure && r !== 'invalid') expect([c, byteDecision(c)]).toEqual([c, r]);
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('the reader still names a message CloudWatch cut short, though its head shows an irrelevant write', async () => {
    const ev = auditEvent({ verb: 'update', resource: 'configmaps', name: 'argocd-cm', namespace: 'shop' });
    const whole = JSON.stringify(ev);
    const cut = `${whole.slice(0, whole.indexOf('"objectRef"') + 200)}[Truncated...]`;
    expect(plainVerdict(whole)).toBe(ByteVerdict.Irrelevant);
    const [p] = cloudWatchPayloads([ev, ev]);
    p.logEvents[0].message = cut;
    const { records, stats } = await readBytes(Buffer.from(JSON.stringify(p)));
    expect(records).toHaveLength(0);
    expect(stats.skipped).toEqual({ 'cloudwatch-truncated': 1 });
    expect(stats.audit).toMatchObject({ read: 1, irrelevant: 1 });
  });

  it('the reader keeps exactly what the rules keep from simulated Firehose objects, and counts the rest', async () => {
    const bytes = firehoseObject(events, { perPayload: 40, controlMessage: true });
    const kept = await readBytes(bytes);
    const all = await readBytes(bytes, { relevantOnly: false });
    const key = (r: (typeof all.records)[number]) =>
      r.kind === 'audit' ? `${r.event.auditID}/${r.event.stage}` : '';
    const want = all.records.filter((r) => r.kind === 'audit' && isRelevantAuditEvent(r.event)).map(key);
    expect(kept.records.map(key).sort()).toEqual(want.sort());
    expect(want.length).toBeGreaterThan(100);
    expect(kept.stats.audit.read).toBe(events.length);
    expect(kept.stats.audit.irrelevant).toBe(events.length - kept.stats.audit.kept);
    expect(kept.stats.records).toEqual({ 'eks-firehose-cwl': events.length });
    expect(kept.stats.controlMessages).toBe(1);
  });
});

/** The literal's event with its top-level keys in another order (seeded), when it parses. */
function shuffledLiteral(content: string, seed: number): string {
  const message = unescaped(content);
  if (message === null) return content;
  const out = shuffled(message, seed);
  return out === message ? content : escape(out);
}
