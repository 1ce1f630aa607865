// The timeline of writes the fight detectors share: every write to an object (one stage
// per request, the most complete), grouped by object and in the order they took effect,
// and the pod creates, deletes and evictions of pods koperator does not own.
import type { FactStore } from '../facts/store';
import type { ObjectWriteFact, PodWriteFact } from '../model/facts';
import { isOperatorPodName, mayBeOperatorPod } from '../operators/registry';
import { isBuiltinPodController } from './relevance';
import { epochMicros } from '../analyze/time';
import { sortByKey } from '../analyze/sort-by-key';

const STAGE_RANK: Record<string, number> = {
  ResponseComplete: 3,
  Panic: 2,
  ResponseStarted: 1,
  RequestReceived: 0,
};

export interface ObjectWrite {
  fact: ObjectWriteFact;
  /** The writer: the impersonated user when there is one, else the requesting user. */
  user: string;
  /** requestReceivedTimestamp, epoch microseconds: the time a cycle is reported at. */
  at: number;
  /** When it took effect (stageTimestamp), the order writes are replayed in. */
  doneAt: number;
}

export interface WriteTimeline {
  /** Writes of each object (key: group/resource/namespace/name), in the order they took effect. */
  objects: Map<string, ObjectWrite[]>;
  /** Creates, deletes and evictions of pods that are not koperator's, in time order. */
  pods: PodWriteFact[];
  /** The latest requestReceivedTimestamp read (epoch microseconds): the end of the data. */
  newest: number;
}

export function objectKey(apiGroup: string, resource: string, namespace: string, name: string): string {
  return `${apiGroup}\u0000${resource}\u0000${namespace}\u0000${name}`;
}

const ok = (code: number | null) => code === null || (code >= 200 && code < 300);

export function buildWriteTimeline(store: FactStore): WriteTimeline {
  const best = new Map<string, ObjectWriteFact>();
  const pods: PodWriteFact[] = [];
  let newest = -Infinity;
  for (let i = 0; i < store.size; i++) {
    const t = store.atMicrosOf(i);
    if (t > newest) newest = t;
    const type = store.type(i);
    if (type === 'object') {
      const f = store.fact(i) as ObjectWriteFact;
      const prev = best.get(f.auditID);
      if (!prev || (STAGE_RANK[f.stage] ?? 0) > (STAGE_RANK[prev.stage] ?? 0)) best.set(f.auditID, f);
      continue;
    }
    if (type !== 'pod' || !ok(store.codeOf(i))) continue;
    const verb = store.verbOf(i);
    const sub = store.subresourceOf(i);
    const wanted =
      (verb === 'create' && (sub === null || sub === 'eviction')) || (verb === 'delete' && sub === null);
    if (!wanted) continue;
    // A cycle is a delete and a create by one user, never Kubernetes' own controllers: their
    // pods (most of a cluster's) are not even built as objects.
    if (isBuiltinPodController(store.userOf(i) ?? '')) continue;
    // Named like a koperator broker: koperator's own replay has it (and its bodies, the
    // largest in the store, need not be built here).
    const name = store.nameOf(i);
    if (name !== null && isOperatorPodName(name)) continue;
    const f = store.fact(i) as PodWriteFact;
    if (isKoperatorPod(f)) continue;
    pods.push(f);
  }
  const objects = new Map<string, ObjectWrite[]>();
  for (const f of best.values()) {
    if (!ok(f.code)) continue;
    const name = f.name;
    if (!name) continue;
    const key = objectKey(f.apiGroup, f.resource, f.namespace, name);
    const at = epochMicros(f.at);
    const w: ObjectWrite = {
      fact: f,
      user: f.impersonated ?? f.user,
      at,
      doneAt: f.doneAt ? epochMicros(f.doneAt) : at,
    };
    const list = objects.get(key);
    if (list) list.push(w);
    else objects.set(key, [w]);
  }
  for (const list of objects.values()) sortByKey(list, (w) => w.doneAt);
  const firstStage = dedupePods(pods);
  sortByKey(firstStage, (f) => epochMicros(f.at));
  return { objects, pods: firstStage, newest: Number.isFinite(newest) ? newest : NaN };
}

/** One stage per pod request (the most complete). */
function dedupePods(pods: PodWriteFact[]): PodWriteFact[] {
  const best = new Map<string, PodWriteFact>();
  for (const f of pods) {
    const prev = best.get(f.auditID);
    if (!prev || (STAGE_RANK[f.stage] ?? 0) > (STAGE_RANK[prev.stage] ?? 0)) best.set(f.auditID, f);
  }
  return [...best.values()];
}

/**
 * A pod of koperator's, by anything its facts show; at Metadata level (no bodies) by its name
 * pattern alone: a broker pod must never be reported twice, and its replay is exact.
 */
export function isKoperatorPod(f: PodWriteFact): boolean {
  if (mayBeOperatorPod(f.request) || mayBeOperatorPod(f.response)) return true;
  const hasBody = f.request !== undefined || f.response !== undefined;
  return !hasBody && f.name !== null && isOperatorPodName(f.name);
}
