// Audit events about one koperator broker pod, as a real API server logs them, for the drift
// tests: the operator's create, then writes by others in every form the API server accepts.
import type { AuditEvent } from '../../lib/model/audit';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import { projectRecord } from '../../lib/facts/project';
import type { Fact } from '../../lib/model/facts';

export const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
export const POD = 'events-0-xk2lp';
export const UID = '0f2879d5-c96d-497b-b203-51901f5f8d11';
export const SECRET = 'hunter2-planted-secret';

type Pod = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What koperator declares for the pod: its last-applied content, as koperator writes it. */
export function declaredPod(): Pod {
  return {
    metadata: {
      generateName: 'events-0-',
      namespace: 'kafka',
      labels: { app: 'kafka', kafka_cr: 'events', brokerId: '0' },
      ownerReferences: [
        {
          apiVersion: 'kafka.banzaicloud.io/v1beta1',
          kind: 'KafkaCluster',
          name: 'events',
          uid: 'cr-1',
          controller: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'kafka',
          image: 'ghcr.io/adobe/kafka:2.13-3.9.1',
          command: ['/opt/kafka/bin/kafka-server-start.sh'],
          env: [{ name: 'KAFKA_HEAP_OPTS', value: '-Xmx2G' }],
          resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { memory: '2Gi' } },
        },
      ],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' }],
      activeDeadlineSeconds: 86400,
    },
    // Go marshals the empty status struct: koperator's annotation always carries it.
    status: {},
  };
}

/** The pod as stored: the declared content, its annotation, identity, defaults and status. */
export function storedPod(resourceVersion: string, edit: (p: Pod) => void = () => undefined): Pod {
  const d = declaredPod();
  const p: Pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      ...d.metadata,
      name: POD,
      uid: UID,
      resourceVersion,
      annotations: { [LAST_APPLIED_ANNOTATION]: encodeLastApplied(d) },
    },
    spec: {
      ...d.spec,
      containers: d.spec.containers.map((c: Pod) => ({ ...c, imagePullPolicy: 'IfNotPresent' })),
      tolerations: [
        ...d.spec.tolerations,
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      nodeName: 'ip-10-0-1-17.ec2.internal',
    },
    status: { phase: 'Running' },
  };
  edit(p);
  return JSON.parse(JSON.stringify(p)) as Pod;
}

export interface WriteOptions {
  user?: string;
  as?: string;
  subresource?: string;
  request?: unknown;
  response?: unknown;
  code?: number;
  level?: string;
  requestURI?: string;
  second: number;
}

let ids = 0;

export function event(verb: string, o: WriteOptions): AuditEvent {
  const id = (++ids).toString(16).padStart(12, '0');
  const at = `2026-12-01T22:00:${String(o.second).padStart(2, '0')}.000100Z`;
  const level = o.level ?? 'RequestResponse';
  const e: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: `00000000-0000-4000-8000-${id}`,
    stage: 'ResponseComplete',
    requestURI:
      o.requestURI ?? `/api/v1/namespaces/kafka/pods/${POD}${o.subresource ? `/${o.subresource}` : ''}`,
    verb,
    user: { username: o.user ?? OPERATOR },
    objectRef: {
      resource: 'pods',
      namespace: 'kafka',
      name: POD,
      // A patch's objectRef carries no uid (drift corpus README).
      ...(verb === 'patch' ? {} : { uid: UID }),
      apiVersion: 'v1',
      ...(o.subresource ? { subresource: o.subresource } : {}),
    },
    responseStatus: { code: o.code ?? 200 },
    requestReceivedTimestamp: at,
    stageTimestamp: at.replace('000100Z', '004000Z'),
  };
  if (o.as) e.impersonatedUser = { username: o.as };
  if (level !== 'Metadata') {
    if (o.request !== undefined) e.requestObject = o.request;
    if (level === 'RequestResponse' && o.response !== undefined) e.responseObject = o.response;
  }
  return e;
}

/** The operator's create of the pod at second 0 (resourceVersion 100). */
export function created(level = 'RequestResponse'): AuditEvent {
  const { metadata, ...rest } = storedPod('100');
  const { name, uid, resourceVersion, ...sent } = metadata as Pod;
  void [name, uid, resourceVersion];
  const e = event('create', {
    second: 0,
    request: { ...rest, metadata: sent },
    response: storedPod('100'),
    code: 201,
    level,
  });
  // generateName: the request names no pod; the response does.
  delete e.objectRef!.name;
  delete e.objectRef!.uid;
  return e;
}

export function factsOf(events: AuditEvent[]): Fact[] {
  const out: Fact[] = [];
  for (const e of events) {
    const f = projectRecord({ kind: 'audit', event: e, format: 'audit-jsonl', at: { source: 't', line: 1 } });
    if (f) out.push(f);
  }
  return out;
}
