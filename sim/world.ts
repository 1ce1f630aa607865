// The simulated cluster's state: nodes, actors, installed webhooks, KafkaClusters and their live
// broker pods, plus the sinks every scenario writes to (audit events, operator lines, truth).
import type { SimDrift } from './drift-truth';
import type { Pod } from 'kubernetes-types/core/v1';
import type { AuditEvent } from '../lib/model/audit';
import {
  auditRequest,
  humanActor,
  levelFor,
  nodeActor,
  parseServiceAccount,
  serviceAccountActor,
  systemActor,
  type Actor,
  type ApiRequest,
  type AuditPolicy,
  type RequestRecord,
} from './audit-event';
import type { JsonObject } from './json';
import { OperatorLog, type OperatorLogStyle } from './operator-log';
import type { KafkaClusterSpec } from './pods';
import { Rng } from './rng';
import type { SimRecreation } from './truth';
import type { Micros } from './time';
import type { FieldWrite, WebhookDef } from './webhooks';

export interface WorldOptions {
  seed: number;
  start: Micros;
  /** Namespace of the main KafkaClusters. */
  namespace: string;
  /** Namespace whose pod writes the audit policy logs at Metadata only. */
  metadataNamespace: string;
  operatorUser: string;
  podLevel: 'RequestResponse' | 'Metadata';
  logStyle: OperatorLogStyle;
}

export interface NodeInfo {
  name: string;
  ip: string;
  zone: string;
  pool: 'kafka' | 'system' | 'apps';
}

export const KUBELET_VERSION = 'v1.33.3';

/** A broker pod as the simulator tracks it through its life. */
export interface LivePod {
  cluster: string;
  namespace: string;
  brokerId: string;
  name: string;
  uid: string;
  node: NodeInfo;
  podIP: string;
  createdAt: Micros;
  /** auditID of the create, where it is in the data (pods created before the window have none). */
  createAuditID: string | null;
  /** The pod's last-applied annotation, decoded (objectmatcher's "original"). */
  lastApplied: JsonObject;
  /** The stored object as it stands now. */
  live: Pod;
  /** Every write to a field after koperator's create (webhooks, patches), oldest first. */
  writes: FieldWrite[];
  mutatedBy: string[];
  containerIDs: Record<string, string>;
  terminated: { containerName: string; exitCode: number; reason: string } | null;
  /** auditIDs of writes that explain a later restart (label patches, resizes, status reports). */
  causeAuditIDs: string[];
}

export interface ClusterState {
  spec: KafkaClusterSpec;
  brokers: Map<string, LivePod>;
  state: 'ClusterRunning' | 'ClusterRollingUpgrading';
  /** Writes to the KafkaCluster's spec (not its status), for the intent author. */
  specWrites: Array<{ user: string; at: Micros; auditID: string }>;
  configOutOfSync: Set<string>;
}

export interface InstalledWebhook {
  def: WebhookDef;
  namespaces: ReadonlySet<string>;
  from: Micros;
  until: Micros;
}

export class World {
  readonly rng: Rng;
  readonly policy: AuditPolicy;
  readonly audit: AuditEvent[] = [];
  readonly log: OperatorLog;
  readonly clusters = new Map<string, ClusterState>();
  readonly webhooks: InstalledWebhook[] = [];
  readonly nodes: NodeInfo[];
  readonly recreations: SimRecreation[] = [];
  /** Out-of-band writes to running broker pods (drift.md), as the scenarios made them. */
  readonly drifts: SimDrift[] = [];
  /** Broker pods' lifetimes, so background reads can name pods that exist at the time. */
  readonly podLifetimes: Array<{ namespace: string; name: string; from: Micros; to: Micros }> = [];
  readonly operator: Actor;
  readonly scheduler: Actor;
  /** Nodes cordoned by a drain: the scheduler places nothing new there. */
  readonly cordoned = new Set<string>();
  /** Time from which the operator runs with --verbose (Infinity: never). */
  verboseFrom: Micros = Infinity;
  private resourceVersion: number;
  private readonly kubelets = new Map<string, Actor>();

  constructor(readonly opts: WorldOptions) {
    const root = new Rng(opts.seed);
    this.rng = root.fork('world');
    this.resourceVersion = this.rng.int(38_000_000, 52_000_000);
    this.policy = {
      podLevel: opts.podLevel,
      metadataPodNamespaces: new Set([opts.metadataNamespace]),
      bodiesNamespaces: new Set(['payments', 'ci-runners']),
    };
    this.log = new OperatorLog(opts.logStyle);
    this.nodes = makeNodes(this.rng);
    const sa = parseServiceAccount(opts.operatorUser);
    const operatorNode = this.nodes.find((n) => n.pool === 'system') ?? this.nodes[0];
    this.operator = sa
      ? serviceAccountActor(this.rng, sa.namespace, sa.name, {
          userAgent: 'manager/v0.0.0 (linux/amd64) kubernetes/$Format',
          sourceIP: `10.244.${this.rng.int(0, 7)}.${this.rng.int(2, 250)}`,
          node: operatorNode.name,
          podName: `${sa.name}-${this.rng.nameSuffix(10)}-${this.rng.nameSuffix()}`,
        })
      : {
          ...humanActor(opts.operatorUser, '10.244.0.10'),
          userAgent: 'manager/v0.0.0 (linux/amd64) kubernetes/$Format',
        };
    this.scheduler = systemActor(
      'system:kube-scheduler',
      `kube-scheduler/${KUBELET_VERSION} (linux/amd64) kubernetes/3f2b1c7/scheduler`,
      '10.224.0.4',
    );
  }

  /** Logs one request through the audit policy. */
  request(r: Omit<ApiRequest, 'level'> & { level?: ApiRequest['level'] }): RequestRecord {
    const level = r.level ?? levelFor(this.policy, r);
    const rec = auditRequest(this.rng, { ...r, level });
    this.audit.push(...rec.events);
    return rec;
  }

  nextResourceVersion(): string {
    this.resourceVersion += this.rng.int(1, 40);
    return String(this.resourceVersion);
  }

  podIP(): string {
    return `10.244.${this.rng.int(0, 15)}.${this.rng.int(2, 253)}`;
  }

  kubelet(node: NodeInfo): Actor {
    let a = this.kubelets.get(node.name);
    if (!a) {
      a = nodeActor(node.name, node.ip, KUBELET_VERSION);
      this.kubelets.set(node.name, a);
    }
    return a;
  }

  isVerbose(at: Micros): boolean {
    return at >= this.verboseFrom;
  }

  /** True when the policy leaves pod bodies out of the audit log for this namespace. */
  podsAtMetadata(namespace: string): boolean {
    return this.policy.podLevel === 'Metadata' || this.policy.metadataPodNamespaces.has(namespace);
  }

  installWebhook(
    def: WebhookDef,
    namespaces: readonly string[],
    from: Micros,
    until = Infinity,
  ): InstalledWebhook {
    const w: InstalledWebhook = { def, namespaces: new Set(namespaces), from, until };
    this.webhooks.push(w);
    return w;
  }

  /**
   * The webhooks the API server calls for a pod create at `at`, each with its index in the
   * full list of installed webhooks (ordered by configuration name, as the API server does).
   */
  calledWebhooks(namespace: string, at: Micros): Array<{ index: number; def: WebhookDef }> {
    const installed = this.webhooks
      .filter((w) => w.from <= at && at < w.until)
      .sort((a, b) =>
        a.def.configuration < b.def.configuration ? -1 : a.def.configuration > b.def.configuration ? 1 : 0,
      );
    return installed
      .map((w, index) => ({ index, w }))
      .filter(({ w }) => w.namespaces.has(namespace))
      .map(({ index, w }) => ({ index, def: w.def }));
  }

  cluster(name: string): ClusterState {
    const c = this.clusters.get(name);
    if (!c) throw new Error(`no KafkaCluster ${name}`);
    return c;
  }

  broker(cluster: string, brokerId: string | number): LivePod {
    const p = this.cluster(cluster).brokers.get(String(brokerId));
    if (!p) throw new Error(`no pod for broker ${cluster}/${brokerId}`);
    return p;
  }

  kafkaNodes(): NodeInfo[] {
    return this.nodes.filter((n) => n.pool === 'kafka');
  }
}

export function makeNodes(rng: Rng): NodeInfo[] {
  const zones = ['westeurope-1', 'westeurope-2', 'westeurope-3'];
  const nodes: NodeInfo[] = [];
  const pool = (name: 'kafka' | 'system' | 'apps', count: number, id: string): void => {
    for (let i = 0; i < count; i++) {
      nodes.push({
        name: `aks-${name}pool-${id}-vmss${i.toString(36).padStart(6, '0')}`,
        ip: `10.224.${name === 'kafka' ? 1 : name === 'system' ? 0 : 2}.${rng.int(4, 250)}`,
        zone: zones[i % zones.length],
        pool: name,
      });
    }
  };
  pool('system', 3, String(rng.int(10_000_000, 99_999_999)));
  pool('kafka', 9, String(rng.int(10_000_000, 99_999_999)));
  pool('apps', 6, String(rng.int(10_000_000, 99_999_999)));
  return nodes;
}
