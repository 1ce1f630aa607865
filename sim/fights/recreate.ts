// Another operator's pods, and its recreate loop against a mutating webhook (fights.md): the
// operator creates a pod, the webhook patches it, the operator sees drift, deletes the pod and
// creates its successor (same name for a CloudNativePG-like instance, a fresh generated name for
// an OLM-like catalog pod). Also the pod life the negatives need (manual delete, drain).
import type { Pod } from 'kubernetes-types/core/v1';
import type { Fight } from '../../lib/model/findings';
import { apiDefaults, builtinAdmission, storePod } from '../admission';
import { toJson, type JsonObject } from '../json';
import { podJson } from '../pod-json';
import { runWebhooks } from '../webhooks';
import { fmtMicros, fmtSeconds, SEC, type Micros } from '../time';
import { kubelet, sa, type FightSink } from './emit';
import type { FightWebhook } from './webhooks';

export interface OperatorPods {
  namespace: string;
  /** The operator's user. */
  user: string;
  owner: { apiVersion: string; kind: string; name: string; uid: string };
  /** A fixed pod name (same name each time) or a generateName (ends in `-`). */
  name?: string;
  generateName?: string;
  labels: Record<string, string>;
  containers: Array<{
    name: string;
    image: string;
    init?: boolean;
    env?: Array<{ name: string; value: string }>;
  }>;
  /** Webhooks called on this pod's create, in order (their index in the API server's list). */
  webhooks: FightWebhook[];
}

export interface LivePod {
  name: string;
  uid: string;
  stored: JsonObject;
  createdAt: Micros;
  /** The webhook fields its admission changed. */
  fields: string[];
}

function desiredPod(p: OperatorPods): Pod {
  const toC = (c: OperatorPods['containers'][number]) => ({
    name: c.name,
    image: c.image,
    ...(c.env ? { env: c.env } : {}),
    resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '1Gi' } },
    volumeMounts: [{ name: 'data', mountPath: '/var/lib/data' }],
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(p.name ? { name: p.name } : { generateName: p.generateName }),
      namespace: p.namespace,
      labels: p.labels,
      ownerReferences: [{ ...p.owner, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      volumes: [{ name: 'data', emptyDir: {} }],
      ...(p.containers.some((c) => c.init)
        ? { initContainers: p.containers.filter((c) => c.init).map(toC) }
        : {}),
      containers: p.containers.filter((c) => !c.init).map(toC),
      serviceAccountName: p.owner.name,
    },
  };
}

/** The operator creates one pod; the webhooks admit it. */
export function createOperatorPod(sink: FightSink, p: OperatorPods, at: Micros): LivePod {
  const r = sink.rng;
  const requested = apiDefaults(desiredPod(p));
  const admitted = builtinAdmission(requested, r.nameSuffix());
  const beforeHooks = toJson(admitted);
  const admission = runWebhooks(
    admitted,
    p.webhooks.map((def, i) => ({ index: i * 2 + 1, def })),
    r,
  );
  const fields = p.webhooks.flatMap((h) =>
    h.mutate(beforeHooks, r).length > 0 ? h.fields(beforeHooks) : [],
  );
  const name = p.name ?? `${p.generateName}${r.nameSuffix()}`;
  const uid = r.uuid();
  const stored = podJson(
    storePod(admission.pod, {
      name,
      uid,
      resourceVersion: String(r.int(40_000_000, 60_000_000)),
      createdAt: at,
      manager: 'manager',
    }),
  );
  sink.emit({
    at,
    latency: sink.ms(10, 40),
    actor: sa(r, p.user, 'manager/v0.0.0'),
    verb: 'create',
    resource: 'pods',
    apiVersion: 'v1',
    namespace: p.namespace,
    ...(p.name ? { name } : {}),
    requestObject: podJson(requested, { nullCreationTimestamp: true }),
    responseObject: stored,
    code: 201,
    admission: admission.annotations,
  });
  return { name, uid, stored, createdAt: at, fields };
}

/** A graceful delete by `user` and, a few seconds later, the kubelet's final one. Returns when the pod is gone. */
export function deletePod(
  sink: FightSink,
  ns: string,
  pod: LivePod,
  user: string,
  at: Micros,
  evict = false,
): Micros {
  const r = sink.rng;
  const deleting = {
    ...pod.stored,
    metadata: {
      ...(pod.stored.metadata as JsonObject),
      deletionTimestamp: fmtSeconds(at + 30 * SEC),
      deletionGracePeriodSeconds: 30,
    },
  };
  if (evict) {
    sink.emit({
      at,
      latency: sink.ms(10, 30),
      actor: sa(r, user, 'kubectl/v1.31.4'),
      verb: 'create',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: ns,
      name: pod.name,
      subresource: 'eviction',
      requestObject: {
        kind: 'Eviction',
        apiVersion: 'policy/v1',
        metadata: { name: pod.name, namespace: ns },
      },
      responseObject: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
      code: 201,
    });
  } else {
    sink.emit({
      at,
      latency: sink.ms(8, 30),
      actor: sa(r, user, 'manager/v0.0.0'),
      verb: 'delete',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: ns,
      name: pod.name,
      requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' },
      responseObject: deleting,
      code: 200,
    });
  }
  const gone = at + sink.ms(800, 3500);
  sink.emit({
    at: gone,
    latency: sink.ms(5, 20),
    actor: kubelet('ip-10-20-0-5.eu-west-1.compute.internal'),
    verb: 'delete',
    resource: 'pods',
    apiVersion: 'v1',
    namespace: ns,
    name: pod.name,
    requestObject: {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.uid },
    },
    responseObject: deleting,
    code: 200,
  });
  return gone;
}

export interface RecreateLoopSpec extends OperatorPods {
  /** Deletions by the operator (the loop's cycles). */
  cycles: number;
  periodSeconds: number;
  /** A person deletes the first pod, which starts the loop (not a cycle). */
  startedBy?: string;
}

type Truth = Omit<Fight, 'recommendation' | 'evidence' | 'active' | 'periodSeconds'>;

export function recreateLoop(sink: FightSink, s: RecreateLoopSpec, t: Micros): { end: Micros; truth: Truth } {
  let pod = createOperatorPod(sink, s, t);
  let at = t + sink.ms(2000, 5000);
  if (s.startedBy) {
    const gone = deletePod(sink, s.namespace, pod, s.startedBy, at);
    pod = createOperatorPod(sink, s, gone + sink.ms(200, 900));
    at = pod.createdAt + s.periodSeconds * SEC;
  }
  const deletions: Micros[] = [];
  const fields = new Set<string>();
  for (let i = 0; i < s.cycles; i++) {
    deletions.push(at);
    for (const f of pod.fields) fields.add(f);
    const gone = deletePod(sink, s.namespace, pod, s.user, at);
    // A generated pod's successor needs no wait for the name; a named one waits for the kubelet.
    const next = s.name ? gone + sink.ms(200, 900) : at + sink.ms(100, 600);
    pod = createOperatorPod(sink, s, next);
    at += s.periodSeconds * SEC + sink.ms(-300, 300);
  }
  const truth: Truth = {
    kind: 'recreate-loop',
    namespace: s.namespace,
    target: {
      apiGroup: s.owner.apiVersion.includes('/') ? s.owner.apiVersion.split('/')[0] : '',
      resource: `${s.owner.kind.toLowerCase()}s`,
      name: s.owner.name,
      slot: s.name ?? s.generateName!,
    },
    writers: [s.user],
    mutators: s.webhooks.map((h) => `${h.configuration}/${h.webhook}`),
    fields: [...fields],
    count: s.cycles,
    firstAt: fmtMicros(deletions[0]),
    lastAt: fmtMicros(deletions[deletions.length - 1]),
  };
  return { end: pod.createdAt + SEC, truth };
}
