// What the analysis needs, and the byte pre-filter that must never drop any of it.
import {
  irrelevantEventsInBytes,
  isIrrelevantEventString,
  isRelevantAuditEvent,
  ONE_GKE_ENTRY,
} from '../../lib/ingest/filter';
import { AUDIT_CONTAINERS, encodeAudit } from '../../lib/sim/encode';
import { auditEvent, mixedEvents } from './fixtures';

describe('isRelevantAuditEvent', () => {
  const table: [string, string, string | undefined, boolean][] = [
    ['create', 'pods', undefined, true],
    ['create', 'pods', 'binding', true],
    ['create', 'pods', 'eviction', true],
    ['patch', 'pods', 'status', true],
    ['patch', 'pods', 'resize', true],
    ['patch', 'pods', 'ephemeralcontainers', true],
    ['update', 'pods', undefined, true],
    ['delete', 'pods', undefined, true],
    ['deletecollection', 'pods', undefined, true],
    ['get', 'pods', undefined, false],
    ['list', 'pods', undefined, false],
    ['watch', 'pods', undefined, false],
    ['get', 'pods', 'log', false],
    ['patch', 'kafkaclusters', undefined, true],
    ['update', 'kafkaclusters', 'status', true],
    ['watch', 'kafkaclusters', undefined, false],
    ['update', 'configmaps', undefined, true],
    ['delete', 'configmaps', undefined, true],
    ['list', 'configmaps', undefined, false],
    ['update', 'leases', undefined, false],
    ['create', 'secrets', undefined, false],
    ['patch', 'nodes', 'status', false],
  ];
  it.each(table)('%s %s/%s → %s', (verb, resource, subresource, want) => {
    expect(isRelevantAuditEvent(auditEvent({ verb, resource, subresource }))).toBe(want);
  });

  it('an event about no object (a non-resource URL) is not relevant', () => {
    const ev = auditEvent({ verb: 'get', resource: 'x' });
    delete ev.objectRef;
    expect(isRelevantAuditEvent(ev)).toBe(false);
  });
});

describe('byte pre-filter', () => {
  // Every relevant event, in every container, must survive the pre-filter of its line.
  const relevant = mixedEvents()
    .filter((f) => f.relevant)
    .map((f) => f.event);
  const irrelevant = mixedEvents()
    .filter((f) => !f.relevant)
    .map((f) => f.event);
  it.each(AUDIT_CONTAINERS.filter((c) => c !== 'eks-firehose-cwl' && c !== 'audit-eventlist-pretty'))(
    '%s: relevant lines are never dropped',
    (container) => {
      for (const ev of relevant) {
        const line = encodeAudit(container, [ev]);
        expect(irrelevantEventsInBytes(line, 0, line.length, true)).toBe(0);
      }
    },
  );

  it.each([
    'audit-jsonl',
    'eks-cloudwatch-export',
    'fluent-bit',
    'fluent-bit-log',
    'aks-diagnostic',
    'aks-diagnostic-object',
  ] as const)('%s: irrelevant events without a relevant word are dropped unparsed', (container) => {
    const lease = irrelevant.find((e) => e.objectRef?.resource === 'leases');
    const line = encodeAudit(container, [lease!]);
    expect(irrelevantEventsInBytes(line, 0, line.length, false)).toBe(1);
  });

  it('counts the events of a many-event record', () => {
    const leases = [0, 1, 2].map(() => auditEvent({ verb: 'update', resource: 'leases' }));
    const list = encodeAudit('audit-eventlist', leases);
    expect(irrelevantEventsInBytes(list, 0, list.length, true)).toBe(3);
  });

  it('recognises GKE entries, which have no auditID', () => {
    const lease = encodeAudit('gke-logentry', [auditEvent({ verb: 'update', resource: 'leases' })]);
    expect(irrelevantEventsInBytes(lease, 0, lease.length, false)).toBe(ONE_GKE_ENTRY);
    const pod = encodeAudit('gke-logentry', [auditEvent({ verb: 'create', resource: 'pods' })]);
    expect(irrelevantEventsInBytes(pod, 0, pod.length, false)).toBe(0);
  });

  it('never drops what it cannot prove to be an audit event', () => {
    for (const text of ['{"kind": 0}', '{"level":"info","ts":1,"msg":"x"}', '{"hello":"world"}']) {
      const b = Buffer.from(text);
      expect(irrelevantEventsInBytes(b, 0, b.length, false)).toBe(0);
    }
  });

  it('looks only inside the given range', () => {
    const b = Buffer.from(
      '{"auditID":"1","objectRef":{"resource":"leases"}}{"objectRef":{"resource":"pods"}}',
    );
    const end = b.indexOf('}{') + 1;
    expect(irrelevantEventsInBytes(b, 0, end, false)).toBe(1);
    expect(irrelevantEventsInBytes(b, 0, b.length, false)).toBe(0);
  });

  it.each([
    ['{"auditID":"1","objectRef":{"resource":"leases"}}', true],
    ['{"auditID":"1","objectRef":{"resource":"pods"}}', false],
    ['{"level":"info","msg":"auditID"}', false],
    ['plain text', false],
  ])('string form: %s → %s', (s, want) => {
    expect(isIrrelevantEventString(s)).toBe(want);
  });
});
