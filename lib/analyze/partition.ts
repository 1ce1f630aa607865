// Splits a store's facts into what can be analysed apart: one part per broker (namespace,
// KafkaCluster and broker ID read off the pod name), so the analysis builds the objects of
// one broker's pods at a time instead of a whole fleet's day at once.
//
// Everything that relates facts across pods is decided here first, on the store's columns,
// exactly as a build of the whole timeline from every fact would decide it (that build is
// the tests' oracle, test/support/whole-timeline.ts): which stage of a request is kept, the
// order of the facts, the end of the data, the operator's users learned from owner
// references, and which binding names which unnamed create. A part then holds exactly the
// facts its pods' incarnations would receive there, in the same order, for
// assembleIncarnations.
import type {
  ConfigMapWriteFact,
  KafkaClusterWriteFact,
  ObjectWriteFact,
  OperatorFact,
} from '../model/facts';
import type { FactStore } from '../facts/store';
import { OPERATORS, logRoleOf } from '../operators/registry';
import { sortWithKeys } from './sort-by-key';
import { factTime, parseMaybeJson } from './timeline';

export interface Part {
  /** Pod facts, as store indices, in the timeline's order. */
  pods: number[];
  /** Operator lines (or facts of unknown kinds) naming the part's pods, in order. */
  lines: number[];
}

export interface Partitioned {
  parts: Part[];
  kafkaClusterWrites: KafkaClusterWriteFact[];
  configMapWrites: ConfigMapWriteFact[];
  /** Users that created pods owned by a KafkaCluster, in the order first seen. */
  learnedUsers: string[];
  /** Each replayed operator's version as its own Deployment's image last showed it, with where. */
  learnedVersions: Record<string, { version: string; seen: string }>;
  newestAt: string;
}

const STAGE_RANK: Record<string, number> = {
  ResponseComplete: 3,
  Panic: 2,
  ResponseStarted: 1,
  RequestReceived: 0,
};

/** The part a pod named `name` in `ns` belongs to: its broker, or its namespace's rest. */
function partKey(ns: string, name: string): string {
  for (const op of OPERATORS) {
    const b = op.pods.unitOfPodName(name);
    if (b === null) continue;
    const k = `${ns}\u0000${b.cluster}\u0000${b.unit}`;
    return op.id === 'koperator' ? k : `${k}\u0000${op.id}`;
  }
  return `${ns}\u0000`;
}

/** Whether a pod create's body names any operator's cluster CR as its owner. */
function ownedByOperatorCr(body: unknown): boolean {
  for (const op of OPERATORS) if (op.pods.crOwner(body)) return true;
  return false;
}

const ok = (code: number | null) => code === null || (code >= 200 && code < 300);

export function partitionFacts(store: FactStore): Partitioned {
  const order = timelineOrder(store);
  const parts = new Map<string, Part>();
  const partOf = (key: string): Part => {
    let p = parts.get(key);
    if (!p) {
      p = { pods: [], lines: [] };
      parts.set(key, p);
    }
    return p;
  };
  const kafkaClusterWrites: KafkaClusterWriteFact[] = [];
  const configMapWrites: ConfigMapWriteFact[] = [];
  const lines: number[] = [];
  const learned = new Set<string>();
  const learnedVersions: Record<string, { version: string; seen: string }> = {};

  // The incarnations assembleIncarnations' pod loop opens, found by uid, else by name; each is
  // reduced to its part (from its namespace and name) and whether it has a uid yet.
  interface Seen {
    key: string;
    hasUid: boolean;
  }
  const byName = new Map<string, Seen>();
  const byUid = new Map<string, Seen>();
  const pending = new Map<string, number[]>();
  const open = (ns: string, name: string, uid: string | null): Seen => {
    const inc = { key: partKey(ns, name), hasUid: uid !== null };
    byName.set(`${ns}/${name}`, inc);
    if (uid) byUid.set(uid, inc);
    return inc;
  };
  const learnUid = (inc: Seen, uid: string | null) => {
    if (inc.hasUid || !uid) return;
    inc.hasUid = true;
    byUid.set(uid, inc);
  };

  for (const i of order) {
    const type = store.type(i);
    if (type === 'kafkacluster') {
      kafkaClusterWrites.push(store.fact(i) as KafkaClusterWriteFact);
      continue;
    }
    if (type === 'configmap') {
      configMapWrites.push(store.fact(i) as ConfigMapWriteFact);
      continue;
    }
    if (type === 'object') {
      const f = store.fact(i) as ObjectWriteFact;
      // The last write of the operator's Deployment in the data says its version.
      if (f.operatorVersion && ok(f.code))
        learnedVersions[f.operatorVersion.operator] = {
          version: f.operatorVersion.version,
          seen: `${f.resource} ${f.namespace ?? ''}/${f.name ?? ''} ${f.verb} at ${f.at} (audit ${f.auditID})`,
        };
    }
    if (type !== 'pod') {
      lines.push(i);
      continue;
    }
    const ns = store.namespaceOf(i)!;
    const name = store.nameOf(i);
    const uid = store.uidOf(i);
    const verb = store.verbOf(i);
    const sub = store.subresourceOf(i);
    const find = (): Seen | undefined =>
      (uid ? byUid.get(uid) : undefined) ?? (name ? byName.get(`${ns}/${name}`) : undefined);
    if (verb === 'create' && sub === null) {
      if (!ok(store.codeOf(i))) continue;
      if (ownedByOperatorCr(store.responseOf(i)) || ownedByOperatorCr(store.requestOf(i)))
        learned.add(store.userOf(i)!);
      if (name) partOf(open(ns, name, uid).key).pods.push(i);
      else {
        const list = pending.get(ns) ?? [];
        list.push(i);
        pending.set(ns, list);
      }
      continue;
    }
    if (verb === 'create' && sub === 'binding') {
      const known = find();
      if (!name || known) {
        if (known) {
          learnUid(known, uid);
          partOf(known.key).pods.push(i);
        }
        continue;
      }
      const at = store.atMicrosOf(i);
      const list = pending.get(ns) ?? [];
      const idx = list.findIndex((c) => {
        const s = (at - store.atMicrosOf(c)) / 1e6;
        return s >= 0 && s < 30;
      });
      const part = partOf(open(ns, name, uid).key);
      if (idx >= 0) part.pods.push(list.splice(idx, 1)[0]);
      part.pods.push(i);
      continue;
    }
    let inc = find();
    if (!inc && name) inc = open(ns, name, uid);
    if (!inc) continue;
    learnUid(inc, uid);
    partOf(inc.key).pods.push(i);
  }

  // Operator lines attach to a pod by name (lib/analyze/timeline.ts attachOperatorLine).
  let bareNames: Map<string, Set<string>> | null = null;
  for (const i of lines) {
    const line = store.fact(i) as OperatorFact;
    let name = line.pod;
    let ns = line.namespace;
    if (!name && logRoleOf(line.msg) === 'resourceDiffs') {
      const meta = metadataOf(parseMaybeJson(line.fields.current));
      if (typeof meta?.name === 'string') name = meta.name;
      if (typeof meta?.namespace === 'string') ns = meta.namespace;
    }
    if (!name) continue;
    if (ns) {
      const inc = byName.get(`${ns}/${name}`);
      if (inc) partOf(inc.key).lines.push(i);
      continue;
    }
    // A line naming its pod without a namespace (NiFiKop's `Deleting pod <name>`): every part
    // holding a pod of that name gets it, as assembleIncarnations attaches it.
    if (bareNames === null) {
      bareNames = new Map();
      for (const [k, inc] of byName) {
        const bare = k.slice(k.indexOf('/') + 1);
        const keys = bareNames.get(bare) ?? new Set<string>();
        keys.add(inc.key);
        bareNames.set(bare, keys);
      }
    }
    for (const k of bareNames.get(name) ?? []) partOf(k).lines.push(i);
  }

  // A binding takes its create out of the order the create had; put each part back in it.
  const rank = new Int32Array(store.size);
  for (let r = 0; r < order.length; r++) rank[order[r]] = r;
  for (const p of parts.values()) p.pods.sort((a, b) => rank[a] - rank[b]);

  return {
    parts: [...parts.values()],
    kafkaClusterWrites,
    configMapWrites,
    learnedUsers: [...learned],
    learnedVersions,
    newestAt: newestOf(store, order),
  };
}

function metadataOf(v: unknown): Record<string, unknown> | null {
  if (!v || typeof v !== 'object') return null;
  const meta = (v as Record<string, unknown>).metadata;
  return meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : null;
}

/**
 * The facts the timeline keeps, in its order: one stage per request (the most complete,
 * the first seen of equals), operator lines first, then requests by first appearance, all
 * stably sorted by when they took effect (factTime), so equal times keep that order.
 */
function timelineOrder(store: FactStore): number[] {
  const first = store.firstOfRequest();
  const best = new Int32Array(store.size).fill(-1);
  const out: number[] = [];
  for (let i = 0; i < store.size; i++) {
    const g = first[i];
    if (g < 0) {
      out.push(i);
      continue;
    }
    const prev = best[g];
    if (prev < 0 || (STAGE_RANK[store.stageOf(i)!] ?? 0) > (STAGE_RANK[store.stageOf(prev)!] ?? 0))
      best[g] = i;
  }
  for (let i = 0; i < store.size; i++) if (first[i] === i) out.push(best[i]);
  const times = new Float64Array(out.length);
  for (let k = 0; k < out.length; k++) times[k] = store.effectiveMicros(out[k]);
  sortWithKeys(out, times);
  return out;
}

/** The newest time any fact carries (the first of equals): the end of the data. */
function newestOf(store: FactStore, order: number[]): string {
  let newestIdx = -1;
  let newest = NaN;
  for (const i of order) {
    const t = store.effectiveMicros(i);
    if (newestIdx < 0 || store.effectiveTimeIsEmpty(newestIdx) || t - newest > 0) {
      newestIdx = i;
      newest = t;
    }
  }
  return newestIdx < 0 ? '' : factTime(store.fact(newestIdx));
}
