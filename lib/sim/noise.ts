// Background traffic of a busy cluster, unrelated to the brokers' recreations: node and leader
// leases, reads and watches, node heartbeats, events, token reviews, other teams' pods coming and
// going (with their own webhooks), and config maps and secrets written where a careless audit
// rule logs their bodies. Those bodies carry secret-like values on purpose: every one contains
// SECRET_CANARY (or is the base64 of a string that does), so tests can prove none ever leaks
// into a report.
//
// NoiseSource streams events in stageTimestamp order with bounded memory: a heap of the stages
// not yet due (long watches stay there until they end) and a heap of follow-up requests
// (bindings, status reports, deletions of the pods it created), both bounded by the rate.
import type { Pod } from 'kubernetes-types/core/v1';
import type { AuditEvent } from '../model/audit';
import {
  auditRequest,
  levelFor,
  nodeActor,
  serviceAccountActor,
  systemActor,
  type Actor,
  type ApiRequest,
  type AuditPolicy,
} from './audit-event';
import type { JsonObject, JsonValue } from './json';
import {
  apiDefaults,
  builtinAdmission,
  podJson,
  podStatus,
  statusPatchBody,
  storePod,
  newContainerIDs,
} from './pods';
import { Rng } from './rng';
import { fmtMicros, fmtSeconds, MIN, MS, parseTime, SEC, type Micros } from './time';
import {
  istioInjector,
  passThrough,
  runWebhooks,
  workloadIdentityInjector,
  type WebhookDef,
} from './webhooks';
import { KUBELET_VERSION, makeNodes, type NodeInfo } from './world';

/** Every secret-like value the noise writes contains this (plain values) or encodes it (base64). */
export const SECRET_CANARY = 'XqZ7';

/** True for a string that is, or contains, a simulated secret (plain or base64-encoded). */
export function containsSimulatedSecret(s: string): boolean {
  if (s.includes(SECRET_CANARY)) return true;
  for (const m of s.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []) {
    if (Buffer.from(m, 'base64').toString('latin1').includes(SECRET_CANARY)) return true;
  }
  return false;
}

export interface NoiseConfig {
  start: Micros;
  /** Mean audit events (all stages) per second. */
  eventsPerSecond: number;
  nodes: readonly NodeInfo[];
  policy: AuditPolicy;
  /** A broker pod that exists at `t`, for monitoring reads that touch the Kafka namespace. */
  brokerPodAt?: (t: Micros) => { namespace: string; name: string } | undefined;
  /** Secret values written so far are reported here (the cluster simulation lists them). */
  onSecret?: (value: string) => void;
}

class Heap<T> {
  private items: Array<{ at: number; seq: number; v: T }> = [];
  private seq = 0;
  get size(): number {
    return this.items.length;
  }
  peekAt(): number {
    return this.items.length > 0 ? this.items[0].at : Infinity;
  }
  push(at: number, v: T): void {
    const it = { at, seq: this.seq++, v };
    const a = this.items;
    a.push(it);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[p], a[i])) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top.v;
  }
  private less(x: { at: number; seq: number }, y: { at: number; seq: number }): boolean {
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }
}

interface Workload {
  namespace: string;
  app: string;
  image: string;
  hash: string;
  rsUid: string;
  env: Array<{ name: string; value: string }>;
}

type Job = (at: Micros) => void;

const NOISE_NAMESPACES = ['shop', 'payments', 'ci-runners', 'monitoring', 'search-frontend'];

type NoiseKind =
  | 'node-lease'
  | 'leader-lease'
  | 'get'
  | 'list'
  | 'watch'
  | 'node-status'
  | 'event'
  | 'review'
  | 'pod'
  | 'config'
  | 'secret'
  | 'deployment';

/** The mix of background requests: kind, weight, and audit events it ends up writing. */
const NOISE_MIX: ReadonlyArray<readonly [NoiseKind, number, number]> = [
  ['node-lease', 30, 2],
  ['leader-lease', 10, 2],
  ['get', 12, 2],
  ['list', 6, 2],
  // Watches add a ResponseStarted stage.
  ['watch', 4, 3],
  ['node-status', 6, 2],
  ['event', 8, 2],
  ['review', 3, 2],
  // A pod's life: create, binding, three status reports, delete, the kubelet's final delete.
  ['pod', 4, 14],
  ['config', 3, 2],
  ['secret', 2, 2],
  ['deployment', 2, 2],
];

/** Mean audit events per random arrival, to turn an event rate into an arrival rate. */
const EVENTS_PER_ARRIVAL =
  NOISE_MIX.reduce((s, [, w, n]) => s + w * n, 0) / NOISE_MIX.reduce((s, [, w]) => s + w, 0);

export class NoiseSource {
  private readonly out = new Heap<AuditEvent>();
  private readonly jobs = new Heap<Job>();
  private clock: Micros;
  private readonly actors: Record<string, Actor>;
  private readonly workloads: Workload[];
  private readonly webhooks: Array<{ def: WebhookDef; namespaces: string[] }>;
  private livePods = 0;

  constructor(
    private readonly rng: Rng,
    private readonly cfg: NoiseConfig,
  ) {
    this.clock = cfg.start;
    // In-cluster controllers authenticate with bound tokens (pod and node in `extra`); the
    // controller manager's controllers use their own service accounts without them.
    const sa = (ns: string, name: string, ua: string, inPod = true): Actor =>
      serviceAccountActor(rng, ns, name, {
        userAgent: ua,
        sourceIP: `10.244.${rng.int(0, 15)}.${rng.int(2, 250)}`,
        ...(inPod
          ? { podName: `${name}-${rng.nameSuffix(9)}-${rng.nameSuffix()}`, node: rng.pick(cfg.nodes).name }
          : {}),
      });
    this.actors = {
      kcm: systemActor(
        'system:kube-controller-manager',
        `kube-controller-manager/${KUBELET_VERSION} (linux/amd64) kubernetes/3f2b1c7/leader-election`,
        '10.224.0.4',
      ),
      scheduler: systemActor(
        'system:kube-scheduler',
        `kube-scheduler/${KUBELET_VERSION} (linux/amd64) kubernetes/3f2b1c7/scheduler`,
        '10.224.0.4',
      ),
      rs: sa(
        'kube-system',
        'replicaset-controller',
        `kube-controller-manager/${KUBELET_VERSION} (linux/amd64) kubernetes/3f2b1c7/system:serviceaccount:kube-system:replicaset-controller`,
        false,
      ),
      ksm: sa(
        'monitoring',
        'kube-state-metrics',
        'kube-state-metrics/v2.16.0 (linux/amd64) kubernetes/$Format',
      ),
      prometheus: sa('monitoring', 'prometheus-k8s', 'Prometheus/3.4.1'),
      coredns: sa('kube-system', 'coredns', 'coredns/v1.12.1 (linux/amd64) kubernetes/$Format'),
      argocd: sa(
        'argocd',
        'argocd-application-controller',
        'argocd-application-controller/v3.0.6 (linux/amd64) kubernetes/$Format',
      ),
      ccm: sa(
        'kube-system',
        'cloud-node-manager',
        'cloud-node-manager/v1.33.1 (linux/amd64) kubernetes/$Format',
      ),
      ci: sa(
        'ci-runners',
        'runner-controller',
        'actions-runner-controller/v0.12.1 (linux/amd64) kubernetes/$Format',
      ),
      vault: sa('payments', 'external-secrets', 'external-secrets/v0.18.2 (linux/amd64) kubernetes/$Format'),
      apiserver: systemActor(
        'system:apiserver',
        `kube-apiserver/${KUBELET_VERSION} (linux/amd64) kubernetes/3f2b1c7`,
        '::1',
      ),
    };
    this.workloads = NOISE_NAMESPACES.flatMap((ns) =>
      ['api', 'worker'].map((role): Workload => ({
        namespace: ns,
        app: `${ns}-${role}`,
        image: `registry.example.com/${ns}/${role}:${rng.int(1, 9)}.${rng.int(0, 30)}.${rng.int(0, 9)}`,
        hash: rng.nameSuffix(10),
        rsUid: rng.uuid(),
        env:
          ns === 'payments' || ns === 'ci-runners'
            ? [{ name: 'DB_PASSWORD', value: this.secretValue('password') }]
            : [{ name: 'LOG_LEVEL', value: 'info' }],
      })),
    );
    // Ordered by configuration name, as the API server calls them.
    this.webhooks = [
      { def: workloadIdentityInjector(), namespaces: ['payments'] },
      {
        def: passThrough('gatekeeper-mutating-webhook-configuration', 'mutation.gatekeeper.sh'),
        namespaces: NOISE_NAMESPACES,
      },
      { def: istioInjector(), namespaces: ['shop', 'search-frontend'] },
    ];
  }

  /** A secret-looking value carrying the canary, reported to `onSecret`. */
  private secretValue(kind: 'password' | 'token' | 'jwt' | 'dsn'): string {
    const r = this.rng;
    const password = `${r.base62(5)}${SECRET_CANARY}${r.base62(9)}!`;
    const value =
      kind === 'password'
        ? password
        : kind === 'token'
          ? `tok_${SECRET_CANARY}${r.base62(28)}`
          : kind === 'jwt'
            ? `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: r.uuid(), iat: 1761000000 })).toString('base64url')}.${SECRET_CANARY}${r.base62(39)}`
            : `postgres://app_${r.hex(4)}:${password}@db-${r.hex(4)}.payments.svc:5432/ledger?sslmode=require`;
    this.cfg.onSecret?.(value);
    return value;
  }

  /** Stages and follow-up requests waiting to be emitted: the only state that grows with time. */
  backlog(): number {
    return this.out.size + this.jobs.size;
  }

  /** Events in stageTimestamp order, forever. */
  *events(): Generator<AuditEvent> {
    const meanGap = SEC / (this.cfg.eventsPerSecond / EVENTS_PER_ARRIVAL);
    let nextArrival = this.clock + this.rng.exponential(meanGap);
    for (;;) {
      const jobAt = this.jobs.peekAt();
      const t = Math.min(nextArrival, jobAt);
      // Every stage due before this request's start can no longer be overtaken.
      while (this.out.size > 0 && this.out.peekAt() <= t) {
        const e = this.out.pop();
        if (e) yield e;
      }
      this.clock = t;
      if (jobAt <= nextArrival) {
        const job = this.jobs.pop();
        if (job) job(t);
      } else {
        this.randomRequest(t);
        nextArrival = t + Math.max(1, this.rng.exponential(meanGap));
      }
    }
  }

  private emit(r: Omit<ApiRequest, 'level'> & { level?: ApiRequest['level'] }): {
    receivedAt: Micros;
    doneAt: Micros;
  } {
    const rec = auditRequest(this.rng, { ...r, level: r.level ?? levelFor(this.cfg.policy, r) });
    for (const e of rec.events) this.out.push(parseTime(e.stageTimestamp), e);
    return rec;
  }

  private ms(min: number, max: number): Micros {
    return Math.round(this.rng.float(min, max) * MS);
  }

  private randomRequest(at: Micros): void {
    const r = this.rng;
    const kind = r.weighted<NoiseKind>(
      NOISE_MIX.map(([k, w]) => [k, k === 'pod' && this.livePods >= 60 ? 0 : w] as const),
    );
    const node = r.pick(this.cfg.nodes);
    switch (kind) {
      case 'node-lease': {
        const renew = fmtMicros(at);
        this.emit({
          at,
          latency: this.ms(2, 9),
          actor: nodeActor(node.name, node.ip, KUBELET_VERSION),
          verb: 'update',
          resource: 'leases',
          apiGroup: 'coordination.k8s.io',
          apiVersion: 'v1',
          namespace: 'kube-node-lease',
          name: node.name,
          requestObject: {
            kind: 'Lease',
            apiVersion: 'coordination.k8s.io/v1',
            metadata: {
              name: node.name,
              namespace: 'kube-node-lease',
              uid: this.rng.uuid(),
              resourceVersion: String(r.int(40_000_000, 60_000_000)),
              creationTimestamp: fmtSeconds(at - 30 * 24 * 3600 * SEC),
            },
            spec: { holderIdentity: node.name, leaseDurationSeconds: 40, renewTime: renew },
          },
          code: 200,
        });
        return;
      }
      case 'leader-lease': {
        const [ns, name, actor] = r.pick<[string, string, Actor]>([
          ['kube-system', 'kube-controller-manager', this.actors.kcm],
          ['kube-system', 'kube-scheduler', this.actors.scheduler],
          ['kube-system', 'cloud-node-manager', this.actors.ccm],
          ['argocd', 'argocd-application-controller', this.actors.argocd],
        ]);
        this.emit({
          at,
          latency: this.ms(2, 8),
          actor,
          verb: 'update',
          resource: 'leases',
          apiGroup: 'coordination.k8s.io',
          apiVersion: 'v1',
          namespace: ns,
          name,
          code: 200,
        });
        return;
      }
      case 'get': {
        const broker = r.chance(0.3) ? this.cfg.brokerPodAt?.(at) : undefined;
        if (broker) {
          this.emit({
            at,
            latency: this.ms(2, 12),
            actor: this.actors.ksm,
            verb: 'get',
            resource: 'pods',
            apiVersion: 'v1',
            namespace: broker.namespace,
            name: broker.name,
            code: 200,
          });
          return;
        }
        const ns = r.pick(NOISE_NAMESPACES);
        const res = r.pick(['configmaps', 'services', 'endpoints', 'serviceaccounts']);
        this.emit({
          at,
          latency: this.ms(2, 12),
          actor: r.pick([this.actors.kcm, this.actors.argocd, this.actors.ksm]),
          verb: 'get',
          resource: res,
          apiVersion: 'v1',
          namespace: ns,
          name: `${ns}-${r.pick(['api', 'worker', 'config'])}`,
          code: r.chance(0.05) ? 404 : 200,
        });
        return;
      }
      case 'list': {
        const res = r.pick(['pods', 'nodes', 'services', 'persistentvolumeclaims']);
        this.emit({
          at,
          latency: this.ms(10, 120),
          actor: r.pick([this.actors.prometheus, this.actors.ksm]),
          verb: 'list',
          resource: res,
          apiVersion: 'v1',
          query: 'limit=500&resourceVersion=0',
          code: 200,
        });
        return;
      }
      case 'watch': {
        const res = r.pick(['services', 'endpointslices', 'pods', 'configmaps']);
        const group = res === 'endpointslices' ? 'discovery.k8s.io' : undefined;
        this.emit({
          at,
          latency: Math.round(r.float(5, 9) * MIN),
          actor: r.pick([this.actors.coredns, this.actors.prometheus, this.actors.argocd]),
          verb: 'watch',
          resource: res,
          ...(group ? { apiGroup: group } : {}),
          apiVersion: 'v1',
          query: `allowWatchBookmarks=true&resourceVersion=${r.int(40_000_000, 60_000_000)}&timeout=${r.int(5, 9)}m0s&timeoutSeconds=${r.int(300, 540)}&watch=true`,
          code: 200,
        });
        return;
      }
      case 'node-status': {
        const t = fmtSeconds(at);
        const cond = (type: string, status: string, reason: string): JsonObject => ({
          type,
          status,
          lastHeartbeatTime: t,
          reason,
        });
        this.emit({
          at,
          latency: this.ms(5, 20),
          actor: nodeActor(node.name, node.ip, KUBELET_VERSION),
          verb: 'patch',
          resource: 'nodes',
          apiVersion: 'v1',
          name: node.name,
          subresource: 'status',
          requestObject: {
            status: {
              '$setElementOrder/conditions': [
                { type: 'MemoryPressure' },
                { type: 'DiskPressure' },
                { type: 'PIDPressure' },
                { type: 'Ready' },
              ],
              conditions: [
                cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
                cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
                cond('PIDPressure', 'False', 'KubeletHasSufficientPID'),
                cond('Ready', 'True', 'KubeletReady'),
              ],
            },
          },
          code: 200,
        });
        return;
      }
      case 'event':
        this.emit({
          at,
          latency: this.ms(2, 8),
          actor: r.chance(0.5) ? nodeActor(node.name, node.ip, KUBELET_VERSION) : this.actors.kcm,
          verb: 'create',
          resource: 'events',
          apiVersion: 'v1',
          namespace: r.pick(NOISE_NAMESPACES),
          code: 201,
        });
        return;
      case 'review':
        this.emit({
          at,
          latency: this.ms(1, 5),
          actor: this.actors.prometheus,
          verb: 'create',
          resource: r.pick(['tokenreviews', 'subjectaccessreviews']),
          apiGroup: r.chance(0.5) ? 'authentication.k8s.io' : 'authorization.k8s.io',
          apiVersion: 'v1',
          code: 201,
        });
        return;
      case 'pod':
        this.podLifecycle(at);
        return;
      case 'config':
        this.configMapWrite(at);
        return;
      case 'secret':
        this.secretWrite(at);
        return;
      default: {
        const w = r.pick(this.workloads);
        this.emit({
          at,
          latency: this.ms(8, 30),
          actor: this.actors.argocd,
          verb: 'patch',
          resource: 'deployments',
          apiGroup: 'apps',
          apiVersion: 'v1',
          namespace: w.namespace,
          name: w.app,
          requestObject: {
            metadata: {
              annotations: {
                'argocd.argoproj.io/tracking-id': `${w.namespace}:apps/Deployment:${w.namespace}/${w.app}`,
              },
            },
          },
          code: 200,
        });
      }
    }
  }

  /** A ReplicaSet's pod: create (through its namespace's webhooks), binding, status, later its deletion. */
  private podLifecycle(at: Micros): void {
    const r = this.rng;
    const w = r.pick(this.workloads);
    const node = r.pick(
      this.cfg.nodes.filter((n) => n.pool === 'apps').length > 0
        ? this.cfg.nodes.filter((n) => n.pool === 'apps')
        : this.cfg.nodes,
    );
    const desired: Pod = {
      metadata: {
        generateName: `${w.app}-${w.hash}-`,
        namespace: w.namespace,
        labels: { app: w.app, 'pod-template-hash': w.hash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: `${w.app}-${w.hash}`,
            uid: w.rsUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        containers: [
          {
            name: w.app,
            image: w.image,
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            env: w.env,
            resources: { limits: { memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
          },
        ],
      },
      status: {},
    };
    const requested = apiDefaults(desired);
    const hooks = this.webhooks
      .map((h, index) => ({ index, ...h }))
      .filter((h) => h.namespaces.includes(w.namespace));
    const admission = runWebhooks(builtinAdmission(requested, r.nameSuffix()), hooks, r);
    const name = `${desired.metadata?.generateName ?? ''}${r.nameSuffix()}`;
    const uid = r.uuid();
    const stored = storePod(admission.pod, {
      name,
      uid,
      resourceVersion: String(r.int(40_000_000, 60_000_000)),
      createdAt: at,
      manager: 'kube-controller-manager',
    });
    const created = this.emit({
      at,
      latency: this.ms(8, 40),
      actor: this.actors.rs,
      verb: 'create',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: w.namespace,
      requestObject: podJson(requested, { nullCreationTimestamp: true }),
      responseObject: podJson(stored),
      code: 201,
      admission: admission.annotations,
    });
    this.livePods++;
    const bindAt = created.doneAt + this.ms(10, 200);
    this.jobs.push(bindAt, (t) => {
      this.emit({
        at: t,
        latency: this.ms(5, 20),
        actor: this.actors.scheduler,
        verb: 'create',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: w.namespace,
        name,
        uid,
        subresource: 'binding',
        requestObject: {
          kind: 'Binding',
          apiVersion: 'v1',
          metadata: { name, namespace: w.namespace, uid, creationTimestamp: null },
          target: { kind: 'Node', name: node.name },
        },
        responseObject: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
        code: 201,
      });
    });
    const ids = newContainerIDs(stored, r);
    const podIP = `10.244.${r.int(16, 31)}.${r.int(2, 250)}`;
    const started = bindAt + this.ms(400, 1500);
    const kubelet = nodeActor(node.name, node.ip, KUBELET_VERSION);
    const report =
      (view: 'initializing' | 'running' | 'terminating') =>
      (t: Micros): void => {
        const status = podStatus(stored, view, {
          hostIP: node.ip,
          podIP,
          startedAt: started,
          now: t,
          containerIDs: ids,
        });
        this.emit({
          at: t,
          latency: this.ms(4, 20),
          actor: kubelet,
          verb: 'patch',
          resource: 'pods',
          apiVersion: 'v1',
          namespace: w.namespace,
          name,
          subresource: 'status',
          requestObject: statusPatchBody(uid, status),
          code: 200,
        });
      };
    this.jobs.push(started, report('initializing'));
    this.jobs.push(started + this.ms(2000, 6000), report('running'));
    const deleteAt = at + Math.round(r.float(2, 25) * MIN);
    this.jobs.push(deleteAt, (t) => {
      const deleting = (grace: number): JsonValue => {
        const p = podJson(stored);
        return {
          ...p,
          metadata: {
            ...(p.metadata as JsonObject),
            deletionTimestamp: fmtSeconds(t + 30 * SEC),
            deletionGracePeriodSeconds: grace,
          },
        };
      };
      const del = this.emit({
        at: t,
        latency: this.ms(8, 30),
        actor: this.actors.rs,
        verb: 'delete',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: w.namespace,
        name,
        requestObject: {
          kind: 'DeleteOptions',
          apiVersion: 'meta.k8s.io/v1',
          propagationPolicy: 'Background',
        },
        responseObject: deleting(30),
        code: 200,
      });
      const finalAt = del.doneAt + this.ms(1500, 9000);
      this.jobs.push(finalAt - this.ms(100, 400), report('terminating'));
      this.jobs.push(finalAt, (tf) => {
        this.emit({
          at: tf,
          latency: this.ms(5, 20),
          actor: kubelet,
          verb: 'delete',
          resource: 'pods',
          apiVersion: 'v1',
          namespace: w.namespace,
          name,
          requestObject: {
            kind: 'DeleteOptions',
            apiVersion: 'meta.k8s.io/v1',
            gracePeriodSeconds: 0,
            preconditions: { uid },
          },
          responseObject: deleting(0),
          code: 200,
        });
        this.livePods--;
      });
    });
  }

  private configMapWrite(at: Micros): void {
    const r = this.rng;
    const ns = r.pick(['payments', 'ci-runners']);
    const name = `${ns}-settings`;
    const data = {
      'application.properties': `spring.datasource.url=jdbc:postgresql://db.${ns}.svc:5432/app\nspring.datasource.username=app\nspring.datasource.password=${this.secretValue('password')}\nfeature.flags=checkout-v2,${r.pick(['fast-refunds', 'new-ledger'])}`,
      DATABASE_URL: this.secretValue('dsn'),
      LOG_LEVEL: r.pick(['info', 'debug']),
    };
    const obj: JsonObject = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace: ns,
        uid: r.uuid(),
        resourceVersion: String(r.int(40_000_000, 60_000_000)),
        creationTimestamp: fmtSeconds(at - 90 * 24 * 3600 * SEC),
      },
      data,
    };
    this.emit({
      at,
      latency: this.ms(5, 20),
      actor: this.actors.argocd,
      verb: 'update',
      resource: 'configmaps',
      apiVersion: 'v1',
      namespace: ns,
      name,
      requestObject: obj,
      responseObject: obj,
      code: 200,
    });
  }

  private secretWrite(at: Micros): void {
    const r = this.rng;
    const ns = r.pick(['payments', 'ci-runners']);
    const name = r.pick(['db-credentials', 'registry-token', 'webhook-signing-key']);
    const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
    const plain = {
      username: 'app',
      password: this.secretValue('password'),
      token: this.secretValue(r.chance(0.5) ? 'token' : 'jwt'),
    };
    const data = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, b64(v)]));
    this.cfg.onSecret?.(data.password);
    this.cfg.onSecret?.(data.token);
    const obj = {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name, namespace: ns, creationTimestamp: null },
      data,
      type: 'Opaque',
    };
    this.emit({
      at,
      latency: this.ms(5, 20),
      actor: this.actors.vault,
      verb: r.chance(0.3) ? 'create' : 'update',
      resource: 'secrets',
      apiVersion: 'v1',
      namespace: ns,
      name,
      requestObject: obj,
      responseObject: obj,
      code: 200,
    });
  }
}

/** The default policy for stand-alone noise: bodies where a careless rule logs them. */
export const NOISE_POLICY: AuditPolicy = {
  podLevel: 'RequestResponse',
  metadataPodNamespaces: new Set(),
  bodiesNamespaces: new Set(['payments', 'ci-runners']),
};

/**
 * `count` background audit events from `start`, in stageTimestamp order (about 40 a second),
 * generated lazily: memory does not grow with `count`. For benchmarks and load tests.
 */
export function* noiseEvents(seed: number, start: string, count: number): Generator<AuditEvent> {
  const rng = new Rng(seed).fork('noise');
  const source = new NoiseSource(rng, {
    start: parseTime(start),
    eventsPerSecond: 40,
    nodes: makeNodes(rng),
    policy: NOISE_POLICY,
  });
  let n = 0;
  for (const e of source.events()) {
    if (n++ >= count) return;
    yield e;
  }
}
