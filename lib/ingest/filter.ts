// Which records the analysis needs, decided as early and as cheaply as possible.
//
// Most of an audit log is unrelated traffic (leases, node status, reads). A record is
// dropped before JSON.parse only when its raw bytes *prove* it is an irrelevant audit
// event: they name an audit event (`auditID`, or a GKE `protoPayload`) and none of the
// words a relevant record must contain. Those words survive every wrapping: inside the
// escaped JSON strings of Fluent Bit, AKS and CloudWatch (`\"resource\":\"pods\"`, with
// `\/` escapes) and in GKE method names (`io.k8s.core.v1.pods.create`). Anything the
// test cannot prove irrelevant is parsed and judged on its fields.
import type { AuditEvent } from '../model/audit';

/** A relevant record contains at least one of these (zap lines always have `msg`). */
const RELEVANT_WORDS = ['pods', 'configmaps', 'kafkacluster', 'msg'].map((w) => Buffer.from(w));
const AUDIT_ID = Buffer.from('auditID');
const PROTO_PAYLOAD = Buffer.from('protoPayload');

const READ_VERBS = new Set(['get', 'list', 'watch']);
const RELEVANT_RESOURCES = new Set(['pods', 'kafkaclusters', 'configmaps']);

/** Writes (any verb but get/list/watch) to pods and their subresources, KafkaClusters, ConfigMaps. */
export function isRelevantAuditEvent(ev: AuditEvent): boolean {
  const resource = ev.objectRef?.resource;
  return resource !== undefined && RELEVANT_RESOURCES.has(resource) && !READ_VERBS.has(ev.verb);
}

function countOf(view: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = view.indexOf(needle); i >= 0; i = view.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Returned by irrelevantEventsInBytes for one irrelevant GKE LogEntry (which has no auditID). */
export const ONE_GKE_ENTRY = -1;

/**
 * How many audit events the bytes [start, end) provably hold, all of them irrelevant;
 * 0 when that cannot be proved (the record must then be parsed), ONE_GKE_ENTRY for a
 * GKE LogEntry. `many`: the record may hold several events (EventList, CloudWatch
 * payload), so count them; otherwise the first `auditID` is enough.
 */
export function irrelevantEventsInBytes(buf: Buffer, start: number, end: number, many: boolean): number {
  const view = buf.subarray(start, end);
  // auditID sits near the start of an event: the cheapest test, and usually the deciding one.
  const first = view.indexOf(AUDIT_ID);
  if (first < 0) {
    if (view.indexOf(PROTO_PAYLOAD) < 0) return 0;
    for (const w of RELEVANT_WORDS) if (view.indexOf(w) >= 0) return 0;
    return ONE_GKE_ENTRY;
  }
  for (const w of RELEVANT_WORDS) if (view.indexOf(w) >= 0) return 0;
  return many ? countOf(view, AUDIT_ID) : 1;
}

/** Same test on an already-decoded string (a CloudWatch message, a Fluent Bit or AKS `log`). */
export function isIrrelevantEventString(s: string): boolean {
  return (
    s.includes('auditID') &&
    !s.includes('pods') &&
    !s.includes('configmaps') &&
    !s.includes('kafkacluster') &&
    !s.includes('msg')
  );
}
