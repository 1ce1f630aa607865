// Field fights and hot loops on objects other than pods (fights.md): GitOps vs an autoscaler on
// a Deployment's replicas, a renderer vs cainjector on a webhook configuration's caBundle, two
// controllers on a custom resource (at Metadata level: the writers' alternation only), and an
// operator re-sending a StatefulSet without its defaulted fields. Each returns its truth.
import type { Fight } from '../../lib/model/findings';
import type { JsonObject } from '../json';
import { fmtMicros, SEC, type Micros } from '../time';
import { sa, type FightSink } from './emit';

export type FightTruth = Omit<Fight, 'recommendation' | 'evidence' | 'active' | 'periodSeconds'>;

function deployment(ns: string, name: string, uid: string, replicas: number, generation: number): JsonObject {
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: {
      name,
      namespace: ns,
      uid,
      resourceVersion: String(48_000_000 + generation * 7),
      generation,
      creationTimestamp: '2026-09-29T14:00:00Z',
      labels: { 'app.kubernetes.io/name': name },
      annotations: { 'deployment.kubernetes.io/revision': '12' },
    },
    spec: {
      replicas,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { creationTimestamp: null, labels: { 'app.kubernetes.io/name': name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example.com/${name}:1.4.2`,
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
            },
          ],
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    },
    status: { replicas, readyReplicas: replicas },
  };
}

function scale(ns: string, name: string, uid: string, replicas: number): JsonObject {
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace: ns, uid, creationTimestamp: '2026-09-29T14:00:00Z' },
    spec: { replicas },
    status: { replicas, selector: `app.kubernetes.io/name=${name}` },
  };
}

export interface ReplicasFightSpec {
  namespace: string;
  name: string;
  /** The GitOps controller that patches spec.replicas from Git. */
  gitops: string;
  /** The autoscaler that writes deployments/scale. */
  scaler: string;
  gitReplicas: number;
  scaledReplicas: number;
  /** Rounds of (GitOps patch, autoscaler answer). */
  rounds: number;
  periodSeconds: number;
}

export function replicasFight(
  sink: FightSink,
  s: ReplicasFightSpec,
  t: Micros,
): { end: Micros; truth: FightTruth } {
  const r = sink.rng;
  const uid = r.uuid();
  let generation = 20;
  const gitops = sa(r, s.gitops, 'argocd-application-controller/v2.13.3');
  const scaler = sa(r, s.scaler, 'kube-controller-manager/v1.31.4');
  const scaleWrite = (at: Micros) =>
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: scaler,
      verb: 'update',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: s.namespace,
      name: s.name,
      subresource: 'scale',
      requestObject: scale(s.namespace, s.name, uid, s.scaledReplicas),
      responseObject: scale(s.namespace, s.name, uid, s.scaledReplicas),
      code: 200,
    });
  const restores: Micros[] = [];
  scaleWrite(t);
  let at = t + s.periodSeconds * SEC;
  for (let i = 0; i < s.rounds; i++) {
    generation++;
    sink.emit({
      at,
      latency: sink.ms(8, 25),
      actor: gitops,
      verb: 'patch',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: s.namespace,
      name: s.name,
      query: 'fieldManager=argocd-controller',
      requestObject: { spec: { replicas: s.gitReplicas } },
      responseObject: deployment(s.namespace, s.name, uid, s.gitReplicas, generation),
      code: 200,
    });
    // The first patch only changes what the first scale write established.
    if (i > 0) restores.push(at);
    const answer = at + r.int(2, Math.max(3, Math.floor(s.periodSeconds / 2))) * SEC;
    generation++;
    scaleWrite(answer);
    restores.push(answer);
    at += s.periodSeconds * SEC;
  }
  const metadata = sink.level === 'Metadata';
  // At Metadata level every write after the first alternates writers.
  const cycles = metadata ? 2 * s.rounds : restores.length;
  return {
    end: at,
    truth: {
      kind: 'field-fight',
      namespace: s.namespace,
      target: { apiGroup: 'apps', resource: 'deployments', name: s.name },
      writers: [s.gitops, s.scaler].sort(),
      mutators: [],
      fields: metadata ? [] : ['spec.replicas'],
      count: cycles,
      firstAt: fmtMicros(metadata ? t + s.periodSeconds * SEC : restores[0]),
      lastAt: fmtMicros(restores[restores.length - 1]),
    },
  };
}

export interface CaBundleFightSpec {
  configuration: string;
  webhooks: string[];
  renderer: string;
  injector: string;
  rounds: number;
  periodSeconds: number;
}

function webhookConfiguration(s: CaBundleFightSpec, uid: string, generation: number, ca: string): JsonObject {
  return {
    kind: 'MutatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: {
      name: s.configuration,
      uid,
      resourceVersion: String(48_355_000 + generation),
      generation,
      creationTimestamp: '2026-09-07T14:00:00Z',
      annotations: { 'cert-manager.io/inject-ca-from': `${s.configuration}/${s.configuration}-tls` },
    },
    webhooks: s.webhooks.map((name) => ({
      name,
      clientConfig: {
        service: { namespace: 'infra', name: s.configuration, path: '/mutate', port: 443 },
        caBundle: ca,
      },
      rules: [
        { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' },
      ],
      failurePolicy: 'Ignore',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    })),
  };
}

export function caBundleFight(
  sink: FightSink,
  s: CaBundleFightSpec,
  t: Micros,
): { end: Micros; truth: FightTruth } {
  const r = sink.rng;
  const uid = r.uuid();
  const ca = Buffer.from(`-----BEGIN CERTIFICATE-----\n${r.hex(96)}\n-----END CERTIFICATE-----\n`).toString(
    'base64',
  );
  let generation = 4000;
  const renderer = sa(r, s.renderer, 'helm/v3.16.2');
  const injector = sa(r, s.injector, 'cainjector/v1.16.1');
  const inject = (at: Micros) => {
    generation++;
    const body = webhookConfiguration(s, uid, generation, ca);
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: injector,
      verb: 'update',
      resource: 'mutatingwebhookconfigurations',
      apiGroup: 'admissionregistration.k8s.io',
      apiVersion: 'v1',
      name: s.configuration,
      requestObject: body,
      responseObject: body,
      code: 200,
    });
  };
  inject(t);
  const restores: Micros[] = [];
  let at = t + s.periodSeconds * SEC;
  for (let i = 0; i < s.rounds; i++) {
    generation++;
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: renderer,
      verb: 'patch',
      resource: 'mutatingwebhookconfigurations',
      apiGroup: 'admissionregistration.k8s.io',
      apiVersion: 'v1',
      name: s.configuration,
      requestObject: {
        '$setElementOrder/webhooks': s.webhooks.map((name) => ({ name })),
        webhooks: s.webhooks.map((name) => ({ clientConfig: { caBundle: '' }, name })),
      },
      responseObject: webhookConfiguration(s, uid, generation, ''),
      code: 200,
    });
    if (i > 0) restores.push(at);
    const answer = at + sink.ms(300, 1500);
    inject(answer);
    restores.push(answer);
    at += s.periodSeconds * SEC;
  }
  const metadata = sink.level === 'Metadata';
  return {
    end: at,
    truth: {
      kind: 'field-fight',
      namespace: null,
      target: {
        apiGroup: 'admissionregistration.k8s.io',
        resource: 'mutatingwebhookconfigurations',
        name: s.configuration,
      },
      writers: [s.renderer, s.injector].sort(),
      mutators: [],
      fields: metadata ? [] : s.webhooks.map((w) => `webhooks[name=${w}].clientConfig.caBundle`),
      count: metadata ? 2 * s.rounds : restores.length,
      firstAt: fmtMicros(metadata ? t + s.periodSeconds * SEC : restores[0]),
      lastAt: fmtMicros(restores[restores.length - 1]),
    },
  };
}

export interface CustomResourceFightSpec {
  apiGroup: string;
  resource: string;
  namespace: string | null;
  name: string;
  writers: [string, string];
  /** Writes in all, alternating. */
  writes: number;
  periodSeconds: number;
}

/** Two controllers writing a custom resource in turn; custom resources are logged at Metadata. */
export function customResourceFight(
  sink: FightSink,
  s: CustomResourceFightSpec,
  t: Micros,
): { end: Micros; truth: FightTruth } {
  const r = sink.rng;
  const actors = s.writers.map((u) => sa(r, u, 'controller/v1'));
  let at = t;
  const times: Micros[] = [];
  for (let i = 0; i < s.writes; i++) {
    times.push(at);
    sink.emit({
      at,
      latency: sink.ms(5, 30),
      actor: actors[i % 2],
      verb: i % 2 === 0 ? 'patch' : 'update',
      level: 'Metadata',
      resource: s.resource,
      apiGroup: s.apiGroup,
      apiVersion: 'v1beta1',
      ...(s.namespace ? { namespace: s.namespace } : {}),
      name: s.name,
      code: 200,
    });
    at += (i % 2 === 0 ? 1 : s.periodSeconds - 1) * SEC + sink.ms(0, 400);
  }
  return {
    end: at,
    truth: {
      kind: 'field-fight',
      namespace: s.namespace,
      target: { apiGroup: s.apiGroup, resource: s.resource, name: s.name },
      writers: [...s.writers].sort(),
      mutators: [],
      fields: [],
      count: s.writes - 1,
      firstAt: fmtMicros(times[1]),
      lastAt: fmtMicros(times[times.length - 1]),
    },
  };
}

export interface HotLoopSpec {
  namespace: string;
  name: string;
  user: string;
  container: string;
  writes: number;
  periodSeconds: number;
  /**
   * How each write is sent (default `apply`): a server-side apply; a whole-object JSON merge
   * patch as a typed Go object marshals it (no kind or apiVersion, `creationTimestamp: null`, an
   * empty status); a strategic-merge patch of the whole spec with a directive and no name; a
   * plain update, whose request is already defaulted in real audit logs (not a hot loop's
   * signature, so no truth); a merge patch of `spec.replicas` alone (a partial patch: the
   * response has much the body never meant to set, so no truth either).
   */
  send?: HotLoopSend;
}

export type HotLoopSend = 'apply' | 'merge' | 'strategic-merge' | 'update' | 'replicas-only';

const STS_DEFAULTED = ['podManagementPolicy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'];
const POD_DEFAULTED = ['restartPolicy', 'terminationGracePeriodSeconds', 'dnsPolicy', 'schedulerName'];
const CONTAINER_DEFAULTED = ['terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy'];

function statefulSet(
  s: HotLoopSpec,
  defaulted: boolean,
  uid: string,
  generation: number,
  hash: string,
): JsonObject {
  const container: JsonObject = {
    name: s.container,
    image: `quay.io/example/${s.container}:v1.102.1`,
    args: ['-retentionPeriod=12'],
    ...(defaulted
      ? {
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        }
      : {}),
  };
  const podSpec: JsonObject = {
    containers: [container],
    ...(defaulted
      ? {
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          schedulerName: 'default-scheduler',
        }
      : {}),
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: s.name,
      namespace: s.namespace,
      ...(defaulted ? { uid, generation, resourceVersion: String(48_370_000 + generation) } : {}),
      annotations: { 'operator/last-applied-hash': hash },
    },
    spec: {
      replicas: 3,
      serviceName: s.name,
      selector: { matchLabels: { app: s.name } },
      template: { metadata: { labels: { app: s.name } }, spec: podSpec },
      ...(defaulted
        ? {
            podManagementPolicy: 'OrderedReady',
            revisionHistoryLimit: 10,
            persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
          }
        : {}),
    },
  };
}

/** The verb, query and body of one hot-loop write, as `s.send` says it is sent. */
function hotLoopRequest(
  s: HotLoopSpec,
  uid: string,
  generation: number,
  hash: string,
): { verb: 'patch' | 'update'; query?: string; requestObject: JsonObject } {
  const bare = statefulSet(s, false, uid, generation, hash);
  const { kind: _kind, apiVersion: _apiVersion, ...untyped } = bare;
  const metadata = bare.metadata as JsonObject;
  const spec = bare.spec as JsonObject & { template: JsonObject & { spec: JsonObject } };
  switch (s.send ?? 'apply') {
    case 'apply':
      return { verb: 'patch', query: 'fieldManager=operator&force=true', requestObject: bare };
    case 'merge':
      return {
        verb: 'patch',
        requestObject: {
          ...untyped,
          metadata: { ...metadata, creationTimestamp: null },
          status: { replicas: 0, availableReplicas: 0 },
        },
      };
    case 'strategic-merge':
      return {
        verb: 'patch',
        requestObject: {
          metadata: { annotations: metadata.annotations },
          spec: {
            ...spec,
            template: {
              ...spec.template,
              spec: { ...spec.template.spec, '$setElementOrder/containers': [{ name: s.container }] },
            },
          },
        },
      };
    case 'update':
      return { verb: 'update', requestObject: statefulSet(s, true, uid, generation - 1, hash) };
    case 'replicas-only':
      return {
        verb: 'patch',
        requestObject: { metadata: { annotations: metadata.annotations }, spec: { replicas: 3 } },
      };
  }
}

export function hotLoop(
  sink: FightSink,
  s: HotLoopSpec,
  t: Micros,
): { end: Micros; truth: FightTruth | null } {
  const r = sink.rng;
  const uid = r.uuid();
  const writer = sa(r, s.user, 'operator/v0.50.0');
  const controller = sa(
    r,
    'system:serviceaccount:kube-system:statefulset-controller',
    'kube-controller-manager/v1.31.4',
  );
  let generation = 1800;
  let at = t;
  const times: Micros[] = [];
  for (let i = 0; i < s.writes; i++) {
    generation++;
    times.push(at);
    const hash = r.hex(16);
    sink.emit({
      at,
      latency: sink.ms(8, 30),
      actor: writer,
      resource: 'statefulsets',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: s.namespace,
      name: s.name,
      ...hotLoopRequest(s, uid, generation, hash),
      responseObject: statefulSet(s, true, uid, generation, hash),
      code: 200,
    });
    sink.emit({
      at: at + sink.ms(40, 120),
      latency: sink.ms(5, 15),
      actor: controller,
      verb: 'update',
      resource: 'statefulsets',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: s.namespace,
      name: s.name,
      subresource: 'status',
      requestObject: {
        ...statefulSet(s, true, uid, generation, hash),
        status: { observedGeneration: generation },
      },
      code: 200,
    });
    at += s.periodSeconds * SEC + sink.ms(-200, 200);
  }
  const send = s.send ?? 'apply';
  if (sink.level === 'Metadata' || send === 'update' || send === 'replicas-only')
    return { end: at, truth: null };
  const base = 'spec.template.spec';
  return {
    end: at,
    truth: {
      kind: 'hot-loop',
      namespace: s.namespace,
      target: { apiGroup: 'apps', resource: 'statefulsets', name: s.name },
      writers: [s.user],
      mutators: [],
      fields: [
        ...STS_DEFAULTED.map((f) => `spec.${f}`),
        ...POD_DEFAULTED.map((f) => `${base}.${f}`),
        ...CONTAINER_DEFAULTED.map((f) => `${base}.containers[name=${s.container}].${f}`),
      ],
      count: s.writes,
      firstAt: fmtMicros(times[0]),
      lastAt: fmtMicros(times[times.length - 1]),
    },
  };
}

export interface AnnotationFightSpec {
  namespace: string;
  name: string;
  /** The annotation both writers set. */
  key: string;
  writers: [string, string];
  /** What each writer sets it to. */
  values: [string, string];
  rounds: number;
  periodSeconds: number;
}

/** Two controllers merge-patching one annotation of a Deployment to their own value, in turn. */
export function annotationFight(
  sink: FightSink,
  s: AnnotationFightSpec,
  t: Micros,
): { end: Micros; truth: FightTruth } {
  const r = sink.rng;
  const uid = r.uuid();
  const actors = s.writers.map((u) => sa(r, u, 'controller/v1'));
  const times: Micros[] = [];
  let at = t;
  for (let i = 0; i < 2 * s.rounds; i++) {
    const value = s.values[i % 2];
    const body = deployment(s.namespace, s.name, uid, 2, 30);
    (body.metadata as JsonObject).annotations = { 'deployment.kubernetes.io/revision': '12', [s.key]: value };
    sink.emit({
      at,
      latency: sink.ms(5, 20),
      actor: actors[i % 2],
      verb: 'patch',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: s.namespace,
      name: s.name,
      requestObject: { metadata: { annotations: { [s.key]: value } } },
      responseObject: body,
      code: 200,
    });
    times.push(at);
    at += (s.periodSeconds * SEC) / 2;
  }
  const metadata = sink.level === 'Metadata';
  return {
    end: at,
    truth: {
      kind: 'field-fight',
      namespace: s.namespace,
      target: { apiGroup: 'apps', resource: 'deployments', name: s.name },
      writers: [...s.writers].sort(),
      mutators: [],
      fields: metadata ? [] : [`metadata.annotations[${JSON.stringify(s.key)}]`],
      // The first write establishes, the second changes; every later one restores.
      count: metadata ? times.length - 1 : times.length - 2,
      firstAt: fmtMicros(metadata ? times[1] : times[2]),
      lastAt: fmtMicros(times[times.length - 1]),
    },
  };
}
