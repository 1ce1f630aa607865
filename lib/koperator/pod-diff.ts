// What koperator decides about a broker pod, from its three states (see
// shared/spec/koperator-diff-semantics.md):
//   - threeWayDecision: koperator before the fix. handleRollingUpgrade merges tolerations, then
//     objectmatcher's PatchMaker.Calculate diffs the live pod against the desired one
//     (CreateThreeWayMergePatch) and re-derives a non-empty patch as a two-way patch from the
//     live pod to the live pod with the patch applied, so a bare $setElementOrder collapses.
//   - intentDecision: the fix (podSpecIntentChanged): a two-way patch from last-applied to
//     desired, with the same $setElementOrder re-check; the live pod is never consulted.
// Both strip the last-applied annotation and objectmatcher's nulls/empty strings first.

import { diffFields } from '../k8s/field-diff';
import { isObject, type JsonObject } from '../k8s/json-value';
import { LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import { stripNulls } from '../k8s/normalize';
import { APPLY, strategicMerge } from '../k8s/smp-merge';
import {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  isEmptyPatch,
  type Patch,
} from '../k8s/strategic-merge';
import { mergeTolerations } from './tolerations';

export interface FieldDiff {
  path: string;
  from: unknown;
  to: unknown;
}

export interface DiffDecision {
  changed: boolean;
  patch: Patch;
  fields: FieldDiff[];
  /**
   * Set when the patch could not be computed (a malformed pod). koperator logs such an error
   * and carries on into the rolling upgrade, so `changed` is then true with an empty patch.
   */
  error?: string;
}

/** The annotation is bookkeeping, not desired state; objectmatcher never diffs it against itself. */
function withoutLastApplied(pod: unknown): unknown {
  if (!isObject(pod) || !isObject(pod.metadata) || !isObject(pod.metadata.annotations)) return pod;
  const annotations: JsonObject = { ...pod.metadata.annotations };
  if (!(LAST_APPLIED_ANNOTATION in annotations)) return pod;
  delete annotations[LAST_APPLIED_ANNOTATION];
  const metadata: JsonObject = { ...pod.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return { ...pod, metadata };
}

function prepare(pod: unknown): unknown {
  return stripNulls(withoutLastApplied(pod));
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

export function threeWayDecision(original: unknown, modified: unknown, current: unknown): DiffDecision {
  try {
    const desired = mergeTolerations(modified, current);
    const o = prepare(original);
    const m = prepare(desired);
    const c = prepare(current);
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

export function intentDecision(original: unknown, modified: unknown): DiffDecision {
  try {
    const o = prepare(original);
    const m = prepare(modified);
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
