// NiFiKop as the simulator models it, at a given version: for each node of a NifiCluster it lists
// the node's pod (labels nifi_cr, nodeId), creates it when there is none (its Secret
// `<cluster>-config-<id>` first), and otherwise decides about the live pod with the simulator's
// own model of this version's reconcileNifiPod (./reconcile.ts, never lib/nifikop's code); a pod
// found out of sync is deleted (`Deleting pod <name>`, after the cluster's status is set to
// ClusterRollingUpgrading) and created again at a later reconcile. Every
// deletion is also the ground truth for that recreation, carrying `operator: "nifikop"`,
// `nifiCluster` and `nodeId` (findings-contract.md, "Operators other than koperator").
//
// It reuses the simulated API server (sim/kube.ts), so webhooks installed in the World (the
// injectors of ./webhooks.ts among them) mutate its pods as they mutate koperator's, and its
// requests land in the same audit log; its log lines and truth are its own (`log`, `recreations`).
import type { Pod } from 'kubernetes-types/core/v1';
import type { Classification, FieldChange } from '../../lib/model/findings';
import type { Actor, RequestRecord } from '../audit-event';
import { createPod, gracefulDelete, kubeletFinalDelete, startPod } from '../kube';
import { attribute } from '../operator';
import { stampLastApplied } from '../pods';
import { MS, SEC, type Micros } from '../time';
import type { LivePod, NodeInfo, World } from '../world';
import { NIFI_CLUSTER_API_VERSION, nifiNodePod, nodeConfigSecretName, type NifiClusterSpec } from './cluster';
import { NifikopLog } from './log';
import {
  rangeOf,
  reconcileModel,
  restartByRange,
  specChange,
  type ModelDecision,
  type ModelPods,
} from './reconcile';

export type NifiClusterState = 'ClusterRunning' | 'ClusterReconciling' | 'ClusterRollingUpgrading';

export interface NifiRecreation {
  operator: 'nifikop';
  namespace: string;
  nifiCluster: string;
  nodeId: string;
  deleted: { pod: LivePod; at: Micros; by: string; auditID: string };
  created: { pod: LivePod; at: Micros; auditID: string } | null;
  classification: Classification;
  fields: FieldChange[];
  /** For each NiFiKop version range that decides differently, whether it would have deleted the pod. */
  wouldRestart: Record<string, boolean>;
  evidence: string[];
  /** A debug `resource diffs` line was logged for this deletion. */
  diffLogged: boolean;
}

export interface NifikopOptions {
  /** NiFiKop's version (`1.13.0`, `v1.16.0-release`). */
  version: string;
  /** Debug logging (`resource diffs` and the in-sync lines). */
  debug?: boolean;
  /** Its service account (default: the World's operator). */
  actor?: Actor;
}

export interface NodeReconcile {
  decision: ModelDecision;
  recreation: NifiRecreation | null;
  /** When the node's pod (the same or its successor) is ready again. */
  readyAt: Micros;
}

export class NifikopOperator {
  readonly log = new NifikopLog();
  readonly recreations: NifiRecreation[] = [];
  readonly pods = new Map<string, LivePod>();
  readonly configurationState = new Map<string, 'ConfigInSync' | 'ConfigOutOfSync'>();
  state: NifiClusterState = 'ClusterRunning';
  private readonly secrets = new Set<string>();

  constructor(
    readonly world: World,
    readonly spec: NifiClusterSpec,
    readonly opts: NifikopOptions,
  ) {}

  private get actor(): Actor {
    return this.opts.actor ?? this.world.operator;
  }

  private ms(min: number, max: number): Micros {
    return Math.round(this.world.rng.float(min, max) * MS);
  }

  private secs(min: number, max: number): Micros {
    return Math.round(this.world.rng.float(min, max) * SEC);
  }

  /** A write to the NifiCluster's status subresource (custom resources: Metadata level). */
  private statusUpdate(at: Micros): RequestRecord {
    return this.world.request({
      at,
      latency: this.ms(6, 20),
      actor: this.actor,
      verb: 'patch',
      resource: 'nificlusters',
      apiGroup: 'nifi.konpyutaika.com',
      apiVersion: NIFI_CLUSTER_API_VERSION.split('/')[1],
      namespace: this.spec.namespace,
      name: this.spec.name,
      subresource: 'status',
      code: 200,
      level: 'Metadata',
    });
  }

  private setState(state: NifiClusterState, at: Micros): Micros {
    if (this.state === state) return at;
    this.state = state;
    return this.statusUpdate(at).doneAt;
  }

  /** The node's configuration Secret (Secrets are logged at Metadata level). */
  private secretWrite(nodeId: string, at: Micros): RequestRecord {
    const name = nodeConfigSecretName(this.spec.name, nodeId);
    const create = !this.secrets.has(name);
    this.secrets.add(name);
    return this.world.request({
      at,
      latency: this.ms(5, 15),
      actor: this.actor,
      verb: create ? 'create' : 'patch',
      resource: 'secrets',
      apiVersion: 'v1',
      namespace: this.spec.namespace,
      name,
      code: create ? 201 : 200,
      level: 'Metadata',
    });
  }

  private pickNode(previous?: NodeInfo): NodeInfo {
    const used = new Set([...this.pods.values()].map((p) => p.node.name));
    const apps = this.world.nodes.filter((n) => n.pool === 'apps' && n.name !== previous?.name);
    const free = apps.filter((n) => !used.has(n.name));
    return this.world.rng.pick(free.length > 0 ? free : apps);
  }

  desired(nodeId: string): Pod {
    return nifiNodePod(this.spec, nodeId);
  }

  /** No pod matched the node's labels: NiFiKop creates it, sets ConfigInSync, and the pod starts. */
  createNode(
    nodeId: string,
    at: Micros,
    previous?: NodeInfo,
  ): { pod: LivePod; record: RequestRecord; readyAt: Micros } {
    let t = this.secretWrite(nodeId, at).doneAt + this.ms(2, 9);
    const { pod, record } = createPod(this.world, stampLastApplied(this.desired(nodeId)), this.actor, t, {
      cluster: this.spec.name,
      brokerId: nodeId,
      node: this.pickNode(previous),
    });
    this.pods.set(nodeId, pod);
    t = record.doneAt + this.ms(3, 10);
    this.configurationState.set(nodeId, 'ConfigInSync');
    t = this.statusUpdate(t).doneAt + this.ms(1, 5);
    this.log.line(t, 'info', 'Pod created', [
      ['clusterName', this.spec.name],
      ['nodeId', nodeId],
      ['podName', pod.name],
    ]);
    const { readyAt } = startPod(this.world, pod, record.doneAt);
    return { pod, record, readyAt };
  }

  /** The three pods objectmatcher is given for the node now. */
  private podsOf(nodeId: string): ModelPods {
    const pod = this.pods.get(nodeId);
    if (!pod) throw new Error(`simulator: no pod for NiFi node ${this.spec.name}/${nodeId}`);
    return { original: pod.lastApplied, desired: this.desired(nodeId), live: pod.live };
  }

  private configInSync(nodeId: string): boolean {
    return this.configurationState.get(nodeId) === 'ConfigInSync';
  }

  /**
   * The node's configuration changed in the NifiCluster: NiFiKop rewrites its Secret and marks the
   * node ConfigOutOfSync; the next reconcile deletes the pod even on an empty patch.
   */
  changeConfig(nodeId: string, at: Micros): Micros {
    const t = this.secretWrite(nodeId, at).doneAt + this.ms(2, 9);
    this.configurationState.set(nodeId, 'ConfigOutOfSync');
    return this.statusUpdate(t).doneAt;
  }

  /** What this NiFiKop decides about the node's live pod now. */
  decide(nodeId: string): ModelDecision {
    return reconcileModel(rangeOf(this.opts.version), this.podsOf(nodeId), this.configInSync(nodeId));
  }

  /** One reconcile of one node at `at`: in sync (debug line), or delete and create again. */
  reconcileNode(nodeId: string, at: Micros): NodeReconcile {
    const pods = this.podsOf(nodeId);
    const pod = this.pods.get(nodeId)!;
    const decision = this.decide(nodeId);
    if (this.opts.debug) {
      this.log.line(at, 'debug', 'searching for pod with label because name is empty', [
        ['clusterName', this.spec.name],
        ['nodeId', nodeId],
        ['kind', '*v1.Pod'],
      ]);
    }
    if (!decision.deletes) {
      if (this.opts.debug) {
        this.log.line(
          at + this.ms(2, 20),
          'debug',
          decision.orderOnly
            ? 'pod resource is in sync (order-only diff ignored)'
            : 'pod resource is in sync',
          [
            ['clusterName', this.spec.name],
            // The plain versions log the desired pod's name (empty: generateName); PR #607's code the live one.
            ['podName', decision.range === '>=1.15' ? pod.name : ''],
          ],
        );
      }
      return { decision, recreation: null, readyAt: at };
    }
    let t = at + this.ms(2, 30);
    let diffLogged = false;
    if (Object.keys(decision.patch).length > 0 && this.opts.debug) {
      this.log.line(t, 'debug', 'resource diffs', [
        ['patch', JSON.stringify(decision.patch)],
        ['current', JSON.stringify(decision.current)],
        ['modified', JSON.stringify(decision.modified)],
        ['original', JSON.stringify(pod.lastApplied)],
      ]);
      diffLogged = true;
    }
    t = this.setState('ClusterRollingUpgrading', t + this.ms(3, 12)) + this.ms(2, 10);
    this.log.line(t, 'info', `Deleting pod ${pod.name}`);
    const deleted = gracefulDelete(this.world, pod, this.actor, t + this.ms(0.2, 2));
    const goneAt = kubeletFinalDelete(this.world, pod, deleted.doneAt + this.secs(8, 25)).doneAt;
    this.pods.delete(nodeId);
    const recreation: NifiRecreation = {
      operator: 'nifikop',
      namespace: pod.namespace,
      nifiCluster: this.spec.name,
      nodeId,
      deleted: { pod, at: deleted.receivedAt, by: this.actor.username, auditID: deleted.auditID },
      created: null,
      ...classify(pod, decision, pods),
      wouldRestart: restartByRange(pods),
      evidence: [
        ...(pod.mutatedBy.length > 0 && pod.createAuditID ? [pod.createAuditID] : []),
        ...pod.causeAuditIDs,
        deleted.auditID,
      ],
      diffLogged,
    };
    this.recreations.push(recreation);
    // The next reconciles find no pod once it is gone and create its successor.
    const created = this.createNode(nodeId, goneAt + this.secs(1, 6), pod.node);
    recreation.created = { pod: created.pod, at: created.record.receivedAt, auditID: created.record.auditID };
    recreation.evidence.push(created.record.auditID);
    this.setState('ClusterRunning', created.readyAt + this.secs(2, 8));
    return { decision, recreation, readyAt: created.readyAt };
  }

  /**
   * Reconciles the node every `cadence` seconds from `from` to `until` (after a recreation, from
   * the successor's readiness: the rolling-upgrade gates hold it until then). Returns when the
   * last reconcile happened.
   */
  run(nodeId: string, from: Micros, until: Micros, cadence: readonly [number, number] = [5, 15]): Micros {
    let t = from;
    let last = from;
    while (t < until) {
      last = t;
      const r = this.reconcileNode(nodeId, t);
      t = Math.max(t, r.readyAt) + this.secs(cadence[0], cadence[1]);
    }
    return last;
  }
}

/** The truth's classification of a NiFiKop deletion, with its fields and their writers. */
function classify(
  pod: LivePod,
  decision: ModelDecision,
  pods: ModelPods,
): { classification: Classification; fields: FieldChange[] } {
  const intent = specChange(pods.original, pods.desired);
  if (intent.length > 0)
    return { classification: 'intent-change', fields: intent.map((f) => ({ ...f, by: null })) };
  // An empty patch still deletes the pod when the node's configuration is out of sync.
  if (decision.fields.length === 0) return { classification: 'config-change', fields: [] };
  return {
    classification: 'external-mutation-revert',
    fields: decision.fields.map((f) => ({ ...f, by: attribute(pod.writes, f.path) })),
  };
}
