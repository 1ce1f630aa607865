// The byte decision (byte-relevance.ts) against the string decision it replaces for most
// lines (filter.ts's pre-filter, then JSON.parse and isRelevantAuditEvent): the same
// records kept, on the simulator's traffic and on hostile variants of it.
import fc from 'fast-check';
import { ByteVerdict, judgeAuditBytes } from '../../lib/ingest/byte-relevance';
import { applyTextEdit, RELEVANCE_ROWS, RS, shuffled, textEdits } from './byte-relevance-table';
import { irrelevantEvents, isRelevantAuditEvent } from '../../lib/ingest/filter';
import { toAuditEvent } from '../../lib/ingest/formats/audit-event';
import { isObject } from '../../lib/ingest/formats/json';
import type { AuditEvent } from '../../lib/model/audit';
import { noiseEvents } from '../../sim';
import { fmtMicros, parseTime } from '../../sim/time';
import { koperatorStretch } from '../../bench/gen/koperator';
import { fightsStretch } from '../../bench/gen/fights';
import { readBytes } from '../hardening/hostile';
import { auditEvent } from './fixtures';

type Decision = boolean | 'invalid';

/** What parsing decides: relevant or not, or not an audit event at all (skipped and counted). */
function parsed(line: string): Decision {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'invalid';
  }
  if (!isObject(v)) return 'invalid';
  const ev = toAuditEvent(v);
  return typeof ev === 'string' ? 'invalid' : isRelevantAuditEvent(ev);
}

/** The string path: the text pre-filter, then the parser. */
function stringDecision(line: string): Decision {
  return irrelevantEvents(line, false) > 0 ? false : parsed(line);
}

function verdict(line: string): ByteVerdict {
  const buf = Buffer.from(`##${line}\n`, 'utf8');
  // Framed as the reader frames it: a view into a larger buffer.
  return judgeAuditBytes(buf, 2, buf.length - 1);
}

/** The reader's path: the byte decision, and the string path where it is unsure. */
function byteDecision(line: string): Decision {
  const v = verdict(line);
  if (v === ByteVerdict.Irrelevant) return false;
  return v === ByteVerdict.Parse ? parsed(line) : stringDecision(line);
}

function simulatorLines(): string[] {
  const start = parseTime('2026-11-02T00:00:00Z');
  const kop = koperatorStretch(3, 0, start);
  const fights = fightsStretch(5, start);
  const noise = [...noiseEvents(7, fmtMicros(start), 4000)];
  return [...kop.events, ...fights.events, ...noise].map((e) => JSON.stringify(e));
}

describe('relevance on the bytes', () => {
  const lines = simulatorLines();

  it('decides every simulated line as the string path does, without the string path', () => {
    let irrelevant = 0;
    let relevant = 0;
    let unsure = 0;
    for (const line of lines) {
      const v = verdict(line);
      // kube-apiserver's layout is read whole: only the first stage of a write the fight
      // detectors read is left to the text pre-filter, whose rule for it rests on words.
      if (v === ByteVerdict.Unsure) {
        const ev = JSON.parse(line) as AuditEvent;
        expect([
          ev.stage,
          ['pods', 'configmaps', 'kafkaclusters'].includes(ev.objectRef?.resource ?? ''),
        ]).toEqual(['RequestReceived', false]);
        unsure++;
      }
      const want = stringDecision(line);
      expect([line.slice(0, 300), byteDecision(line)]).toEqual([line.slice(0, 300), want]);
      if (v === ByteVerdict.Irrelevant) irrelevant++;
      if (want === true) relevant++;
    }
    // The cut that pays: most lines are rejected on their bytes.
    expect(irrelevant).toBeGreaterThan(lines.length * 0.6);
    expect(unsure).toBeLessThan(lines.length * 0.05);
    expect(relevant).toBeGreaterThan(100);
  });

  it('keeps every line a rule keeps and parses only what it must (table)', () => {
    const rows = RELEVANCE_ROWS;
    for (const [verb, resource, subresource, name, username, want] of rows) {
      // Outside namespace `kafka` and by another user: no `kafka` anywhere in the line.
      const line = JSON.stringify(
        auditEvent({ verb, resource, subresource, name, username: username ?? RS, namespace: 'shop' }),
      );
      expect([verb, resource, subresource, name, verdict(line)]).toEqual([
        verb,
        resource,
        subresource,
        name,
        want,
      ]);
      expect(byteDecision(line)).toBe(stringDecision(line));
    }
  });

  it('a foreign pod whose body shows koperator marks, or may spell them escaped, is parsed', () => {
    const write = (labels: Record<string, string>) =>
      JSON.stringify(
        auditEvent({
          verb: 'patch',
          resource: 'pods',
          name: 'odd-name',
          namespace: 'shop',
          username: 'system:node:n1',
          responseObject: { kind: 'Pod', metadata: { name: 'odd-name', labels } },
        }),
      );
    expect(verdict(write({ kafka_cr: 'orders' }))).toBe(ByteVerdict.Parse);
    expect(verdict(write({ brokerId: '3' }))).toBe(ByteVerdict.Parse);
    expect(verdict(write({ app: 'web' }))).toBe(ByteVerdict.Irrelevant);
    const escaped = write({ app: 'kafka' }).replace('"app":"kafka"', '"app":"k\\u0061fka"');
    expect(verdict(escaped)).toBe(ByteVerdict.Parse);
    expect(parsed(escaped)).toBe(true);
  });

  it.each([
    // Escaped keys and values are never read as what they spell: left to the string path.
    ['an escaped verb key', (l: string) => l.replace('"verb":', '"v\\u0065rb":')],
    ['an escaped resource', (l: string) => l.replace('"resource":"leases"', '"resource":"l\\u0065ases"')],
    ['whitespace', (l: string) => l.replace(/":"/g, '": "')],
    ['a container key first', (l: string) => `{"log":"x",${l.slice(1)}`],
    ['an EventList kind', (l: string) => l.replace('"kind":"Event"', '"kind":"EventList"')],
    ['no auditID', (l: string) => l.replace(/"auditID":"[^"]*",/, '')],
    ['objectRef not an object', (l: string) => l.replace(/"objectRef":\{[^}]*\}/, '"objectRef":"pods"')],
  ])('%s: unsure, and the string path decides', (_what, mutate) => {
    const line = mutate(JSON.stringify(auditEvent({ verb: 'update', resource: 'leases', name: 'n' })));
    expect(verdict(line)).toBe(ByteVerdict.Unsure);
  });

  it('a verb repeated before objectRef is read as JSON.parse reads it: the last one', () => {
    const line = JSON.stringify(
      auditEvent({ verb: 'get', resource: 'pods', name: 'orders-1-abcde' }),
    ).replace('"user":', '"verb":"delete","user":');
    expect(JSON.parse(line).verb).toBe('delete');
    expect(verdict(line)).toBe(ByteVerdict.Parse);
  });

  it('hostile variants of simulated lines: never a line rejected that the rules keep', () => {
    const sample = lines.filter((_, i) => i % 7 === 0);
    const mutation = fc.oneof(
      // a byte replaced, deleted or inserted anywhere
      ...textEdits([
        '"',
        '\\',
        '{',
        '}',
        '[',
        ']',
        ',',
        ' ',
        '"verb":"delete",',
        '"objectRef":{"resource":"pods"},',
        '"x":{"objectRef":{"resource":"leases"}},',
        '\\u0061',
        'é',
      ]),
      // keys in another order
      fc.record({ kind: fc.constant('shuffle' as const), seed: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: sample.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (i, ms) => {
          let line = sample[i];
          for (const m of ms) line = m.kind === 'shuffle' ? shuffled(line, m.seed) : applyTextEdit(line, m);
          const v = verdict(line);
          const rule = parsed(line);
          // What the bytes reject, the parser rejects too, or cannot read as an event at all
          // (a damaged line the string pre-filter also counts as read and irrelevant).
          if (v === ByteVerdict.Irrelevant) expect([line, rule]).not.toEqual([line, true]);
          // Where the bytes decide, they decide as the rules do on the parsed event. (The string
          // pre-filter does not always: it trusts the requestURI where objectRef may disagree.)
          if (v !== ByteVerdict.Unsure && rule !== 'invalid')
            expect([line, byteDecision(line)]).toEqual([line, rule]);
        },
      ),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('the reader keeps exactly what the rules keep from the simulated traffic', async () => {
    const text = Buffer.from(lines.join('\n') + '\n');
    const kept = await readBytes(text);
    const all = await readBytes(text, { relevantOnly: false });
    const want = all.records
      .filter((r) => r.kind === 'audit' && isRelevantAuditEvent(r.event))
      .map((r) => (r.kind === 'audit' ? `${r.event.auditID}/${r.event.stage}` : ''));
    const got = kept.records.map((r) => (r.kind === 'audit' ? `${r.event.auditID}/${r.event.stage}` : ''));
    expect(got.sort()).toEqual(want.sort());
    expect(kept.stats.audit.read).toBe(all.stats.audit.read);
    expect(kept.stats.audit.irrelevant).toBe(all.stats.audit.read - kept.stats.audit.kept);
  });
});
