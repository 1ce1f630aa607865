// Background traffic of a busy cluster, unrelated to the brokers' recreations: node and leader
// leases, reads and watches, node heartbeats, events, token reviews, and other teams' workloads
// (noise-apps.ts: pods with their own webhooks, config maps and secrets with secret-like values).
//
// NoiseSource streams events in stageTimestamp order with bounded memory: a heap of the stages
// not yet due (long watches stay there until they end) and a heap of follow-up requests
// (bindings, status reports, deletions of the pods it created), both bounded by the rate.
import type { AuditEvent } from '../lib/model/audit';
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
import { Heap } from './heap';
import type { JsonObject } from './json';
import { NOISE_NAMESPACES, SECRET_CANARY, TeamApps } from './noise-apps';
import { Rng } from './rng';
import { fmtMicros, fmtSeconds, MIN, MS, parseTime, SEC, type Micros } from './time';
import { KUBELET_VERSION, makeNodes, type NodeInfo } from './world';

export { SECRET_CANARY } from './noise-apps';

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

type Job = (at: Micros) => void;

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
  private readonly apps: TeamApps;

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
    this.apps = new TeamApps(
      {
        rng,
        nodes: cfg.nodes,
        emit: (r) => this.emit(r),
        schedule: (at, job) => this.jobs.push(at, job),
        onSecret: cfg.onSecret,
      },
      {
        rs: this.actors.rs,
        scheduler: this.actors.scheduler,
        argocd: this.actors.argocd,
        vault: this.actors.vault,
      },
    );
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
      NOISE_MIX.map(([k, w]) => [k, k === 'pod' && this.apps.running >= 60 ? 0 : w] as const),
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
        this.apps.podLifecycle(at);
        return;
      case 'config':
        this.apps.configMapWrite(at);
        return;
      case 'secret':
        this.apps.secretWrite(at);
        return;
      default:
        this.apps.deploymentPatch(at);
    }
  }
}

/** The default policy for stand-alone noise: bodies where a careless rule logs them. */
export const NOISE_POLICY: AuditPolicy = {
  podLevel: 'RequestResponse',
  metadataPodNamespaces: new Set(),
  bodiesNamespaces: new Set(['payments', 'ci-runners']),
};

/**
 * `count` background audit events from `start`, in stageTimestamp order (`eventsPerSecond` on
 * average, 40 unless given), generated lazily: memory does not grow with `count`. For
 * benchmarks and load tests.
 */
export function* noiseEvents(
  seed: number,
  start: string,
  count: number,
  eventsPerSecond = 40,
): Generator<AuditEvent> {
  const rng = new Rng(seed).fork('noise');
  const source = new NoiseSource(rng, {
    start: parseTime(start),
    eventsPerSecond,
    nodes: makeNodes(rng),
    policy: NOISE_POLICY,
  });
  let n = 0;
  for (const e of source.events()) {
    if (n++ >= count) return;
    yield e;
  }
}
