// summary.audit.aboutPods tells a log stream that names pods (any verb) from one that never
// does (visibility.ts calls the latter blind). Pod reads are dropped unparsed, by the byte
// scan or the text pre-filter depending on the container, so every container is read here.
import { AUDIT_CONTAINERS, encodeAudit } from '../../sim/encode';
import { auditEvent, memoryObject, readOne } from './fixtures';

const leases = () =>
  Array.from({ length: 6 }, () => auditEvent({ verb: 'update', resource: 'leases', name: 'node-1' }));
const podReads = () =>
  ['list', 'watch', 'get'].map((verb) =>
    auditEvent({ verb, resource: 'pods', name: verb === 'get' ? 'web-7d9f-abcde' : undefined }),
  );

describe('audit events about pods are seen in every container, however they are dropped', () => {
  for (const container of AUDIT_CONTAINERS) {
    it(`${container}: pod reads among leases count, leases alone do not`, async () => {
      const withPods = [...leases().slice(0, 3), ...podReads(), ...leases().slice(3)];
      const seen = await readOne(memoryObject(`pods.${container}`, encodeAudit(container, withPods)));
      expect(seen.stats.audit.read).toBe(withPods.length);
      expect(seen.stats.audit.aboutPods).toBeGreaterThan(0);
      const none = await readOne(memoryObject(`leases.${container}`, encodeAudit(container, leases())));
      expect(none.stats.audit.read).toBe(6);
      expect(none.stats.audit.aboutPods).toBe(0);
    });
  }
});

// summary.newestEventAt: the end of the data "active" is judged against is the newest event
// read of any stage, kept or not, so a tail of unrelated traffic after the last kept event
// counts. Those events are dropped unparsed; their time is read off their bytes.
describe('the newest event read, kept or not', () => {
  for (const container of AUDIT_CONTAINERS) {
    it(`${container}: the tail of leases after the last pod write sets it`, async () => {
      const head = leases();
      const write = auditEvent({ verb: 'delete', resource: 'pods', name: 'orders-kafka-1-abcde' });
      const tail = leases();
      const all = [...head, write, ...tail];
      const read = await readOne(memoryObject(`tail.${container}`, encodeAudit(container, all)));
      expect(read.stats.audit.read).toBe(all.length);
      // A GKE entry has one time, which stands for both of the event's (formats/gke.ts).
      const last = tail[tail.length - 1];
      const want = container === 'gke-logentry' ? last.stageTimestamp : last.requestReceivedTimestamp;
      expect(read.stats.newestEventAt).toBe(want);
    });
  }
});
