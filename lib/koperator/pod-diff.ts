// What koperator decides about a broker pod, from its three states (see
// shared/spec/koperator-diff-semantics.md):
//   - threeWayDecision: koperator before the fix. handleRollingUpgrade merges tolerations, then
//     objectmatcher's PatchMaker.Calculate diffs the live pod against the desired one
//     (CreateThreeWayMergePatch) and re-derives a non-empty patch as a two-way patch from the
//     live pod to the live pod with the patch applied, so a bare $setElementOrder collapses.
//   - intentDecision: the fix (podSpecIntentChanged): a two-way patch from last-applied to
//     desired, with the same $setElementOrder re-check; the live pod is never consulted.
// Both strip the last-applied annotation and objectmatcher's nulls/empty strings first.
// Both are memoised (see below): inputs must not be mutated after a call, and the decisions
// returned are shared, so they must not be mutated either.

import { diffFields } from '../k8s/field-diff';
import { BoundedCache } from '../k8s/bounded-cache';
import { PairMemo } from '../k8s/pair-memo';
import { getIn, isObject, type JsonObject } from '../k8s/json-value';
import { LAST_APPLIED_ANNOTATION, LIVE_LAST_APPLIED_MARKER } from '../k8s/last-applied';
import { directiveFree, liveKey } from '../k8s/live-pod-key';
import { stripNulls } from '../k8s/normalize';
import { typedPod } from '../k8s/typed-pod';
import { APPLY, strategicMerge } from '../k8s/smp-merge';
import {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  isEmptyPatch,
  type Patch,
} from '../k8s/strategic-merge';
import type { DiffDecision } from '../k8s/diff-decision';
import { mergeTolerations } from './tolerations';

export type { DiffDecision, FieldDiff } from '../k8s/diff-decision';

/**
 * The desired pod as objectmatcher diffs it: koperator's desired pod never carries the
 * annotation (it is stamped only on creation), so it is taken out, and a map left empty is
 * not written (omitempty).
 */
function withoutLastApplied(pod: JsonObject): JsonObject {
  if (!isObject(pod.metadata) || !isObject(pod.metadata.annotations)) return pod;
  const annotations: JsonObject = { ...pod.metadata.annotations };
  if (!(LAST_APPLIED_ANNOTATION in annotations)) return pod;
  delete annotations[LAST_APPLIED_ANNOTATION];
  const metadata: JsonObject = { ...pod.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return { ...pod, metadata };
}

function withLastApplied(pod: JsonObject): JsonObject {
  const metadata = isObject(pod.metadata) ? pod.metadata : {};
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  if (annotations[LAST_APPLIED_ANNOTATION] === LIVE_LAST_APPLIED_MARKER) return pod;
  return {
    ...pod,
    metadata: {
      ...metadata,
      annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: LIVE_LAST_APPLIED_MARKER },
    },
  };
}

/** A desired pod after koperator marshals it for the diff: typed, annotation out, nulls out. */
function desiredForDiff(typed: JsonObject): unknown {
  return stripNulls(withoutLastApplied(typed));
}

/** The live pod as Calculate marshals it: typed, with the annotation when there is a last-applied state. */
function liveForDiff(typed: JsonObject, hasOriginal: boolean): unknown {
  return stripNulls(hasOriginal ? withLastApplied(typed) : typed);
}

/** objectmatcher's JSON decoding of the annotation: a document that is not an object is empty. */
function hasLastApplied(original: unknown): boolean {
  return original !== null && original !== undefined;
}

function unchanged(patch: Patch): DiffDecision {
  return { changed: false, patch, fields: [] };
}

function failed(e: unknown): DiffDecision {
  return { changed: true, patch: {}, fields: [], error: e instanceof Error ? e.message : String(e) };
}

/**
 * Applies a non-empty patch to `base` and diffs again (objectmatcher's $setElementOrder check).
 * Returns the re-derived patch and the patched object.
 */
function recheck(base: unknown, patch: Patch): { patch: Patch; patched: unknown } {
  const patched = strategicMerge(base, patch, APPLY);
  return { patch: createTwoWayMergePatch(base, patched), patched };
}

/** The three states as the diff sees them: toleration-merged, annotation and nulls stripped. */
interface ThreeWayInputs {
  o: unknown;
  m: unknown;
  c: unknown;
  /** The merged tolerations when the desired pod declares any (then `m` depends on the live pod). */
  tolerations: unknown[] | null;
}

function threeWayInputs(original: unknown, modified: unknown, current: unknown): ThreeWayInputs {
  const desiredTyped = typedPod(modified, 'objectmatcher');
  const liveTyped = typedPod(current, 'objectmatcher');
  const merged = mergeTolerations(desiredTyped, liveTyped) as JsonObject;
  const m = merged === desiredTyped ? preparedOnce(modified) : desiredForDiff(merged);
  const tolerations = merged === desiredTyped ? null : getIn(m, ['spec', 'tolerations']);
  return {
    o: original,
    m,
    c: liveForDiff(liveTyped, hasLastApplied(original)),
    tolerations: Array.isArray(tolerations) ? tolerations : null,
  };
}

function decideThreeWay({ o, m, c }: ThreeWayInputs): DiffDecision {
  try {
    const raw = createThreeWayMergePatch(o, m, c);
    if (isEmptyPatch(raw)) return unchanged(raw);
    const { patch, patched } = recheck(c, raw);
    if (isEmptyPatch(patch)) return unchanged(patch);
    // `from`: what koperator would set (its declared value); `to`: what the live pod holds.
    const fields = diffFields(c, patched).map((f) => ({ path: f.path, from: f.after, to: f.before }));
    return { changed: true, patch, fields };
  } catch (e) {
    return failed(e);
  }
}

// Decisions by (last-applied, desired, what of the live pod the diff can see): in a restart
// loop the first two are the same shared objects for every pod (states.ts decodes each
// annotation once) and the live pods differ only in what the diff cannot see (live-pod-key.ts),
// so each loop is decided once. Decisions are shared between recreations: read-only.
const threeWayDecisions = new BoundedCache<SharedDecision>(4096, 64 * 2 ** 20);

/**
 * A decision and the left-out elements it names, by position among the key's left-out
 * elements: it stands for another live pod with the same key only where that pod's elements
 * at those positions carry the same names. (The service-account mount's path is the same in
 * every pod and may be named; the token volume's random name, if named, makes a miss.)
 */
interface SharedDecision {
  decision: DiffDecision;
  named: Array<[number, string]>;
}

interface MemoKey {
  key: string;
  /** Live list elements the key leaves out by name (live-pod-key.ts). */
  unnamed: string[];
}

function threeWayMemoKey(original: unknown, modified: unknown, inputs: ThreeWayInputs): MemoKey | null {
  if (!isObject(original) || !isObject(modified)) return null;
  const { o, m, c, tolerations } = inputs;
  const modifiedBase = preparedOnce(modified);
  if (!directiveFree(o) || !directiveFree(modifiedBase)) return null;
  if (tolerations !== null && !tolerations.every(directiveFree)) return null;
  const live = liveKey(o, m, c);
  if (live === null) return null;
  const merged = tolerations === null ? '' : JSON.stringify(tolerations);
  return {
    key: `${objectId(original)}\u0000${objectId(modified)}\u0000${merged}\u0000${live.key}`,
    unnamed: live.unnamed,
  };
}

/** The memo key, or null (decide alone) when even keying fails on a hostile input (too deep). */
function memoKeyOrNull(original: unknown, modified: unknown, inputs: ThreeWayInputs): MemoKey | null {
  try {
    return threeWayMemoKey(original, modified, inputs);
  } catch {
    return null;
  }
}

/**
 * The left-out elements (by position) whose names `decision` spells, in its patch, fields or
 * error. Searched as text, as JSON spells them: a name found by coincidence elsewhere only
 * narrows what the decision is shared with.
 */
function namedIn(decision: DiffDecision, unnamed: string[]): Array<[number, string]> {
  if (unnamed.length === 0) return [];
  const text = JSON.stringify([decision.patch, decision.fields, decision.error ?? null]);
  const named: Array<[number, string]> = [];
  unnamed.forEach((k, i) => {
    if (text.includes(JSON.stringify(k).slice(1, -1))) named.push([i, k]);
  });
  return named;
}

export function threeWayDecision(original: unknown, modified: unknown, current: unknown): DiffDecision {
  let inputs: ThreeWayInputs;
  try {
    inputs = threeWayInputs(original, modified, current);
  } catch (e) {
    return failed(e);
  }
  const loop = keyingOf(original, modified);
  const memo = loop === null || !worthKeying(loop) ? null : memoKeyOrNull(original, modified, inputs);
  const known = memo === null ? undefined : threeWayDecisions.get(memo.key);
  if (loop !== null && memo !== null) loop.tries++;
  if (known && known.named.every(([i, k]) => memo?.unnamed[i] === k)) {
    if (loop !== null) loop.hits++;
    return known.decision;
  }
  const decision = decideThreeWay(inputs);
  if (memo !== null) threeWayDecisions.set(memo.key, { decision, named: namedIn(decision, memo.unnamed) });
  return decision;
}

// Keying a live pod costs about as much as deciding it. Where a webhook writes a new value
// into every pod (a rightsizer following usage), no two pods of the loop share a key and the
// memo only adds that cost, so a loop (last-applied and desired pair) whose first
// KEYING_TRIAL pods found no shared decision is decided without keys from then on. A hit
// saves only what deciding costs over keying (~40 of ~210 us a pod on the benchmark), so
// cutting off a loop that would have hit later loses little, while each trial pod of a loop
// that never hits costs a whole key (~170 us): four pods, enough for a loop whose first pod
// or two differ (created before a change) to show its repeats.
export const KEYING_TRIAL = 4;

interface Keying {
  tries: number;
  hits: number;
}

const keyingByLoop = new PairMemo<Keying>();

function keyingOf(original: unknown, modified: unknown): Keying | null {
  if (!isObject(original) || !isObject(modified)) return null;
  return keyingByLoop.get(original, modified, () => ({ tries: 0, hits: 0 }));
}

function worthKeying(k: Keying): boolean {
  return k.hits > 0 || k.tries < KEYING_TRIAL;
}

// The intent diff reads only last-applied and desired: shared objects in a loop.
const intentDecisions = new PairMemo<DiffDecision>();

export function intentDecision(original: unknown, modified: unknown): DiffDecision {
  if (!isObject(original) || !isObject(modified)) return decideIntent(original, modified);
  return intentDecisions.get(original, modified, () => decideIntent(original, modified));
}

function decideIntent(original: unknown, modified: unknown): DiffDecision {
  try {
    const o = original;
    const m = preparedOnce(modified);
    const raw = createTwoWayMergePatch(o, m);
    if (isEmptyPatch(raw)) return unchanged(raw);
    const { patch, patched } = recheck(o, raw);
    if (isEmptyPatch(patch)) return unchanged(patch);
    const fields = diffFields(o, patched).map((f) => ({ path: f.path, from: f.before, to: f.after }));
    return { changed: true, patch, fields };
  } catch (e) {
    return failed(e);
  }
}

/**
 * What koperator's annotator writes into `banzaicloud.com/last-applied` for a desired pod
 * (SetLastAppliedAnnotation): the pod as Go marshals it, without the annotation itself, with
 * nulls and empty strings dropped. The same object for the same desired pod; not to be mutated.
 */
export function lastAppliedConfiguration(desired: unknown): unknown {
  return preparedOnce(desired);
}

// Desired pods are shared objects (states.ts), so each is prepared once.
const preparedByPod = new WeakMap<object, unknown>();

function preparedOnce(pod: unknown): unknown {
  if (!isObject(pod)) return desiredForDiff(typedPod(pod, 'objectmatcher'));
  let prepared = preparedByPod.get(pod);
  if (prepared === undefined)
    preparedByPod.set(pod, (prepared = desiredForDiff(typedPod(pod, 'objectmatcher'))));
  return prepared;
}

// Small numbers standing for shared objects in memo keys.
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

function objectId(o: object): number {
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = nextObjectId++));
  return id;
}
