// GKE writes Kubernetes audit events to Cloud Logging as LogEntries with an AuditLog
// `protoPayload`; a sink copies them to GCS one JSON object a line. This maps an entry
// back to the audit Event shape so the analysis never sees the difference:
//   operation.id → auditID, operation.first/last → stage, labels → annotations,
//   methodName `io.k8s.core.v1.pods.binding.create` → verb create, resource pods, subresource binding,
//   resourceName `core/v1/namespaces/<ns>/pods/<name>[/<sub>]` → objectRef,
//   request/response → requestObject/responseObject (without the proto `@type`),
//   authenticationInfo.principalEmail → user.username, requestMetadata → sourceIPs/userAgent.
// GKE keeps no separate stage time: both timestamps are the entry's `timestamp` (the API
// server's time; `receiveTimestamp` is Cloud Logging's, later and jittery, so it is only a
// fallback). The level is inferred from which bodies are present.
import { isObject, str, type JsonObject } from './json';

const VERSION = /^v\d+(?:(?:alpha|beta)\d+)?$/;

/** gRPC status codes (google.rpc.Code) back to the HTTP codes the API server returned. */
const HTTP_FROM_GRPC: Record<number, number> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

interface Method {
  verb: string;
  resource?: string;
  subresource?: string;
}

/** `io.k8s.core.v1.pods.status.patch` → { verb: patch, resource: pods, subresource: status }. */
export function parseMethodName(methodName: string): Method | null {
  const parts = methodName.split('.');
  if (parts.length < 2) return null;
  const verb = parts[parts.length - 1];
  const v = parts.findIndex((p, i) => i < parts.length - 1 && VERSION.test(p));
  if (v < 0) return { verb };
  const rest = parts.slice(v + 1, parts.length - 1);
  return { verb, resource: rest[0], subresource: rest[1] };
}

interface ResourcePath {
  apiGroup: string;
  apiVersion?: string;
  namespace?: string;
  resource?: string;
  name?: string;
  subresource?: string;
}

/** `core/v1/namespaces/ns/pods/name/status` and its cluster-scoped and collection variants. */
export function parseResourceName(resourceName: string): ResourcePath {
  const seg = resourceName.split('/');
  const group = seg[0] === 'core' ? '' : seg[0];
  const out: ResourcePath = { apiGroup: group, apiVersion: seg[1] };
  let i = 2;
  if (seg[i] === 'namespaces' && seg.length > 4) {
    out.namespace = seg[i + 1];
    i += 2;
  }
  out.resource = seg[i];
  out.name = seg[i + 1];
  out.subresource = seg[i + 2];
  return out;
}

function withoutType(body: unknown): unknown {
  if (!isObject(body) || !('@type' in body)) return body;
  const copy: JsonObject = { ...body };
  delete copy['@type'];
  return asListIfIndexed(copy);
}

/**
 * Cloud Logging carries a JSON-patch body (a list) as a Struct keyed "0", "1", ...; the
 * audit Event had the list itself, and the analysis reads list bodies as JSON patches.
 */
function asListIfIndexed(body: JsonObject): unknown {
  const keys = Object.keys(body);
  if (keys.length === 0 || !keys.every((k, i) => k === String(i))) return body;
  return keys.map((k) => body[k]);
}

function stageOf(operation: unknown): string {
  if (!isObject(operation)) return 'ResponseComplete';
  if (operation.last === true) return 'ResponseComplete';
  // A long-running request (watch, exec) gets a first entry when the response starts.
  if (operation.first === true) return 'ResponseStarted';
  return 'ResponseComplete';
}

/** An audit-Event-shaped object (still to be validated by toAuditEvent). */
export function gkeEntryToAuditObject(entry: JsonObject): JsonObject {
  const p = isObject(entry.protoPayload) ? entry.protoPayload : {};
  const op = isObject(entry.operation) ? entry.operation : undefined;
  const method = parseMethodName(str(p.methodName) ?? '');
  const path = str(p.resourceName) ? parseResourceName(str(p.resourceName) as string) : undefined;
  const auth = isObject(p.authenticationInfo) ? p.authenticationInfo : {};
  const meta = isObject(p.requestMetadata) ? p.requestMetadata : {};
  const status = isObject(p.status) ? p.status : undefined;
  const time = str(entry.timestamp) ?? str(entry.receiveTimestamp);

  const ev: JsonObject = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'response' in p ? 'RequestResponse' : 'request' in p ? 'Request' : 'Metadata',
    auditID: str(op?.id) ?? str(entry.insertId),
    stage: stageOf(op),
    verb: method?.verb,
    user: { username: str(auth.principalEmail) },
    requestReceivedTimestamp: time,
    stageTimestamp: time,
  };
  if (str(meta.callerIp)) ev.sourceIPs = [meta.callerIp];
  if (str(meta.callerSuppliedUserAgent)) ev.userAgent = meta.callerSuppliedUserAgent;
  const objectRef: JsonObject = {};
  const resource = method?.resource ?? path?.resource;
  if (resource) objectRef.resource = resource;
  if (path?.namespace) objectRef.namespace = path.namespace;
  if (path?.name) objectRef.name = path.name;
  if (path) objectRef.apiGroup = path.apiGroup;
  if (path?.apiVersion) objectRef.apiVersion = path.apiVersion;
  const sub = method?.subresource ?? path?.subresource;
  if (sub) objectRef.subresource = sub;
  if (Object.keys(objectRef).length > 0) ev.objectRef = objectRef;
  if (status) {
    const code = typeof status.code === 'number' ? status.code : 0;
    ev.responseStatus = {
      code: HTTP_FROM_GRPC[code] ?? 500,
      ...(str(status.message) ? { message: status.message } : {}),
    };
  }
  if ('request' in p) ev.requestObject = withoutType(p.request);
  if ('response' in p) ev.responseObject = withoutType(p.response);
  if (isObject(entry.labels)) ev.annotations = entry.labels;
  return ev;
}

/** A Kubernetes API audit entry, as opposed to the audit logs of other Google services. */
export function isKubernetesEntry(entry: JsonObject): boolean {
  const p = isObject(entry.protoPayload) ? entry.protoPayload : {};
  return p.serviceName === 'k8s.io' || (str(p.methodName) ?? '').startsWith('io.k8s.');
}
