// Creating strategic merge patches for Pods (apimachinery pkg/util/strategicpatch:
// CreateTwoWayMergePatch, CreateThreeWayMergePatch), reimplemented on decoded JSON with the
// Pod schema of pod-schema.ts. Patches are in apimachinery's wire format, keys sorted as Go
// marshals them.
//
// Values are compared as JSON, quantities included: '2Gi' and '2147483648' differ, as they do
// upstream. Callers put states through the typed round trip (typed-pod.ts) first, which writes
// every quantity in its canonical form, as the API server and koperator's Go structs do.
//
// An absent input is the empty document; one that is not a JSON object is refused, as
// apimachinery refuses to decode it.
// Malformed lists (a merge-list element without its key, mixed element types) throw
// StrategicMergeError where apimachinery returns an error.

import { goSort } from './go-sort';
import { PairMemo } from './pair-memo';
import {
  cloneJson,
  deepEqual,
  goKind,
  isObject,
  scalarString,
  sortKeysDeep,
  type JsonObject,
} from './json-value';
import { hasRetainKeys, listStrategy } from './pod-schema';
import {
  DELETE_DIRECTIVE,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
  StrategicMergeError,
  dedupeScalars,
  elementKind,
  hasOwn,
  sortScalars,
} from './smp-directives';
import { COMBINE, strategicMerge } from './smp-merge';
import { mergeKeyValueEqual, normalizeSliceOrder } from './smp-order';

export { StrategicMergeError } from './smp-directives';

/** A strategic merge patch in apimachinery's wire format ($setElementOrder/..., $patch, $retainKeys, $deleteFromPrimitiveList/...). */
export type Patch = Record<string, unknown>;

interface DiffOptions {
  /** Emit $setElementOrder lists for merge lists whose content or order changed. */
  setElementOrder: boolean;
  /** Keep only deletions (the "what did the author stop declaring" half of a three-way patch). */
  ignoreChangesAndAdditions: boolean;
  /** Keep no deletions (the "what differs from the live object" half). */
  ignoreDeletions: boolean;
  /** Emit $retainKeys for the map being diffed (elements of a retainKeys list). */
  buildRetainKeys: boolean;
}

const TWO_WAY: DiffOptions = {
  setElementOrder: true,
  ignoreChangesAndAdditions: false,
  ignoreDeletions: false,
  buildRetainKeys: false,
};

/** A document: absent (or JSON null) is empty; anything but an object is refused (ErrBadJSONDoc). */
function asDocument(v: unknown): JsonObject {
  if (v === null || v === undefined) return {};
  if (!isObject(v)) throw new StrategicMergeError('invalid JSON document');
  return v;
}

/** The patch that turns `original` into `modified`. */
export function createTwoWayMergePatch(original: unknown, modified: unknown): Patch {
  return sortKeysDeep(diffMaps(asDocument(original), asDocument(modified), [], TWO_WAY)) as Patch;
}

/**
 * kubectl-apply's patch: every value `modified` declares that `current` holds differently
 * (anything only in `current` is left alone), plus deletions of what `original` declared and
 * `modified` no longer does. Always computed with overwrite=true (no conflict check), as
 * objectmatcher calls it.
 */
export function createThreeWayMergePatch(original: unknown, modified: unknown, current: unknown): Patch {
  const m = asDocument(modified);
  const delta = diffMaps(asDocument(current), m, [], { ...TWO_WAY, ignoreDeletions: true });
  const deletions = deletionsOf(asDocument(original), m);
  // Combining the two is a merge of one patch into the other: parallel lists and nulls are
  // carried over rather than executed.
  return sortKeysDeep(strategicMerge(deletions, delta, COMBINE)) as Patch;
}

// The deletions half reads only `original` and `modified`, which in a restart loop are the same
// objects for every pod: it is computed once per pair. Inputs are never mutated, and neither
// is this patch (strategicMerge copies on write).
const deletionsByPair = new PairMemo<JsonObject>();

function deletionsOf(original: JsonObject, modified: JsonObject): JsonObject {
  return deletionsByPair.get(original, modified, () =>
    diffMaps(original, modified, [], { ...TWO_WAY, ignoreChangesAndAdditions: true }),
  );
}

/**
 * True when the two-way patch from a document holding `value` at `key` (under the map at
 * `parentPath`) to a deep copy of it (as strategicMerge makes) says nothing about it and
 * raises no error. Not always so: an unsorted primitive merge list still gets a
 * $setElementOrder, a malformed merge list throws, and a `__proto__` key does not survive
 * the copy.
 */
export function selfPatchIsEmpty(parentPath: string[], key: string, value: unknown): boolean {
  if (key === '__proto__') return false;
  if (!key.startsWith('$') && (value === null || typeof value !== 'object')) return true;
  try {
    const patch = diffMaps({ [key]: value }, { [key]: cloneJson(value) }, parentPath, TWO_WAY);
    return Object.keys(patch).length === 0;
  } catch {
    return false;
  }
}

export function isEmptyPatch(p: Patch): boolean {
  return isObject(p) && Object.keys(p).length === 0;
}

function diffMaps(original: JsonObject, modified: JsonObject, path: string[], o: DiffOptions): JsonObject {
  const patch: JsonObject = {};
  const retainKeys: string[] = [];
  for (const [k, modifiedValue] of Object.entries(modified)) {
    if (o.buildRetainKeys && modifiedValue !== null && modifiedValue !== undefined) retainKeys.push(k);
    if (!hasOwn(original, k)) {
      if (!o.ignoreChangesAndAdditions) patch[k] = modifiedValue;
      continue;
    }
    const originalValue = original[k];
    if (k === DIRECTIVE_MARKER) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') {
        throw new StrategicMergeError(`invalid value for special key: ${DIRECTIVE_MARKER}`);
      }
      if (originalValue !== modifiedValue) patch[k] = modifiedValue;
      continue;
    }
    const childPath = [...path, k];
    if (goKind(originalValue) !== goKind(modifiedValue)) {
      if (!o.ignoreChangesAndAdditions) patch[k] = modifiedValue;
      continue;
    }
    // The re-check diffs a pod against itself patched: most parts are the same objects.
    if (originalValue === modifiedValue && selfDiffIsEmpty(originalValue, childPath)) continue;
    if (isObject(originalValue) && isObject(modifiedValue)) {
      // No map field of a Pod carries retainKeys itself; only list elements do.
      const sub = diffMaps(originalValue, modifiedValue, childPath, { ...o, buildRetainKeys: false });
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (Array.isArray(originalValue) && Array.isArray(modifiedValue)) {
      diffSliceField(k, originalValue, modifiedValue, childPath, patch, o);
    } else if (!o.ignoreChangesAndAdditions && !deepEqual(originalValue, modifiedValue)) {
      patch[k] = modifiedValue;
    }
  }
  if (!o.ignoreDeletions) {
    for (const k of Object.keys(original)) if (!hasOwn(modified, k)) patch[k] = null;
  }
  // $retainKeys goes out only when something changes, or when a field must be cleared.
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalField(original, modified))) {
    patch[RETAIN_KEYS_DIRECTIVE] = sortScalars(retainKeys);
  }
  return patch;
}

/** Deeper than this (hostile input only) the self-diff is left to the diff itself. */
const SELF_DIFF_MAX_DEPTH = 64;

/**
 * True when diffing `v` (under `path`) against itself is sure to give nothing and raise
 * nothing, whatever the options: a walk that allocates only paths, where the diff would sort
 * and copy every merge list and build a patch at every level. False (the diff decides) on
 * anything that can surface in a self-diff: a directive or `__proto__` key, a list of scalars
 * (an unsorted one gets a $setElementOrder), a merge list whose elements are not all maps
 * with a scalar merge key, a non-empty set list.
 */
function selfDiffIsEmpty(v: unknown, path: string[], depth = 0): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (depth > SELF_DIFF_MAX_DEPTH) return false;
  if (!Array.isArray(v)) {
    for (const k of Object.keys(v)) {
      const e = (v as JsonObject)[k];
      if (k.startsWith('$') || k === '__proto__') return false;
      if (e !== null && typeof e === 'object' && !selfDiffIsEmpty(e, [...path, k], depth + 1)) return false;
    }
    return true;
  }
  const strategy = listStrategy(path);
  if (strategy.kind === 'atomic' || v.length === 0) return true;
  if (strategy.kind !== 'merge') return false;
  for (const e of v) {
    if (!isObject(e) || !hasOwn(e, strategy.key)) return false;
    const key = e[strategy.key];
    if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') return false;
    if (!selfDiffIsEmpty(e, path, depth + 1)) return false;
  }
  return true;
}

function hasAdditionalField(original: JsonObject, modified: JsonObject): boolean {
  return Object.entries(original).some(([k, v]) => v !== null && v !== undefined && !hasOwn(modified, k));
}

function diffSliceField(
  k: string,
  original: unknown[],
  modified: unknown[],
  path: string[],
  patch: JsonObject,
  o: DiffOptions,
): void {
  const strategy = listStrategy(path);
  if (strategy.kind === 'atomic') {
    if (!o.ignoreChangesAndAdditions && !deepEqual(original, modified)) patch[k] = modified;
    return;
  }
  const mergeKey = strategy.kind === 'merge' ? strategy.key : '';
  const r = diffLists(original, modified, path, mergeKey, { ...o, buildRetainKeys: hasRetainKeys(path) });
  if (r.add.length > 0) patch[k] = r.add;
  if (r.del.length > 0) patch[`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/${k}`] = r.del;
  if (r.order.length > 0) patch[`${SET_ELEMENT_ORDER_PREFIX}/${k}`] = r.order;
}

interface ListDiff {
  /** Changed and added elements, then `$patch: delete` elements (merge lists of maps). */
  add: unknown[];
  /** Scalars to delete ($deleteFromPrimitiveList). */
  del: unknown[];
  /** The $setElementOrder list. */
  order: unknown[];
}

const NO_LIST_DIFF: ListDiff = { add: [], del: [], order: [] };

function diffLists(
  original: unknown[],
  modified: unknown[],
  path: string[],
  mergeKey: string,
  o: DiffOptions,
): ListDiff {
  if (original.length === 0) {
    // An empty original list: the modified list goes out whole, with no order directive.
    if (modified.length === 0 || o.ignoreChangesAndAdditions) return NO_LIST_DIFF;
    return { add: modified, del: [], order: [] };
  }
  const kind = elementKind(original, modified);
  if (kind === 'map') {
    const { changes, deletes } = diffListsOfMaps(original, modified, path, mergeKey, o);
    const add = [...normalizeSliceOrder(changes, modified, mergeKey, 'map'), ...deletes];
    const orderSame = isOrderSame(original, modified, mergeKey);
    const wantOrder =
      o.setElementOrder &&
      ((!o.ignoreChangesAndAdditions && (add.length > 0 || !orderSame)) ||
        (!o.ignoreDeletions && add.length > 0));
    // Every element was checked for its merge key by the walk above.
    const order = wantOrder
      ? modified.map((v) => ({ [mergeKey]: isObject(v) ? v[mergeKey] : undefined }))
      : [];
    return { add, del: [], order };
  }
  const { add, del } = diffListsOfScalars(original, modified, o);
  // Upstream sorts `original` in place while diffing and then compares it with `modified`, so
  // an unsorted but unchanged primitive list still gets a $setElementOrder. Reproduced on purpose.
  const wantOrder =
    o.setElementOrder &&
    ((!o.ignoreDeletions && del.length > 0) ||
      (!o.ignoreChangesAndAdditions && !deepEqual(sortScalars(original), modified)));
  return { add: normalizeSliceOrder(add, modified, mergeKey, kind), del, order: wantOrder ? modified : [] };
}

function isOrderSame(original: unknown[], modified: unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  return modified.every((m, i) => mergeKeyValueEqual(original[i], m, mergeKey));
}

/**
 * sortMergeListsByNameArray: sorted by the merge key's %v rendering with sort.Sort and a
 * `<=` comparator, so elements sharing a key come out in reverse list order (and pair up so).
 */
function sortByMergeKey(
  list: unknown[],
  mergeKey: string,
): Array<{ elem: JsonObject; key: unknown; keyString: string }> {
  const keyed = list.map((e) => {
    if (!isObject(e)) throw new StrategicMergeError('list element is not a map');
    if (!hasOwn(e, mergeKey))
      throw new StrategicMergeError(`map has no merge key ${mergeKey}: ${JSON.stringify(e)}`);
    return { elem: e, key: e[mergeKey], keyString: scalarString(e[mergeKey]) };
  });
  return goSort(keyed, (a, b) => a.keyString <= b.keyString);
}

/** Walks both lists in merge-key order: matching keys recurse, others are additions or deletions. */
function diffListsOfMaps(
  original: unknown[],
  modified: unknown[],
  path: string[],
  mergeKey: string,
  o: DiffOptions,
): { changes: unknown[]; deletes: unknown[] } {
  const orig = sortByMergeKey(original, mergeKey);
  const mod = sortByMergeKey(modified, mergeKey);
  const changes: unknown[] = [];
  const deletes: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < orig.length || j < mod.length) {
    const a = orig[i];
    const b = mod[j];
    if (a !== undefined && b !== undefined && a.keyString === b.keyString) {
      const sub = a.elem === b.elem && selfDiffIsEmpty(a.elem, path) ? {} : diffMaps(a.elem, b.elem, path, o);
      if (Object.keys(sub).length > 0) changes.push({ ...sub, [mergeKey]: b.key });
      i++;
      j++;
    } else if (a === undefined || (b !== undefined && a.keyString > b.keyString)) {
      if (!o.ignoreChangesAndAdditions) changes.push(b.elem);
      j++;
    } else {
      if (!o.ignoreDeletions) deletes.push({ [mergeKey]: a.key, [DIRECTIVE_MARKER]: DELETE_DIRECTIVE });
      i++;
    }
  }
  return { changes, deletes };
}

/** Walks both lists sorted by %v: what only `modified` has is added, what only `original` has deleted. */
function diffListsOfScalars(
  original: unknown[],
  modified: unknown[],
  o: DiffOptions,
): { add: unknown[]; del: unknown[] } {
  const orig = sortScalars(original);
  const mod = sortScalars(modified);
  const add: unknown[] = [];
  const del: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < orig.length || j < mod.length) {
    const a = i < orig.length ? scalarString(orig[i]) : undefined;
    const b = j < mod.length ? scalarString(mod[j]) : undefined;
    if (a !== undefined && b !== undefined && a === b) {
      i++;
      j++;
    } else if (a === undefined || (b !== undefined && a > b)) {
      if (!o.ignoreChangesAndAdditions) add.push(mod[j]);
      j++;
    } else {
      if (!o.ignoreDeletions) del.push(orig[i]);
      i++;
    }
  }
  return { add, del: dedupeScalars(del) };
}
