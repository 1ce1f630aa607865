// The writers produce the bytes the real producers write (shared/spec/audit-log-formats.md).
// Reading them back is tested in test/ingest/formats.test.ts; here, their shape.
import * as zlib from 'zlib';
import {
  aksDiagnosticLines,
  auditJsonLines,
  cloudWatchPayloads,
  criLines,
  eksExportLines,
  eventListDocument,
  eventListLines,
  firehoseObject,
  fluentBitAuditLines,
  fluentBitOperatorLines,
  gkeLogEntryLines,
  gzipMembers,
  zapLine,
} from '../../sim/encode';
import { auditEvent, mixedEvents, operatorLines } from '../ingest/fixtures';

const events = mixedEvents().map((f) => f.event);
const pod = auditEvent({ verb: 'create', resource: 'pods', subresource: 'binding', name: 'p-1' });

/** Members of a gzip made by zlib (10-byte headers): each raw inflate reports where its member ends. */
function gzipMemberCount(buf: Buffer): number {
  let n = 0;
  for (let at = 0; at < buf.length; n++) {
    const { engine } = zlib.inflateRawSync(buf.subarray(at + 10), { info: true }) as unknown as {
      engine: { bytesWritten: number };
    };
    at += 10 + engine.bytesWritten + 8;
  }
  return n;
}

describe('audit writers', () => {
  it('JSON lines: one event a line, newline-terminated', () => {
    const text = auditJsonLines(events);
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l)),
    ).toEqual(events);
  });

  it('EventList lines batch perList events; the document form is indented over many lines', () => {
    const lines = eventListLines(events, { perList: 5 }).trimEnd().split('\n');
    expect(lines).toHaveLength(Math.ceil(events.length / 5));
    expect(JSON.parse(lines[0])).toMatchObject({
      kind: 'EventList',
      apiVersion: 'audit.k8s.io/v1',
      items: events.slice(0, 5),
    });
    const doc = eventListDocument(events);
    expect(doc.startsWith('{\n  "kind": "EventList",\n')).toBe(true);
    expect(JSON.parse(doc).items).toEqual(events);
  });

  it('EKS export: `<ISO 8601 ms Z> <event>` lines', () => {
    const [first] = eksExportLines([pod]).split('\n');
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \{"kind":"Event"/);
    expect(JSON.parse(first.slice(first.indexOf(' ') + 1))).toEqual(pod);
  });

  it('Firehose: one gzip member per CloudWatch payload, concatenated with no delimiter', () => {
    const payloads = cloudWatchPayloads(events, { perPayload: 4, controlMessage: true });
    expect(payloads.map((p) => p.messageType)).toEqual([
      'CONTROL_MESSAGE',
      ...Array<string>(Math.ceil(events.length / 4)).fill('DATA_MESSAGE'),
    ]);
    expect(payloads.slice(1).map((p) => p.logEvents.length)).toEqual(
      payloads.slice(1).map((_, i) => Math.min(4, events.length - i * 4)),
    );
    expect(payloads.slice(1).flatMap((p) => p.logEvents.map((e) => JSON.parse(e.message)))).toEqual(events);
    const bytes = firehoseObject(events, { perPayload: 4, controlMessage: true });
    const text = zlib.gunzipSync(bytes).toString('utf8');
    expect(text).toBe(payloads.map((p) => JSON.stringify(p)).join(''));
    expect(text.split('}{"messageType"')).toHaveLength(payloads.length);
    // Each payload is its own member: the object is exactly the members side by side.
    expect(bytes).toEqual(Buffer.concat(payloads.map((p) => zlib.gzipSync(JSON.stringify(p)))));
    expect(gzipMemberCount(bytes)).toBe(payloads.length);
  });

  it('Fluent Bit: event at top level with `date`, or as a string under `log`', () => {
    const top = JSON.parse(fluentBitAuditLines([pod]));
    expect(top).toEqual({ date: expect.stringMatching(/Z$/), ...pod });
    const wrapped = JSON.parse(fluentBitAuditLines([pod], { wrap: 'log' }));
    expect(wrapped.log.endsWith('\n')).toBe(true);
    expect(JSON.parse(wrapped.log)).toEqual(pod);
  });

  it('AKS: `properties.log` as a string with \\/ escapes and a trailing newline, or as an object', () => {
    const line = aksDiagnosticLines([pod], { category: 'kube-audit-admin' }).trimEnd();
    expect(line).toContain('\\/api\\/v1\\/namespaces');
    expect(line).not.toMatch(/[^\\]\//);
    const rec = JSON.parse(line);
    expect(rec.category).toBe('kube-audit-admin');
    expect(rec.properties.log.endsWith('\n')).toBe(true);
    expect(JSON.parse(rec.properties.log)).toEqual(pod);
    expect(JSON.parse(aksDiagnosticLines([pod], { log: 'object' })).properties.log).toEqual(pod);
  });

  it('GKE: method and resource names; no entry for RequestReceived', () => {
    const rr = { ...pod, stage: 'RequestReceived' };
    const lines = gkeLogEntryLines([rr, pod]).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry.protoPayload.methodName).toBe('io.k8s.core.v1.pods.binding.create');
    expect(entry.protoPayload.resourceName).toBe('core/v1/namespaces/kafka/pods/p-1/binding');
    expect(entry.operation).toEqual({ first: true, id: pod.auditID, last: true, producer: 'k8s.io' });
    expect(entry.protoPayload.authenticationInfo.principalEmail).toBe(pod.user.username);
  });
});

describe('operator writers', () => {
  const [line] = operatorLines();

  it('zap: level, ts, msg first, then the fields; epoch ts as float seconds', () => {
    expect(Object.keys(JSON.parse(zapLine(line))).slice(0, 4)).toEqual(['level', 'ts', 'msg', 'controller']);
    expect(JSON.parse(zapLine(line, { ts: 'epoch' })).ts).toBe(Date.parse(line.ts) / 1000);
  });

  it('CRI: RFC3339Nano, stream, P parts of at most maxPart bytes never cutting a character, then F', () => {
    const text = 'é'.repeat(30); // 60 bytes
    const out = criLines([{ ts: '2026-11-02T10:00:00.123Z', text }], { maxPart: 25 })
      .trimEnd()
      .split('\n');
    expect(out.map((l) => l.slice(0, 41))).toEqual([
      '2026-11-02T10:00:00.123000000Z stderr P é',
      '2026-11-02T10:00:00.123000000Z stderr P é',
      '2026-11-02T10:00:00.123000000Z stderr F é',
    ]);
    const parts = out.map((l) => l.slice(40));
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(25);
  });

  it('Fluent Bit: the zap line under `log`, `_p` P then F, a kubernetes block', () => {
    const recs = fluentBitOperatorLines([line], { maxPart: 100 })
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recs.length).toBeGreaterThan(1);
    expect(recs.map((r) => r._p)).toEqual([...Array(recs.length - 1).fill('P'), 'F']);
    expect(recs.map((r) => r.log).join('')).toBe(zapLine(line));
    expect(recs[0].kubernetes).toMatchObject({ container_name: 'manager', namespace_name: 'kafka' });
  });
});

describe('gzipMembers', () => {
  it.each([1, 3, 10])('%i member(s) decompress to the input', (members) => {
    const text = auditJsonLines(events);
    const gz = gzipMembers(text, members);
    expect(zlib.gunzipSync(gz).toString('utf8')).toBe(text);
    expect(gzipMemberCount(gz)).toBe(members);
  });
});
