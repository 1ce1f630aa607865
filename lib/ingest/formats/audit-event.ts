// The Kubernetes audit Event as the rest of the analyzer sees it, whichever container it
// came in. Required: auditID, stage, verb and a time; the v1beta1 `timestamp` stands in
// for the two later timestamps when they are absent (audit2rbac's 2017 logs only have it).
// Optional fields of the wrong type are removed here, once, so that readers downstream
// can trust the declared shape.
import type { AuditEvent } from '../../model/audit';
import type { SkipReason } from '../stats';
import { isObject, str, type JsonObject } from './json';

/** Looks like an audit Event (as opposed to, say, a core/v1 Event or another tool's JSON). */
export function isAuditShaped(v: JsonObject): boolean {
  if (typeof v.auditID === 'string') return true;
  if (v.kind !== 'Event') return false;
  const api = v.apiVersion;
  return api === undefined || (typeof api === 'string' && api.startsWith('audit.k8s.io/'));
}

const OPTIONAL_OBJECTS = ['objectRef', 'responseStatus', 'impersonatedUser', 'annotations'] as const;

/** Validates and normalises in place; returns the event, or why it cannot be one. */
export function toAuditEvent(v: JsonObject): AuditEvent | SkipReason {
  if (!str(v.auditID)) return 'missing-auditID';
  if (!str(v.stage)) return 'missing-stage';
  if (!str(v.verb)) return 'missing-verb';
  const legacy = str(v.timestamp);
  const received = str(v.requestReceivedTimestamp) ?? legacy ?? str(v.stageTimestamp);
  const staged = str(v.stageTimestamp) ?? legacy ?? received;
  if (!received || !staged) return 'missing-timestamp';
  v.requestReceivedTimestamp = received;
  v.stageTimestamp = staged;
  if (!isObject(v.user)) v.user = {};
  if (typeof v.level !== 'string') v.level = '';
  for (const k of OPTIONAL_OBJECTS) if (k in v && !isObject(v[k])) delete v[k];
  if ('sourceIPs' in v && !Array.isArray(v.sourceIPs)) delete v.sourceIPs;
  return v as unknown as AuditEvent;
}
