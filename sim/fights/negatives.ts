// What must not count as a fight (fights.md, "Not fights"): a Deployment rollout, an autoscaler
// alone, a node drain, leader-election leases, status writes, cooperating writers on different
// keys, a one-off manual delete, a certificate renewal, an operator replacing pods nobody mutated.
import type { JsonObject } from '../json';
import { SEC, type Micros } from '../time';
import { sa, type FightSink } from './emit';
import { createOperatorPod, deletePod, type OperatorPods } from './recreate';
import { imageSwap } from './webhooks';

export type NegativeName =
  | 'rollout'
  | 'hpa-alone'
  | 'drain'
  | 'leases'
  | 'status-writes'
  | 'cooperating-annotations'
  | 'manual-delete'
  | 'cert-renewal'
  | 'unmutated-replacements'
  | 'scale-down-churn';

const DC = 'system:serviceaccount:kube-system:deployment-controller';
const HPA = 'system:serviceaccount:kube-system:horizontal-pod-autoscaler';

function replicaSet(ns: string, name: string, replicas: number, uid: string): JsonObject {
  return {
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    metadata: { name, namespace: ns, uid, labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

function rollout(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const ns = 'web';
  const dc = sa(r, DC, 'kube-controller-manager');
  const olds = r.uuid();
  const news = r.uuid();
  sink.emit({
    at: t,
    latency: sink.ms(5, 20),
    actor: sa(r, 'system:serviceaccount:argocd:argocd-application-controller', 'argocd'),
    verb: 'patch',
    resource: 'deployments',
    apiGroup: 'apps',
    apiVersion: 'v1',
    namespace: ns,
    name: 'web',
    requestObject: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } } },
    code: 200,
  });
  let at = t + SEC;
  for (let step = 0; step <= 4; step++) {
    for (const [name, uid, replicas] of [
      ['web-6d8f7c9b5', news, step],
      ['web-5c7d6b8a4', olds, 4 - step],
    ] as const) {
      const body = replicaSet(ns, name, replicas, uid);
      sink.emit({
        at,
        latency: sink.ms(5, 15),
        actor: dc,
        verb: 'update',
        resource: 'replicasets',
        apiGroup: 'apps',
        apiVersion: 'v1',
        namespace: ns,
        name,
        requestObject: body,
        responseObject: body,
        code: 200,
      });
      at += sink.ms(200, 800);
    }
    at += 5 * SEC;
  }
  return at;
}

function hpaAlone(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const hpa = sa(r, HPA, 'kube-controller-manager');
  let at = t;
  for (const replicas of [3, 4, 6, 8, 6, 5, 4, 3, 4, 5]) {
    const body = {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'search-api', namespace: 'search' },
      spec: { replicas },
    };
    sink.emit({
      at,
      latency: sink.ms(5, 15),
      actor: hpa,
      verb: 'update',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: 'search',
      name: 'search-api',
      subresource: 'scale',
      requestObject: body,
      responseObject: body,
      code: 200,
    });
    at += 30 * SEC;
  }
  return at;
}

function statefulPods(name: string, user: string): OperatorPods {
  return {
    namespace: 'cache',
    user,
    owner: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: 'redis',
      uid: 'a1b2c3d4-0000-4000-8000-000000000001',
    },
    name,
    labels: { app: 'redis' },
    containers: [{ name: 'redis', image: 'docker.io/library/redis:7.4' }],
    webhooks: [imageSwap({ mirror: 'mirror.example.com' })],
  };
}

function drain(sink: FightSink, t: Micros): Micros {
  const sts = 'system:serviceaccount:kube-system:statefulset-controller';
  let at = t;
  for (const name of ['redis-0', 'redis-1', 'redis-2', 'redis-0', 'redis-1']) {
    const spec = statefulPods(name, sts);
    const pod = createOperatorPod(sink, spec, at);
    const gone = deletePod(sink, spec.namespace, pod, 'alice@example.com', at + 20 * SEC, true);
    at = gone + sink.ms(500, 1500);
  }
  return at;
}

function leases(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const a = sa(r, 'system:serviceaccount:kube-system:cluster-autoscaler', 'cluster-autoscaler');
  const b = sa(r, 'system:serviceaccount:kube-system:karpenter', 'karpenter');
  let at = t;
  for (let i = 0; i < 20; i++) {
    sink.emit({
      at,
      latency: sink.ms(3, 10),
      actor: i % 2 ? a : b,
      verb: 'update',
      resource: 'leases',
      apiGroup: 'coordination.k8s.io',
      apiVersion: 'v1',
      namespace: 'kube-system',
      name: 'scaler-leader',
      code: 200,
    });
    at += 2 * SEC;
  }
  return at;
}

function statusWrites(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const a = sa(r, DC, 'kube-controller-manager');
  const b = sa(r, 'system:serviceaccount:monitoring:status-reporter', 'reporter');
  let at = t;
  for (let i = 0; i < 20; i++) {
    const body = {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'api', namespace: 'shop' },
      status: { replicas: i % 2 ? 3 : 2 },
    };
    sink.emit({
      at,
      latency: sink.ms(3, 10),
      actor: i % 2 ? a : b,
      verb: 'update',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: 'shop',
      name: 'api',
      subresource: 'status',
      requestObject: body,
      code: 200,
    });
    at += 3 * SEC;
  }
  return at;
}

function cooperatingAnnotations(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const writers = [
    ['system:serviceaccount:reloader:reloader', 'reloader.stakater.com/last-reloaded-from'],
    ['system:serviceaccount:keel:keel', 'keel.sh/update-time'],
  ] as const;
  let at = t;
  for (let i = 0; i < 16; i++) {
    const [user, key] = writers[i % 2];
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: sa(r, user, 'controller'),
      verb: 'patch',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: 'shop',
      name: 'storefront',
      requestObject: {
        metadata: { annotations: { [key]: `2026-11-09T14:${String(10 + i).padStart(2, '0')}:00Z` } },
      },
      code: 200,
    });
    at += 20 * SEC;
  }
  return at;
}

function manualDelete(sink: FightSink, t: Micros): Micros {
  const spec: OperatorPods = {
    namespace: 'analytics',
    user: 'system:serviceaccount:cnpg-system:cnpg-manager',
    owner: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      name: 'pg-reports',
      uid: 'a1b2c3d4-0000-4000-8000-000000000002',
    },
    name: 'pg-reports-1',
    labels: { 'cnpg.io/cluster': 'pg-reports' },
    containers: [{ name: 'postgres', image: 'ghcr.io/cloudnative-pg/postgresql:16.4' }],
    webhooks: [imageSwap({ mirror: 'mirror.example.com' })],
  };
  const pod = createOperatorPod(sink, spec, t);
  const gone = deletePod(sink, spec.namespace, pod, 'dave@example.com', t + 60 * SEC);
  createOperatorPod(sink, spec, gone + SEC);
  return gone + 5 * SEC;
}

function certRenewal(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const injector = sa(r, 'system:serviceaccount:cert-manager:cert-manager-cainjector', 'cainjector');
  const body = (ca: string) => ({
    kind: 'ValidatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: { name: 'policy-webhook', generation: ca.length },
    webhooks: [{ name: 'validate.policy.example.com', clientConfig: { caBundle: ca } }],
  });
  let at = t;
  for (const ca of ['Q0EtMQ==', 'Q0EtMg==', 'Q0EtMw==']) {
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: injector,
      verb: 'update',
      resource: 'validatingwebhookconfigurations',
      apiGroup: 'admissionregistration.k8s.io',
      apiVersion: 'v1',
      name: 'policy-webhook',
      requestObject: body(ca),
      responseObject: body(ca),
      code: 200,
    });
    sink.emit({
      at: at + SEC,
      latency: sink.ms(5, 20),
      actor: sa(r, 'system:serviceaccount:cert-manager:cert-manager', 'cert-manager'),
      verb: 'update',
      resource: 'certificates',
      apiGroup: 'cert-manager.io',
      apiVersion: 'v1',
      namespace: 'infra',
      name: 'policy-webhook-tls',
      subresource: 'status',
      code: 200,
    });
    at += 120 * SEC;
  }
  return at;
}

/** An operator replacing its pods (a spec change) that no webhook mutated. */
function unmutatedReplacements(sink: FightSink, t: Micros): Micros {
  const spec: OperatorPods = {
    namespace: 'queue',
    user: 'system:serviceaccount:rabbitmq-system:rabbitmq-operator',
    owner: {
      apiVersion: 'rabbitmq.com/v1beta1',
      kind: 'RabbitmqCluster',
      name: 'events',
      uid: 'a1b2c3d4-0000-4000-8000-000000000003',
    },
    name: 'events-server-0',
    labels: { app: 'events' },
    containers: [{ name: 'rabbitmq', image: 'docker.io/library/rabbitmq:3.13' }],
    webhooks: [],
  };
  let pod = createOperatorPod(sink, spec, t);
  let at = t + 10 * SEC;
  for (let i = 0; i < 5; i++) {
    const gone = deletePod(sink, spec.namespace, pod, spec.user, at);
    pod = createOperatorPod(sink, spec, gone + SEC);
    at += 10 * SEC;
  }
  return at;
}

/**
 * An operator scaling its own workload down and up again (an autoscaler flapping): it deletes
 * pods and creates others of the same generateName within seconds, webhook-mutated all, but
 * each deletion follows a lower spec.replicas of the owner: not a recreate loop.
 */
function scaleDownChurn(sink: FightSink, t: Micros): Micros {
  const r = sink.rng;
  const user = 'system:serviceaccount:kruise-system:kruise-manager';
  const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'frontend', uid: r.uuid() };
  const spec: OperatorPods = {
    namespace: 'shop',
    user,
    owner,
    generateName: 'frontend-',
    labels: { app: 'frontend' },
    containers: [{ name: 'web', image: 'docker.io/library/nginx:1.27' }],
    webhooks: [imageSwap({ mirror: 'mirror.example.com' })],
  };
  const setReplicas = (at: Micros, replicas: number) =>
    sink.emit({
      at,
      latency: sink.ms(5, 15),
      level: 'Request',
      actor: sa(r, 'system:serviceaccount:kube-system:horizontal-pod-autoscaler', 'hpa'),
      verb: 'update',
      resource: 'clonesets',
      apiGroup: 'apps.kruise.io',
      apiVersion: 'v1alpha1',
      namespace: 'shop',
      name: 'frontend',
      subresource: 'scale',
      requestObject: {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: 'frontend', namespace: 'shop' },
        spec: { replicas },
      },
      code: 200,
    });
  let pod = createOperatorPod(sink, spec, t);
  let at = t + 20 * SEC;
  setReplicas(t, 2);
  for (let i = 0; i < 6; i++) {
    setReplicas(at - 3 * SEC, 1);
    deletePod(sink, spec.namespace, pod, user, at);
    setReplicas(at + 5 * SEC, 2);
    pod = createOperatorPod(sink, spec, at + 6 * SEC);
    at += 20 * SEC;
  }
  return at;
}

export const NEGATIVES: Readonly<Record<NegativeName, (sink: FightSink, t: Micros) => Micros>> = {
  rollout,
  'hpa-alone': hpaAlone,
  drain,
  leases,
  'status-writes': statusWrites,
  'cooperating-annotations': cooperatingAnnotations,
  'manual-delete': manualDelete,
  'cert-renewal': certRenewal,
  'unmutated-replacements': unmutatedReplacements,
  'scale-down-churn': scaleDownChurn,
};

/** Negatives that stay silent at Metadata level too (cooperating writers on different keys cannot: only values tell them apart). */
export const METADATA_SILENT: readonly NegativeName[] = [
  'rollout',
  'hpa-alone',
  'drain',
  'leases',
  'status-writes',
  'manual-delete',
  'cert-renewal',
  'unmutated-replacements',
  'scale-down-churn',
];
