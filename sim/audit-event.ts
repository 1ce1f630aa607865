// Audit events as the API server writes them: one RequestReceived and one ResponseComplete
// stage per request (plus ResponseStarted for watches), same auditID, bodies and admission
// annotations on the final stage only, and only as far as the policy level allows.
import type { AuditEvent, AuditLevel, AuditResponseStatus } from '../lib/model/audit';
import type { JsonValue } from './json';
import type { Rng } from './rng';
import { fmtMicros, type Micros } from './time';

export interface Actor {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
  userAgent: string;
  sourceIP: string;
  /** The RBAC reason the authorizer gives (empty for the Node authorizer). */
  rbacReason: string;
}

export interface ApiRequest {
  at: Micros;
  /** Time until the response completed. */
  latency: Micros;
  actor: Actor;
  verb: string;
  level: AuditLevel;
  resource: string;
  apiGroup?: string;
  apiVersion: string;
  namespace?: string;
  name?: string;
  uid?: string;
  subresource?: string;
  query?: string;
  requestObject?: JsonValue;
  responseObject?: JsonValue;
  code: number;
  failure?: { reason: string; message: string };
  /** Admission annotations (mutation.webhook… at every level, patch.webhook… from Request up). */
  admission?: Record<string, string>;
}

export interface RequestRecord {
  auditID: string;
  receivedAt: Micros;
  doneAt: Micros;
  events: AuditEvent[];
}

export function requestURI(
  r: Pick<
    ApiRequest,
    'resource' | 'apiGroup' | 'apiVersion' | 'namespace' | 'name' | 'subresource' | 'query'
  >,
): string {
  const base = r.apiGroup ? `/apis/${r.apiGroup}/${r.apiVersion}` : `/api/${r.apiVersion}`;
  const ns = r.namespace ? `/namespaces/${r.namespace}` : '';
  const name = r.name ? `/${r.name}` : '';
  const sub = r.subresource ? `/${r.subresource}` : '';
  return `${base}${ns}/${r.resource}${name}${sub}${r.query ? `?${r.query}` : ''}`;
}

function objectRef(r: ApiRequest): NonNullable<AuditEvent['objectRef']> {
  return {
    resource: r.resource,
    ...(r.namespace ? { namespace: r.namespace } : {}),
    ...(r.name ? { name: r.name } : {}),
    ...(r.uid ? { uid: r.uid } : {}),
    ...(r.apiGroup ? { apiGroup: r.apiGroup } : {}),
    apiVersion: r.apiVersion,
    ...(r.subresource ? { subresource: r.subresource } : {}),
  };
}

const WATCH_VERBS = new Set(['watch']);

/** The wire form carries an empty ListMeta the model type leaves out. */
type WireStatus = AuditResponseStatus & { metadata: Record<string, never> };

/** Builds the stages of one request. */
export function auditRequest(rng: Rng, r: ApiRequest): RequestRecord {
  const auditID = rng.uuid();
  const received = Math.round(r.at);
  const done = Math.round(r.at + Math.max(1, r.latency));
  const user = {
    username: r.actor.username,
    ...(r.actor.uid ? { uid: r.actor.uid } : {}),
    groups: r.actor.groups,
    ...(r.actor.extra ? { extra: r.actor.extra } : {}),
  };
  const head = (stage: string, stageAt: Micros): AuditEvent => ({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: r.level,
    auditID,
    stage,
    requestURI: requestURI(r),
    verb: r.verb,
    user,
    sourceIPs: [r.actor.sourceIP],
    userAgent: r.actor.userAgent,
    objectRef: objectRef(r),
    requestReceivedTimestamp: fmtMicros(received),
    stageTimestamp: fmtMicros(stageAt),
  });

  const events: AuditEvent[] = [head('RequestReceived', received)];
  // Later stages carry the response status (and, last, bodies and annotations) between objectRef
  // and the timestamps, where the API server's encoder puts them.
  const withStatus = (
    stage: string,
    at: Micros,
    status: WireStatus,
    extra: Partial<AuditEvent>,
  ): AuditEvent => {
    const { requestReceivedTimestamp, stageTimestamp, ...rest } = head(stage, at);
    return { ...rest, responseStatus: status, ...extra, requestReceivedTimestamp, stageTimestamp };
  };
  if (WATCH_VERBS.has(r.verb))
    events.push(
      withStatus(
        'ResponseStarted',
        received + Math.min(2000, done - received),
        { metadata: {}, code: 200 },
        {},
      ),
    );
  const status: WireStatus = r.failure
    ? { metadata: {}, status: 'Failure', message: r.failure.message, reason: r.failure.reason, code: r.code }
    : { metadata: {}, code: r.code };
  const bodies = r.level === 'Request' || r.level === 'RequestResponse';
  const extra: Partial<AuditEvent> = {};
  if (bodies && r.requestObject !== undefined) extra.requestObject = r.requestObject;
  if (r.level === 'RequestResponse' && r.responseObject !== undefined)
    extra.responseObject = r.responseObject;
  const annotations: Record<string, string> = {
    'authorization.k8s.io/decision': 'allow',
    'authorization.k8s.io/reason': r.actor.rbacReason,
  };
  for (const [k, v] of Object.entries(r.admission ?? {})) {
    if (k.startsWith('patch.webhook.admission.k8s.io/') && !bodies) continue;
    annotations[k] = v;
  }
  events.push({ ...withStatus('ResponseComplete', done, status, extra), annotations });
  return { auditID, receivedAt: received, doneAt: done, events };
}

// --- the audit policy ------------------------------------------------------------------

export interface AuditPolicy {
  /** Level for pod writes (the managed-cluster default is RequestResponse). */
  podLevel: 'RequestResponse' | 'Metadata';
  /** Namespaces whose pod writes a dedicated rule logs at Metadata only. */
  metadataPodNamespaces: ReadonlySet<string>;
  /** Namespaces a careless catch-all rule logs config maps and secrets in with bodies. */
  bodiesNamespaces: ReadonlySet<string>;
}

const READS = new Set(['get', 'list', 'watch']);

/** What a typical managed-cluster policy logs each request at. */
export function levelFor(
  policy: AuditPolicy,
  ref: { resource: string; subresource?: string; namespace?: string; apiGroup?: string; verb: string },
): AuditLevel {
  const ns = ref.namespace ?? '';
  if (ref.resource === 'secrets')
    return policy.bodiesNamespaces.has(ns) && !READS.has(ref.verb) ? 'Request' : 'Metadata';
  if (ref.resource === 'configmaps')
    return policy.bodiesNamespaces.has(ns) && !READS.has(ref.verb) ? 'RequestResponse' : 'Metadata';
  if (ref.resource === 'events' || ref.resource === 'tokenreviews' || ref.resource === 'subjectaccessreviews')
    return 'Metadata';
  if (ref.resource === 'leases') return ns === 'kube-node-lease' ? 'Request' : 'Metadata';
  if (READS.has(ref.verb)) return 'Request';
  if (ref.resource === 'pods') {
    if (policy.podLevel === 'Metadata' || policy.metadataPodNamespaces.has(ns)) return 'Metadata';
    return ref.subresource === 'status' ? 'Request' : 'RequestResponse';
  }
  if (ref.resource === 'nodes') return 'Request';
  if (ref.apiGroup === 'admissionregistration.k8s.io') return 'RequestResponse';
  // Custom resources: most managed clusters keep them at Metadata.
  if (
    ref.apiGroup &&
    !['apps', 'batch', 'policy', 'coordination.k8s.io', 'discovery.k8s.io'].includes(ref.apiGroup)
  )
    return 'Metadata';
  return 'Request';
}

// --- who calls the API ---------------------------------------------------------------------

export function serviceAccountActor(
  rng: Rng,
  namespace: string,
  name: string,
  opts: { userAgent: string; sourceIP: string; node?: string; podName?: string; binding?: string },
): Actor {
  const username = `system:serviceaccount:${namespace}:${name}`;
  const extra: Record<string, string[]> | undefined = opts.podName
    ? {
        'authentication.kubernetes.io/credential-id': [`JTI=${rng.uuid()}`],
        ...(opts.node
          ? {
              'authentication.kubernetes.io/node-name': [opts.node],
              'authentication.kubernetes.io/node-uid': [rng.uuid()],
            }
          : {}),
        'authentication.kubernetes.io/pod-name': [opts.podName],
        'authentication.kubernetes.io/pod-uid': [rng.uuid()],
      }
    : undefined;
  const binding = opts.binding ?? name;
  return {
    username,
    uid: rng.uuid(),
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    ...(extra ? { extra } : {}),
    userAgent: opts.userAgent,
    sourceIP: opts.sourceIP,
    rbacReason: `RBAC: allowed by ClusterRoleBinding "${binding}" of ClusterRole "${binding}" to ServiceAccount "${name}/${namespace}"`,
  };
}

export function parseServiceAccount(username: string): { namespace: string; name: string } | null {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(username);
  return m ? { namespace: m[1], name: m[2] } : null;
}

export function nodeActor(node: string, ip: string, kubeletVersion: string): Actor {
  return {
    username: `system:node:${node}`,
    groups: ['system:nodes', 'system:authenticated'],
    userAgent: `kubelet/${kubeletVersion} (linux/amd64) kubernetes/3f2b1c7`,
    sourceIP: ip,
    rbacReason: '',
  };
}

export function humanActor(email: string, ip: string, group = 'platform-engineers'): Actor {
  return {
    username: email,
    groups: [group, 'system:authenticated'],
    extra: { 'oidc.example.com/issuer': ['https://sso.example.com'] },
    userAgent: 'kubectl/v1.33.2 (darwin/arm64) kubernetes/a57b6f7',
    sourceIP: ip,
    rbacReason: `RBAC: allowed by ClusterRoleBinding "${group}" of ClusterRole "cluster-admin" to Group "${group}"`,
  };
}

export function systemActor(username: string, userAgent: string, ip: string): Actor {
  return {
    username,
    groups: ['system:authenticated'],
    userAgent,
    sourceIP: ip,
    rbacReason: `RBAC: allowed by ClusterRoleBinding "${username}" of ClusterRole "${username}" to User "${username}"`,
  };
}
