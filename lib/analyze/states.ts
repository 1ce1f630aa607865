// The three states koperator's diff compares (koperator-diff-semantics.md, "The three
// states"): original = the deleted pod's last-applied annotation, modified = the
// successor's, current = the live pod as it stood at the deletion. Each comes from the
// best source the logs hold, and every substitution is written down as a note.
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../k8s/apply-patch';
import type { KafkaClusterWriteFact, OperatorFact, PodWriteFact } from '../model/facts';
import { logRoleOf } from '../operators/registry';
import { BoundedCache } from '../k8s/bounded-cache';
import { compareTimes } from './time';
import { parseMaybeJson, type Incarnation } from './timeline';

/** The note of a desired pod read from the operator's diff line (after its version's steps). */
export const MODIFIED_FROM_LOG = 'modified: from the verbose operator diff';

export interface PodStates {
  original: Record<string, unknown> | null;
  modified: Record<string, unknown> | null;
  current: Record<string, unknown> | null;
  /** Where a state came from other than its first-choice source, or why it is missing. */
  notes: string[];
}

// Each pod body is read as the deleted pod's original and again as its predecessor's
// modified; decoding (base64, inflate, parse) once per body halves that work.
const lastAppliedCache = new WeakMap<object, Record<string, unknown> | null>();

// Every pod koperator creates for one broker carries the same annotation until its desired
// pod changes, so in a restart loop thousands of bodies hold one string. Decoding each
// distinct string once makes those bodies share one decoded object: the memory of one, and
// an identity later caches (the pod-diff decisions) can key on. Bounded, so a fleet with
// many distinct specs only loses sharing, never correctness.
const decodedByAnnotation = new BoundedCache<Record<string, unknown> | null>(4096, 64 * 2 ** 20);

function decodeAnnotation(encoded: string): Record<string, unknown> | null {
  const known = decodedByAnnotation.get(encoded);
  if (known !== undefined) return known;
  const decoded = decodeLastApplied(encoded);
  const value = decoded.ok ? decoded.value : null;
  decodedByAnnotation.set(encoded, value);
  return value;
}

/**
 * The pod's decoded last-applied annotation, or null. The object is shared by every body
 * carrying the same annotation: callers must treat it as read-only (all of them copy first).
 */
export function lastAppliedOf(pod: unknown): Record<string, unknown> | null {
  if (!isObject(pod) || !isObject(pod.metadata)) return null;
  const cached = lastAppliedCache.get(pod);
  if (cached !== undefined) return cached;
  const ann = pod.metadata.annotations;
  const encoded = isObject(ann) ? ann[LAST_APPLIED_ANNOTATION] : undefined;
  const value = typeof encoded === 'string' ? decodeAnnotation(encoded) : null;
  lastAppliedCache.set(pod, value);
  return value;
}

/** The last verbose "kafka pod resource diffs" line about this pod before its deletion. */
export function verboseDiffLine(inc: Incarnation): OperatorFact | null {
  const until = inc.deletion?.at;
  let found: OperatorFact | null = null;
  for (const l of inc.operatorLines) {
    if (logRoleOf(l.msg) !== 'resourceDiffs') continue;
    if (until && compareTimes(l.at, until) > 5_000_000) continue;
    found = l;
  }
  return found;
}

function fromVerbose(
  line: OperatorFact | null,
  key: 'original' | 'modified' | 'current',
): Record<string, unknown> | null {
  if (!line) return null;
  const v = parseMaybeJson(line.fields[key]);
  return isObject(v) ? v : null;
}

export function originalOf(inc: Incarnation): Record<string, unknown> | null {
  const candidates = [inc.create?.request, inc.create?.response, ...inc.writes.map((w) => w.response)];
  for (const c of candidates) {
    const la = lastAppliedOf(c);
    if (la) return la;
  }
  return null;
}

export function reconstructStates(
  inc: Incarnation,
  successor: Incarnation | null,
  kafkaClusterWrites: KafkaClusterWriteFact[],
  operatorUsers: Set<string>,
): PodStates {
  const notes: string[] = [];
  const verbose = verboseDiffLine(inc);

  let original = originalOf(inc);
  if (!original && (original = fromVerbose(verbose, 'original')))
    notes.push('original: from the verbose operator diff');

  let modified = successor ? originalOf(successor) : null;
  if (!modified && (modified = fromVerbose(verbose, 'modified'))) notes.push(MODIFIED_FROM_LOG);
  if (!modified && original) {
    const from = inc.createdAt;
    const until = inc.deletion?.at;
    const crWrites = kafkaClusterWrites.filter(
      (w) =>
        w.namespace === inc.namespace &&
        w.name === inc.broker?.kafkaCluster &&
        w.subresource === null &&
        !operatorUsers.has(w.user) &&
        (!from || compareTimes(w.at, from) >= 0) &&
        (!until || compareTimes(w.at, until) <= 0),
    );
    if (from && crWrites.length === 0) {
      modified = original;
      notes.push(
        'modified: successor not in the data; no KafkaCluster write seen since the pod was created, so original stands in',
      );
    } else {
      notes.push(
        'modified: missing (no successor pod, no verbose operator diff, and the KafkaCluster may have changed)',
      );
    }
  }
  if (!original) notes.push('original: missing (no last-applied annotation and no verbose operator diff)');

  let current = currentOf(inc);
  if (!current && (current = fromVerbose(verbose, 'current')))
    notes.push('current: from the verbose operator diff');
  if (!current) notes.push('current: missing (pod bodies not logged)');
  return { original, modified, current, notes };
}

/**
 * The live pod at the deletion: the newest stored body, then any body-only writes after it.
 * Patches are applied only once it is known that no later body replaces their result: each
 * application copies the pod, and in a restart loop the kubelet's status patches are almost
 * always followed by the delete's own response.
 */
export function currentOf(inc: Incarnation): Record<string, unknown> | null {
  let body: Record<string, unknown> | null = isObject(inc.create?.response) ? inc.create!.response : null;
  let pending: PodWriteFact[] = [];
  const end = inc.deletion?.facts[0];
  for (const w of inc.writes) {
    if (w === end) {
      if (isObject(w.response)) return w.response;
      // Created before the data and evicted: the kubelet's final delete returns the pod
      // as it stood, which is the nearest body to the eviction the logs hold.
      return withPatches(body, pending) ?? firstBody(inc.deletion!.facts);
    }
    if (isObject(w.response)) {
      body = w.response;
      pending = [];
      continue;
    }
    // Before any body there is nothing to patch: such writes are dropped, as a later body replaces them.
    if (body && w.verb === 'patch' && w.request !== undefined) pending.push(w);
  }
  return withPatches(body, pending);
}

/** `body` with the writes applied in order; one the API server would have refused is skipped. */
function withPatches(
  body: Record<string, unknown> | null,
  writes: PodWriteFact[],
): Record<string, unknown> | null {
  let state = body;
  for (const w of writes) state = applyWrite(state, w) ?? state;
  return state;
}

function firstBody(facts: PodWriteFact[]): Record<string, unknown> | null {
  for (const f of facts) if (isObject(f.response)) return f.response;
  return null;
}

export function applyWrite(state: unknown, w: PodWriteFact): Record<string, unknown> | null {
  const r =
    w.patchType === 'json'
      ? applyJsonPatch(state, w.request)
      : w.patchType === 'merge'
        ? applyMergePatch(state, w.request)
        : applyStrategicMergePatch(state, w.request);
  return r.ok && isObject(r.value) ? r.value : null;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export type { PodWriteFact };
