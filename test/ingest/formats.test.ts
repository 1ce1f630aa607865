// Every container format, written by sim/encode.ts at test time and read back through
// the same path as real files: plain and gzip, in one big chunk and in small chunks that
// cut records, gzip members and UTF-8 characters anywhere.
import {
  AUDIT_CONTAINERS,
  encodeAudit,
  encodeOperator,
  OPERATOR_CONTAINERS,
  type AuditContainer,
  type OperatorContainer,
} from '../../sim/encode';
import type { AuditEvent } from '../../lib/model/audit';
import type { FormatName } from '../../lib/model/record';
import { auditOf, memoryObject, mixedEvents, operatorLines, operatorOf, readOne } from './fixtures';

const FORMAT_OF: Record<AuditContainer, FormatName> = {
  'audit-jsonl': 'audit-jsonl',
  'audit-eventlist': 'audit-eventlist',
  'audit-eventlist-pretty': 'audit-eventlist',
  'eks-cloudwatch-export': 'eks-cloudwatch-export',
  'eks-firehose-cwl': 'eks-firehose-cwl',
  'fluent-bit': 'fluent-bit',
  'fluent-bit-log': 'fluent-bit',
  'aks-diagnostic': 'aks-diagnostic',
  'aks-diagnostic-object': 'aks-diagnostic',
  'gke-logentry': 'gke-logentry',
};

const OPERATOR_FORMAT_OF: Record<OperatorContainer, FormatName> = {
  'zap-json': 'zap-json',
  'zap-json-epoch': 'zap-json',
  cri: 'cri',
  'fluent-bit-operator': 'fluent-bit-operator',
};

/** What a GKE LogEntry can carry back: GKE keeps no RequestReceived and no separate stage time. */
function gkeView(e: AuditEvent): Record<string, unknown> {
  return {
    auditID: e.auditID,
    stage: e.stage,
    verb: e.verb,
    username: e.user.username,
    objectRef: e.objectRef,
    annotations: e.annotations ?? {},
    requestObject: e.requestObject,
    responseObject: e.responseObject,
    time: e.stageTimestamp,
  };
}

function gkeViewOfRead(e: AuditEvent): Record<string, unknown> {
  return { ...gkeView(e), time: e.requestReceivedTimestamp };
}

const cases = AUDIT_CONTAINERS.flatMap((container) =>
  [false, true].flatMap((gzip) => [1 << 20, 61].map((chunk) => ({ container, gzip, chunk }))),
);

describe('audit containers read back what encode wrote', () => {
  it.each(cases)(
    '$container gzip=$gzip chunk=$chunk: every event, relevant only by default',
    async ({ container, gzip, chunk }) => {
      const fixtures = mixedEvents();
      const events = fixtures.map((f) => f.event);
      const bytes = encodeAudit(container, events, {
        gzip,
        perList: 5,
        cloudWatch: { perPayload: 4, controlMessage: true },
      });
      const gke = container === 'gke-logentry';
      const expectedAll = gke ? events.filter((e) => e.stage !== 'RequestReceived') : events;
      const expectedRelevant = fixtures
        .filter((f) => f.relevant && (!gke || f.event.stage !== 'RequestReceived'))
        .map((f) => f.event);

      const all = await readOne(memoryObject(`mem/${container}`, bytes, chunk), { relevantOnly: false });
      const relevant = await readOne(memoryObject(`mem/${container}`, bytes, chunk));

      for (const run of [all, relevant]) {
        expect(run.stats.skipped).toEqual({});
        expect(run.stats.files).toEqual({ read: 1, empty: 0, foreign: 0, errors: 0 });
        expect(run.stats.audit.read).toBe(expectedAll.length);
        expect(run.stats.records).toEqual({ [FORMAT_OF[container]]: expectedAll.length });
        expect(run.records.every((r) => r.format === FORMAT_OF[container])).toBe(true);
      }
      expect(relevant.stats.audit.kept).toBe(expectedRelevant.length);
      expect(relevant.stats.audit.irrelevant).toBe(expectedAll.length - expectedRelevant.length);
      expect(relevant.stats.controlMessages).toBe(container === 'eks-firehose-cwl' ? 1 : 0);
      if (gke) {
        expect(auditOf(all.records).map(gkeViewOfRead)).toEqual(expectedAll.map(gkeView));
        expect(auditOf(relevant.records).map(gkeViewOfRead)).toEqual(expectedRelevant.map(gkeView));
      } else {
        expect(auditOf(all.records)).toEqual(expectedAll);
        expect(auditOf(relevant.records)).toEqual(expectedRelevant);
      }
    },
  );

  it('records where each event was read: its 1-based line', async () => {
    const events = mixedEvents().map((f) => f.event);
    const { records } = await readOne(
      memoryObject('mem/x.log', encodeAudit('eks-cloudwatch-export', events)),
      { relevantOnly: false },
    );
    expect(records.map((r) => r.at)).toEqual(events.map((_, i) => ({ source: 'mem/x.log', line: i + 1 })));
  });

  it('firehose payloads separated by newlines read the same as without', async () => {
    const events = mixedEvents().map((f) => f.event);
    const bytes = encodeAudit('eks-firehose-cwl', events, { cloudWatch: { perPayload: 3, newline: true } });
    const { records, stats } = await readOne(memoryObject('mem/fh', bytes), { relevantOnly: false });
    expect(auditOf(records)).toEqual(events);
    expect(stats.skipped).toEqual({});
  });
});

describe('operator containers read back what encode wrote', () => {
  const ocases = OPERATOR_CONTAINERS.flatMap((container) =>
    [false, true].flatMap((gzip) => [undefined, 100].map((maxPart) => ({ container, gzip, maxPart }))),
  );
  it.each(ocases)('$container gzip=$gzip maxPart=$maxPart', async ({ container, gzip, maxPart }) => {
    const lines = operatorLines();
    const bytes = encodeOperator(container, lines, { gzip, maxPart });
    const { records, stats } = await readOne(memoryObject(`mem/${container}`, bytes, 37));
    expect(stats.skipped).toEqual({});
    expect(operatorOf(records)).toEqual(lines);
    expect(records.every((r) => r.format === OPERATOR_FORMAT_OF[container])).toBe(true);
    expect(stats.operator).toEqual({ read: lines.length, kept: lines.length, excluded: 0 });
    // A line split into parts is reported at its first part's line.
    expect(records[0].at.line).toBe(1);
  });
});

describe('GKE JSON-patch bodies', () => {
  it('turns a Struct keyed "0", "1", ... back into the patch list', async () => {
    const entry = {
      operation: { id: 'op-1', first: true, last: true },
      timestamp: '2026-11-03T08:00:00Z',
      protoPayload: {
        methodName: 'io.k8s.core.v1.pods.resize.patch',
        resourceName: 'core/v1/namespaces/kafka/pods/orders-kafka-1-abcde/resize',
        authenticationInfo: { principalEmail: 'system:serviceaccount:kube-system:vpa-updater' },
        request: { '@type': 'core.k8s.io/v1.Unknown', '0': { op: 'replace', path: '/spec/x', value: 1 } },
      },
    };
    const { readObject } = await import('../../lib/ingest');
    const { createIngestStats } = await import('../../lib/ingest/stats');
    const { Readable } = await import('stream');
    const obj = {
      name: 'mem/gke',
      open: async () => Readable.from([Buffer.from(JSON.stringify(entry) + '\n')]),
    };
    const recs = [];
    for await (const r of readObject(obj, createIngestStats())) recs.push(r);
    expect(recs).toHaveLength(1);
    expect(recs[0].kind === 'audit' && recs[0].event.requestObject).toEqual([
      { op: 'replace', path: '/spec/x', value: 1 },
    ]);
  });
});
