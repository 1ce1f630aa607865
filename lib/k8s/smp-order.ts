// Element order in merged lists (apimachinery strategicpatch, "preserve order in strategic
// merge patch"): the order is $setElementOrder first, then the patch list's, then the live
// list's. Items named by the patch are sorted by the patch order, server-only items by the live
// order, and the two runs are interleaved by where they sit in the live list.

import { goSliceStable } from './go-sort';
import { isObject, type GoKind } from './json-value';
import {
  DELETE_DIRECTIVE,
  DIRECTIVE_MARKER,
  hasOwn,
  sameScalar,
  StrategicMergeError,
} from './smp-directives';

/** What an element is matched by: its merge key's value (maps) or itself; nil as null. */
function identityOf(e: unknown, mergeKey: string, kind: GoKind): unknown {
  const v = kind === 'map' ? (isObject(e) ? e[mergeKey] : undefined) : e;
  return v ?? null;
}

/**
 * A lookup of an item's position in `list` (maps matched by merge key, scalars by value; -1
 * if absent): the first position of each identity, found once, instead of a scan per lookup
 * (ordering a pod's lists was quadratic). A Map matches as sameScalar does: strict equality,
 * as JSON values carry no NaN.
 */
function positionsOf(list: readonly unknown[], mergeKey: string, kind: GoKind): (v: unknown) => number {
  const first = new Map<unknown, number>();
  list.forEach((e, i) => {
    const id = identityOf(e, mergeKey, kind);
    if (!first.has(id)) first.set(id, i);
  });
  return (v) => first.get(identityOf(v, mergeKey, kind)) ?? -1;
}

function requireMergeKey(lists: readonly unknown[][], mergeKey: string): void {
  for (const l of lists) {
    for (const e of l) {
      if (!isObject(e)) throw new StrategicMergeError(`list element is not a map: ${JSON.stringify(e)}`);
      if (!hasOwn(e, mergeKey))
        throw new StrategicMergeError(`map has no merge key ${mergeKey}: ${JSON.stringify(e)}`);
    }
  }
}

export function isDeleteDirective(e: unknown): boolean {
  return isObject(e) && e[DIRECTIVE_MARKER] === DELETE_DIRECTIVE;
}

/**
 * Sorts `toSort` by position in `order` with sort.SliceStable and upstream's comparator, which
 * answers "less" whenever either item is absent from `order` (so where such an item lands is
 * what the algorithm makes of it); `$patch: delete` items go last, unsorted.
 */
export function normalizeSliceOrder(
  toSort: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  let items = [...toSort];
  let deletes: unknown[] = [];
  if (kind === 'map') {
    requireMergeKey([items, [...order]], mergeKey);
    deletes = items.filter(isDeleteDirective);
    items = items.filter((e) => !isDeleteDirective(e));
  }
  const at = positionsOf(order, mergeKey, kind);
  const ranked = items.map((e) => ({ e, at: at(e) }));
  const sorted = goSliceStable(ranked, (a, b) => (a.at >= 0 && b.at >= 0 ? a.at < b.at : true));
  return [...sorted.map((r) => r.e), ...deletes];
}

/**
 * Interleaves two sorted runs: `left` (server-only items) goes before `right` (patch items)
 * only where both sit in `serverOrder` and left comes first there.
 */
export function mergeSortedSlice(
  left: readonly unknown[],
  right: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const out: unknown[] = [];
  const at = positionsOf(serverOrder, mergeKey, kind);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) {
      out.push(right[j++]);
    } else if (j >= right.length) {
      out.push(left[i++]);
    } else {
      const li = at(left[i]);
      const ri = at(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

export function normalizeElementOrder(
  patchItems: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const p = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** Splits `items` into those present in `by` (by value) and the rest. */
export function partitionPrimitives(
  items: readonly unknown[],
  by: readonly unknown[],
): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of items) (by.some((b) => sameScalar(b, v)) ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

/** Splits maps into those whose merge key appears in `by` and the rest; every map must carry the key. */
export function partitionMaps(
  items: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of items) {
    if (!isObject(v)) throw new StrategicMergeError(`list element is not a map: ${JSON.stringify(v)}`);
    if (!hasOwn(v, mergeKey)) throw new StrategicMergeError(`map has no merge key ${mergeKey}`);
    (findByMergeKey(by, mergeKey, v[mergeKey]) >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** findMapInSliceBasedOnKeyValue: the index of the first map whose merge key equals `value`. */
export function findByMergeKey(list: readonly unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (!isObject(e)) throw new StrategicMergeError(`value for key ${i} is not a map`);
    if (hasOwn(e, mergeKey) && sameScalar(e[mergeKey], value)) return i;
  }
  return -1;
}

export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return sameScalar(left, right);
  if (!isObject(left) || !isObject(right)) throw new StrategicMergeError('list element is not a map');
  if (!hasOwn(left, mergeKey) || !hasOwn(right, mergeKey)) {
    throw new StrategicMergeError(`map has no merge key ${mergeKey}`);
  }
  return sameScalar(left[mergeKey], right[mergeKey]);
}
