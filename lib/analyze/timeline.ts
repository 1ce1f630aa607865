// Rebuilds every koperator broker pod's life from the facts: its create (with the
// webhooks that admitted it), every later write, and its end. Facts arrive out of
// order across files; everything here is ordered by when the API server finished the
// request (stageTimestamp), operator lines by their own `ts` (factTime; the ordering and
// the split into brokers are lib/analyze/partition.ts's).
import type {
  ConfigMapWriteFact,
  Fact,
  KafkaClusterWriteFact,
  OperatorFact,
  PodWriteFact,
} from '../model/facts';
import type { Recreation } from '../model/findings';
import type { UnitIdentity } from '../operators/profile';
import { logRoleOf, OPERATORS } from '../operators/registry';
import { secondsBetween } from './time';
import { actorOf } from '../k8s/actor';

/**
 * A member of any replayed operator (lib/operators/registry.ts), as the findings hold it
 * (findings-contract.md): `kafkaCluster`, `brokerId`, and `operator` for one other than koperator.
 */
export type BrokerIdentity = Pick<Recreation, 'kafkaCluster' | 'brokerId' | 'operator'>;

function brokerOfUnit(operator: string, u: UnitIdentity | null): BrokerIdentity | null {
  if (u === null) return null;
  // koperator's members keep the findings' shape they always had: no `operator` key.
  return operator === 'koperator'
    ? { kafkaCluster: u.cluster, brokerId: u.unit }
    : { operator, kafkaCluster: u.cluster, brokerId: u.unit };
}

/** The member a pod belongs to, by the first operator whose labels or owners claim it. */
const brokerOfPod = (pod: unknown): BrokerIdentity | null => {
  for (const op of OPERATORS) {
    const b = brokerOfUnit(op.id, op.pods.unitOfPod(pod));
    if (b) return b;
  }
  return null;
};
const brokerOfPodName = (name: string): BrokerIdentity | null => {
  for (const op of OPERATORS) {
    const b = brokerOfUnit(op.id, op.pods.unitOfPodName(name));
    if (b) return b;
  }
  return null;
};

/** The key of a member: one operator's cluster never shares a member with another's. */
export function memberKey(ns: string, b: BrokerIdentity): string {
  const k = `${ns}\u0000${b.kafkaCluster}\u0000${b.brokerId}`;
  return b.operator ? `${k}\u0000${b.operator}` : k;
}

export interface Deletion {
  at: string;
  /** The user who asked first; null when only the kubelet's final delete was seen and nothing names the asker. */
  by: string | null;
  via: 'delete' | 'eviction' | 'final-delete';
  facts: PodWriteFact[];
}

export interface Incarnation {
  namespace: string;
  name: string;
  uid: string | null;
  broker: BrokerIdentity | null;
  /** The broker was read off the pod name only (no labels in the data). */
  brokerFromName: boolean;
  create: PodWriteFact | null;
  createdAt: string | null;
  /** Writes after the create, in the order they took effect (includes deletes). */
  writes: PodWriteFact[];
  deletion: Deletion | null;
  /** Eviction attempts the API server refused (PDB), kept as evidence only. */
  refusedEvictions: PodWriteFact[];
  operatorLines: OperatorFact[];
}

/** What classifying a broker's deletion reads beyond its own pods. */
export interface ClusterFacts {
  kafkaClusterWrites: KafkaClusterWriteFact[];
  configMapWrites: ConfigMapWriteFact[];
  operatorUsers: Set<string>;
}

// A dry run is answered like the write it rehearses, but the API server stored nothing.
const ok = (f: PodWriteFact) => f.dryRun !== true && (f.code === null || (f.code >= 200 && f.code < 300));

export function isKubeletFinalDelete(f: PodWriteFact): boolean {
  return f.verb === 'delete' && f.user.startsWith('system:node:') && f.gracePeriodSeconds === 0;
}

export function factTime(f: Fact): string {
  return f.type === 'operator' ? f.at : f.doneAt || f.at;
}

/**
 * Pod writes and operator lines (each in the timeline's order) into broker pods. When
 * `confirmUsers`, users the operator's own lines confirm as its identity are added to
 * `operatorUsers` before deciding which pods are the operator's.
 *
 * `pods` must hold one stage per request, ordered by factTime (lib/analyze/partition.ts
 * decides both on the fact store). Nothing here relates pods of different names except an
 * unnamed create and the binding that names it, so the facts of one broker (by pod name)
 * can be assembled apart from the rest.
 */
export function assembleIncarnations(
  pods: PodWriteFact[],
  operatorLines: OperatorFact[],
  operatorUsers: Set<string>,
  confirmUsers: boolean,
): Incarnation[] {
  const all: Incarnation[] = [];
  const byName = new Map<string, Incarnation>();
  const byUid = new Map<string, Incarnation>();
  const pendingCreates = new Map<string, PodWriteFact[]>();
  const key = (ns: string, name: string) => `${ns}/${name}`;

  const open = (ns: string, name: string, uid: string | null, create: PodWriteFact | null): Incarnation => {
    const inc: Incarnation = {
      namespace: ns,
      name,
      uid,
      broker: null,
      brokerFromName: false,
      create,
      createdAt: create ? create.at : null,
      writes: [],
      deletion: null,
      refusedEvictions: [],
      operatorLines: [],
    };
    all.push(inc);
    byName.set(key(ns, name), inc);
    if (uid) byUid.set(uid, inc);
    return inc;
  };
  const find = (f: PodWriteFact): Incarnation | undefined =>
    (f.uid ? byUid.get(f.uid) : undefined) ?? (f.name ? byName.get(key(f.namespace, f.name)) : undefined);

  for (const f of pods) {
    if (f.verb === 'create' && f.subresource === null) {
      if (!ok(f)) continue;
      if (f.name) {
        const inc = open(f.namespace, f.name, f.uid, f);
        inc.broker = brokerOfPod(f.response) ?? brokerOfPod(f.request);
      } else {
        // Metadata level with generateName: the scheduler's binding names the pod.
        const list = pendingCreates.get(f.namespace) ?? [];
        list.push(f);
        pendingCreates.set(f.namespace, list);
      }
      continue;
    }
    if (f.verb === 'create' && f.subresource === 'binding') {
      if (!f.name || find(f)) {
        const inc = find(f);
        if (inc && !inc.uid && f.uid) {
          inc.uid = f.uid;
          byUid.set(f.uid, inc);
        }
        continue;
      }
      const pending = pendingCreates.get(f.namespace) ?? [];
      const idx = pending.findIndex(
        (c) => secondsBetween(c.at, f.at) >= 0 && secondsBetween(c.at, f.at) < 30,
      );
      const create = idx >= 0 ? pending.splice(idx, 1)[0] : null;
      const inc = open(f.namespace, f.name, f.uid, create);
      inc.broker = create ? (brokerOfPod(create.request) ?? null) : null;
      continue;
    }
    let inc = find(f);
    if (!inc && f.name) inc = open(f.namespace, f.name, f.uid, null);
    if (!inc) continue;
    if (!inc.uid && f.uid) {
      inc.uid = f.uid;
      byUid.set(f.uid, inc);
    }
    if (!inc.broker) inc.broker = brokerOfPod(f.response) ?? null;
    if (f.subresource === 'eviction') {
      if (ok(f)) {
        inc.writes.push(f);
        if (!inc.deletion) inc.deletion = { at: f.at, by: actorOf(f), via: 'eviction', facts: [f] };
        else inc.deletion.facts.push(f);
      } else {
        inc.refusedEvictions.push(f);
      }
      continue;
    }
    if (!ok(f)) continue;
    inc.writes.push(f);
    if (f.verb === 'delete' || f.verb === 'deletecollection') {
      if (!inc.deletion) {
        inc.deletion = isKubeletFinalDelete(f)
          ? { at: f.at, by: null, via: 'final-delete', facts: [f] }
          : { at: f.at, by: actorOf(f), via: 'delete', facts: [f] };
      } else {
        inc.deletion.facts.push(f);
      }
    }
  }

  for (const line of operatorLines) attachOperatorLine(line, byName, key);
  if (confirmUsers) for (const u of usersConfirmedByOperatorLines(all)) operatorUsers.add(u);

  const brokers = all.filter((inc) => {
    if (inc.broker) return true;
    if (!isOperatorsPod(inc, operatorUsers)) return false;
    inc.broker = brokerOfPodName(inc.name);
    inc.brokerFromName = inc.broker !== null;
    return inc.broker !== null;
  });
  // A pod that predates the data and was deleted by someone else (a drain, an
  // autoscaler) shows no labels and no operator trace; its name still places it in a
  // broker whose other pods are known to be koperator's.
  const knownBrokers = new Set(brokers.map((i) => memberKey(i.namespace, i.broker!)));
  for (const inc of all) {
    if (inc.broker || !inc.deletion) continue;
    const named = brokerOfPodName(inc.name);
    if (!named || !knownBrokers.has(memberKey(inc.namespace, named))) continue;
    inc.broker = named;
    inc.brokerFromName = true;
    brokers.push(inc);
  }
  for (const inc of brokers) {
    const d = inc.deletion;
    if (d && d.via === 'final-delete' && d.by === null && namedByDeletedLine(inc)) {
      d.by = [...operatorUsers][0] ?? null;
    }
  }
  return brokers;
}

/**
 * At Metadata level no body shows an owner reference; the operator is then whoever
 * deleted a pod within seconds of koperator logging "broker pod deleted" for it.
 */
function usersConfirmedByOperatorLines(all: Incarnation[]): Set<string> {
  const users = new Set<string>();
  for (const inc of all) {
    const d = inc.deletion;
    if (!d || d.via !== 'delete' || !d.by) continue;
    const confirmed = inc.operatorLines.some((l) => {
      if (logRoleOf(l.msg) !== 'unitPodDeleted') return false;
      const s = secondsBetween(d.at, l.at);
      return s >= -5 && s <= 30;
    });
    if (confirmed) users.add(d.by);
  }
  return users;
}

function isOperatorsPod(inc: Incarnation, operators: Set<string>): boolean {
  if (inc.create && operators.has(inc.create.user)) return true;
  if (inc.operatorLines.length > 0) return true;
  return inc.deletion?.by != null && operators.has(inc.deletion.by);
}

function namedByDeletedLine(inc: Incarnation): boolean {
  return inc.operatorLines.some((l) => logRoleOf(l.msg) === 'unitPodDeleted');
}

function attachOperatorLine(
  line: OperatorFact,
  byName: Map<string, Incarnation>,
  key: (ns: string, name: string) => string,
): void {
  let name = line.pod;
  let ns = line.namespace;
  if (!name && logRoleOf(line.msg) === 'resourceDiffs') {
    const current = parseMaybeJson(line.fields.current);
    const meta =
      current && typeof current === 'object' ? (current as Record<string, unknown>).metadata : null;
    if (meta && typeof meta === 'object') {
      const m = meta as Record<string, unknown>;
      if (typeof m.name === 'string') name = m.name;
      if (typeof m.namespace === 'string') ns = m.namespace;
    }
  }
  if (!name) return;
  if (ns) {
    byName.get(key(ns, name))?.operatorLines.push(line);
    return;
  }
  // NiFiKop's `Deleting pod <name>` names no namespace: a generated pod name is unique enough.
  for (const inc of byName.values()) if (inc.name === name) inc.operatorLines.push(line);
}

export function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}
