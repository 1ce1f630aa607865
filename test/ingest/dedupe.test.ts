// The same request delivered twice, and RequestReceived kept only when its request
// never completed anywhere.
import { AuditDeduper } from '../../lib/ingest';
import { createIngestStats } from '../../lib/ingest/stats';
import type { AuditEvent } from '../../lib/model/audit';
import type { LogRecord } from '../../lib/model/record';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import { auditEvent, auditOf, memoryObject, mixedEvents, operatorLines, readAll } from './fixtures';

function stagesOf(events: AuditEvent[]): string[] {
  return events.map((e) => `${e.auditID}:${e.stage}`);
}

function received(rc: AuditEvent): AuditEvent {
  const rr: AuditEvent = { ...rc, stage: 'RequestReceived' };
  delete rr.requestObject;
  delete rr.responseObject;
  delete rr.responseStatus;
  return rr;
}

describe('ingest de-duplicates across files and formats', () => {
  it('an event delivered by an EKS export and by Firehose is emitted once', async () => {
    const events = mixedEvents().map((f) => f.event);
    const half = events.slice(0, 8);
    const { records, stats } = await readAll(
      [
        memoryObject('s3://b/export/000000.gz', encodeAudit('eks-cloudwatch-export', events, { gzip: true })),
        memoryObject('s3://b/firehose/x.gz', encodeAudit('eks-firehose-cwl', half)),
      ],
      { relevantOnly: false },
    );
    const want = events.filter((e) => !(e.stage === 'RequestReceived'));
    expect(stagesOf(auditOf(records))).toEqual(stagesOf(want));
    expect(stats.dedupe.duplicates).toBe(half.length);
    // Each record says where it was first read.
    expect(records.every((r) => r.at.source === 's3://b/export/000000.gz')).toBe(true);
  });

  it('keeps RequestReceived only for requests that never completed, wherever the completion was', async () => {
    const done = auditEvent({ verb: 'create', resource: 'pods' });
    const doneLater = auditEvent({ verb: 'delete', resource: 'pods', name: 'orders-kafka-0-xxxxx' });
    const doneEarlier = auditEvent({ verb: 'patch', resource: 'pods', name: 'orders-kafka-0-yyyyy' });
    const lost = auditEvent({ verb: 'delete', resource: 'pods', name: 'orders-kafka-0-zzzzz' });
    const fileA = [received(done), done, received(doneLater), doneEarlier, received(lost)];
    const fileB = [doneLater, received(doneEarlier), received(lost)];
    const { records, stats } = await readAll([
      memoryObject('a.log', encodeAudit('audit-jsonl', fileA)),
      memoryObject('b.json', encodeAudit('audit-eventlist', fileB)),
    ]);
    expect(stagesOf(auditOf(records))).toEqual([
      `${done.auditID}:ResponseComplete`,
      `${doneEarlier.auditID}:ResponseComplete`,
      `${doneLater.auditID}:ResponseComplete`,
      `${lost.auditID}:RequestReceived`,
    ]);
    // The RequestReceived of a request that never completed is emitted last, from where it was first seen.
    expect(records[3].at).toEqual({ source: 'a.log', line: 5 });
    expect(stats.dedupe).toEqual({ duplicates: 1, requestReceivedSuperseded: 3, requestReceivedEmitted: 1 });
  });

  it('ResponseStarted and Panic are their own stages, kept alongside ResponseComplete', () => {
    const stats = createIngestStats();
    const d = new AuditDeduper(stats);
    const rc = auditEvent({ verb: 'create', resource: 'pods', subresource: 'exec' });
    const rec = (e: AuditEvent): LogRecord => ({
      kind: 'audit',
      event: e,
      format: 'audit-jsonl',
      at: { source: 's', line: 1 },
    });
    const out = [
      { ...rc, stage: 'ResponseStarted' },
      rc,
      { ...rc, stage: 'Panic' },
      rc,
      { ...rc, stage: 'SomethingNew' },
      { ...rc, stage: 'SomethingNew' },
    ].map((e) => d.push(rec(e)));
    expect(out.map((r) => (r?.kind === 'audit' ? r.event.stage : null))).toEqual([
      'ResponseStarted',
      'ResponseComplete',
      'Panic',
      null,
      'SomethingNew',
      null,
    ]);
    expect([...d.flush()]).toEqual([]);
    expect(stats.dedupe.duplicates).toBe(2);
  });

  it('operator lines pass through untouched', async () => {
    const lines = operatorLines();
    const bytes = encodeOperator('zap-json', lines);
    const { records } = await readAll([memoryObject('a', bytes), memoryObject('b', bytes)]);
    expect(records).toHaveLength(lines.length * 2);
  });
});

describe("the caller's keep", () => {
  it('applies after relevance, and what it rejects is counted as excluded', async () => {
    const fixtures = mixedEvents();
    const bytes = Buffer.concat([
      encodeAudit(
        'audit-jsonl',
        fixtures.map((f) => f.event),
      ),
      encodeOperator('zap-json', operatorLines()),
    ]);
    const { records, stats } = await readAll([memoryObject('a', bytes)], {
      keep: (r) => (r.kind === 'audit' ? r.event.verb !== 'delete' : r.line.level === 'info'),
    });
    const relevant = fixtures.filter((f) => f.relevant);
    const deletes = relevant.filter((f) => f.event.verb === 'delete').length;
    expect(stats.audit.excluded).toBe(deletes);
    expect(stats.audit.kept).toBe(relevant.length - deletes);
    expect(stats.operator.excluded).toBe(operatorLines().filter((l) => l.level !== 'info').length);
    expect(
      records.every((r) => (r.kind === 'audit' ? r.event.verb !== 'delete' : r.line.level === 'info')),
    ).toBe(true);
  });
});
