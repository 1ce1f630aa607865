// Merging a strategic merge patch into an object (apimachinery strategicpatch mergeMap), with
// the Pod's schema. Two modes, as upstream:
//   - apply (StrategicMergePatch, what the API server does with a PATCH): parallel lists
//     ($deleteFromPrimitiveList, $setElementOrder, $retainKeys) are executed and nulls that
//     match nothing are dropped;
//   - combine (inside CreateThreeWayMergePatch): one patch is merged into another, so the
//     parallel lists and nulls are carried over into the result instead of executed.
// The exported entry points deep-copy their inputs; the helpers below then work in place on
// those private copies, which keeps them close to the algorithm they follow.

import { cloneJson, goKind, isObject, type GoKind, type JsonObject } from './json-value';
import { listStrategy } from './pod-schema';
import {
  DELETE_DIRECTIVE,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  MERGE_DIRECTIVE,
  REPLACE_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
  StrategicMergeError,
  decodedCapacity,
  dedupeScalarsInPlace,
  deepEqualOrThrow,
  discardNullValues,
  elementKind,
  extractKey,
  hasOwn,
  removeDirectives,
  sameScalar,
} from './smp-directives';
import {
  findByMergeKey,
  isDeleteDirective,
  mergeKeyValueEqual,
  normalizeElementOrder,
  partitionMaps,
  partitionPrimitives,
} from './smp-order';

export interface MergeOptions {
  /** Execute parallel lists (apply) rather than carry them over (combine). */
  mergeParallelList: boolean;
  /** Drop nulls that delete nothing (apply) rather than keep them as deletions (combine). */
  ignoreUnmatchedNulls: boolean;
}

export const APPLY: MergeOptions = { mergeParallelList: true, ignoreUnmatchedNulls: true };
export const COMBINE: MergeOptions = { mergeParallelList: false, ignoreUnmatchedNulls: false };

/** The list strategy in the form mergeSlice wants: `set` lists merge without a key. */
function sliceMeta(path: string[]): { merge: boolean; mergeKey: string } {
  const s = listStrategy(path);
  if (s.kind === 'merge') return { merge: true, mergeKey: s.key };
  if (s.kind === 'set') return { merge: true, mergeKey: '' };
  return { merge: false, mergeKey: '' };
}

/**
 * StrategicMergePatch / mergeMap on the Pod schema, without the API server's final typed
 * decoding (so stray directive keys inside wholly added maps survive, as they do upstream).
 * Throws StrategicMergeError where apimachinery returns an error.
 */
export function strategicMerge(original: unknown, patch: unknown, options: MergeOptions = APPLY): JsonObject {
  if (!isObject(patch)) throw new StrategicMergeError('patch is not a JSON object');
  if (original !== null && original !== undefined && !isObject(original)) {
    throw new StrategicMergeError('document is not a JSON object');
  }
  // The document is copied on write (mergeMap copies each map it changes), so the result
  // shares every part the patch does not reach with `original`: applying a small patch to a
  // pod no longer copies the pod. The patch is consumed, so it is copied whole.
  return mergeMap(isObject(original) ? original : {}, cloneJson(patch), [], options);
}

function mergeMap(shared: JsonObject, patch: JsonObject, path: string[], o: MergeOptions): JsonObject {
  if (hasOwn(patch, DIRECTIVE_MARKER)) return mapDirective(patch[DIRECTIVE_MARKER], patch);
  // Spread defines keys as own data properties, so a `__proto__` key stays a key.
  const original: JsonObject = { ...shared };
  applyRetainKeys(original, patch, o);
  mergeOrderedLists(original, patch, path, o);

  for (const patchKey of Object.keys(patch)) {
    const patchV = patch[patchKey];
    let k = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      if (!o.mergeParallelList) {
        original[patchKey] = patchV;
        continue;
      }
      k = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }

    if (patchV === null) {
      delete original[k];
      if (o.ignoreUnmatchedNulls) continue;
    }

    if (!hasOwn(original, k) || goKind(original[k]) !== goKind(patchV)) {
      // New field, or a different type: the patch value is taken whole.
      if (!isDeleteList) setWhole(original, k, patchV, o);
      continue;
    }

    const childPath = [...path, k];
    const current = original[k];
    if (isObject(current) && isObject(patchV)) {
      original[k] = mergeMap(current, patchV, childPath, o);
    } else if (Array.isArray(current) && Array.isArray(patchV)) {
      const meta = sliceMeta(childPath);
      original[k] = mergeSliceHandler(current, patchV, childPath, meta.merge, meta.mergeKey, isDeleteList, o);
    } else {
      original[k] = patchV;
    }
  }
  return original;
}

function setWhole(target: JsonObject, k: string, v: unknown, o: MergeOptions): void {
  const cleaned = removeDirectives(o.ignoreUnmatchedNulls ? discardNullValues(v) : v);
  if (cleaned.keep) target[k] = cleaned.value;
  else delete target[k];
}

/** A map-level `$patch`: replace takes the patch as the new value, delete empties the map. */
function mapDirective(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw new StrategicMergeError(`invalid $patch directive for a map: ${JSON.stringify(directive)}`);
}

/** `$retainKeys`: when applying, clear the fields the list does not name; when combining, carry it over. */
function applyRetainKeys(original: JsonObject, patch: JsonObject, o: MergeOptions): void {
  if (!hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retain = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!o.mergeParallelList) {
    if (hasOwn(original, RETAIN_KEYS_DIRECTIVE))
      deepEqualOrThrow(original[RETAIN_KEYS_DIRECTIVE], retain, RETAIN_KEYS_DIRECTIVE);
    else original[RETAIN_KEYS_DIRECTIVE] = retain;
    return;
  }
  if (!Array.isArray(retain)) throw new StrategicMergeError('$retainKeys is not a list');
  const keep = new Set(retain.filter((r): r is string => typeof r === 'string'));
  for (const [k, v] of Object.entries(patch)) {
    if (
      v === null ||
      k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) ||
      k.startsWith(SET_ELEMENT_ORDER_PREFIX)
    )
      continue;
    if (!keep.has(k)) throw new StrategicMergeError(`field ${k} is in the patch but not in $retainKeys`);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<list>` (mergePatchIntoOriginal): merges the named list now and orders the
 * result by the directive, then by the patch list, then by the original.
 */
function mergeOrderedLists(original: JsonObject, patch: JsonObject, path: string[], o: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const order = patch[key];
    if (!o.mergeParallelList) {
      if (hasOwn(original, key)) deepEqualOrThrow(original[key], order, key);
      else original[key] = order;
    }
    delete patch[key];
    if (!Array.isArray(order)) throw new StrategicMergeError(`${key} is not a list`);
    const listKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = hasOwn(original, listKey);
    const foundPatch = hasOwn(patch, listKey);
    const originalList = foundOriginal ? original[listKey] : undefined;
    const patchList = foundPatch ? patch[listKey] : undefined;
    if (foundOriginal && !Array.isArray(originalList))
      throw new StrategicMergeError(`${listKey} is not a list`);
    if (foundPatch && !Array.isArray(patchList))
      throw new StrategicMergeError(`${listKey} in the patch is not a list`);
    const origL = Array.isArray(originalList) ? originalList : [];
    const patchL = Array.isArray(patchList) ? patchList : [];
    const childPath = [...path, listKey];
    const meta = sliceMeta(childPath);
    validateAgainstOrder(patchL, order, meta.mergeKey);

    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = origL;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchL).value as unknown[];
    else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(origL, patchL, childPath, meta.merge, meta.mergeKey, false, o);
    } else continue;

    const [inPatch, serverOnly] =
      meta.mergeKey === '' ? partitionPrimitives(merged, order) : partitionMaps(merged, order, meta.mergeKey);
    const kind = elementKind(origL, patchL);
    const serverOrder =
      o.mergeParallelList && foundOriginal && foundPatch && meta.merge
        ? aliasedServerOrder(origL, patchL, meta.mergeKey, kind)
        : origL;
    original[listKey] = normalizeElementOrder(inPatch, serverOnly, order, serverOrder, meta.mergeKey, kind);
    delete patch[listKey];
  }
}

/**
 * The live list as mergePatchIntoOriginal orders by after merging into it. Upstream merges the
 * patch into the very slice it then orders by: deleteMatchingEntries removes elements with
 * `append(s[:k], s[k+1:]...)`, which shifts the slice's backing array in place, and a new
 * element appended where that left room is written into it. The order list it reads is
 * therefore the backing array's first len(live) slots after those writes: with a deleted
 * element and an added one, the added one sits where the live list ended, so live-only
 * elements come before it. A list decoded from JSON has a power-of-two capacity (append
 * growth from empty), which decides whether an append still lands in that array.
 */
function aliasedServerOrder(live: unknown[], patch: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  if (kind !== 'map') {
    const all = [...live, ...patch];
    if (all.length > decodedCapacity(live.length)) return live;
    dedupeScalarsInPlace(all);
    return all.slice(0, live.length);
  }
  if (mergeKey === '') return live;
  const buf = [...live];
  const cap = decodedCapacity(live.length);
  let n = live.length;
  const keyAt = (i: number): unknown => (isObject(buf[i]) ? (buf[i] as JsonObject)[mergeKey] : undefined);
  const find = (key: unknown): number => {
    for (let i = 0; i < n; i++)
      if (isObject(buf[i]) && hasOwn(buf[i] as JsonObject, mergeKey) && sameScalar(keyAt(i), key)) return i;
    return -1;
  };
  let replace = false;
  const rest: JsonObject[] = [];
  for (const v of patch) {
    if (!isObject(v)) return live;
    if (!hasOwn(v, DIRECTIVE_MARKER)) {
      rest.push(v);
      continue;
    }
    if (v[DIRECTIVE_MARKER] === REPLACE_DIRECTIVE) replace = true;
    else if (v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) {
      for (let k = find(v[mergeKey]); k >= 0; k = find(v[mergeKey])) {
        for (let i = k; i < n - 1; i++) buf[i] = buf[i + 1];
        n--;
      }
    }
  }
  if (!replace) {
    for (const v of rest) {
      const at = find(v[mergeKey]);
      if (at >= 0) continue;
      if (n >= cap) break;
      buf[n++] = v;
    }
  }
  return buf.slice(0, live.length);
}

/** The patch list's items (deletions and directive items aside) must appear in $setElementOrder, in its order. */
function validateAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    for (const e of patchList) if (!isObject(e)) throw new StrategicMergeError('list element is not a map');
    items = patchList.filter((e) => !isDeleteDirective(e));
  }
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p];
    if (isObject(item) && hasOwn(item, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[s], mergeKey)) p++;
    s++;
  }
  if (p < items.length && s >= order.length) {
    throw new StrategicMergeError('the order in the patch list does not match the $setElementOrder list');
  }
}

function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  path: string[],
  merge: boolean,
  mergeKey: string,
  isDeleteList: boolean,
  o: MergeOptions,
): unknown[] {
  // Deletion lists are executed whatever the field's strategy; atomic lists are replaced verbatim.
  if (merge || isDeleteList) return mergeSlice(original, patch, path, mergeKey, o, isDeleteList);
  return patch;
}

function mergeSlice(
  original: unknown[],
  patch: unknown[],
  path: string[],
  mergeKey: string,
  o: MergeOptions,
  isDeleteList: boolean,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  let base = original;
  let items = patch;
  let merged: unknown[];
  if (kind !== 'map') {
    if (o.mergeParallelList && isDeleteList)
      return original.filter((v) => !patch.some((d) => sameScalar(d, v)));
    // append(original, patch...) writes into original's array when it has room, and
    // deduplicateScalars then rewrites that array in place: the live order read below is it.
    const buf = [...original, ...patch];
    merged = buf.slice(0, dedupeScalarsInPlace(buf));
    if (o.mergeParallelList && buf.length <= decodedCapacity(original.length))
      base = buf.slice(0, original.length);
  } else {
    if (mergeKey === '')
      throw new StrategicMergeError(`cannot merge lists without merge key for ${path.join('.')}`);
    [base, items] = applyListDirectives(original, patch, mergeKey);
    merged = [...base];
    for (const item of items) {
      const map = asMap(item);
      if (!hasOwn(map, mergeKey)) throw new StrategicMergeError(`map has no merge key ${mergeKey}`);
      const at = findByMergeKey(merged, mergeKey, map[mergeKey]);
      if (at >= 0) merged[at] = mergeMap(asMap(merged[at]), map, path, o);
      else merged.push(map);
    }
  }
  const [inPatch, serverOnly] =
    mergeKey === '' ? partitionPrimitives(merged, items) : partitionMaps(merged, items, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, items, base, mergeKey, kind);
}

function asMap(v: unknown): JsonObject {
  if (!isObject(v)) throw new StrategicMergeError(`list element is not a map: ${JSON.stringify(v)}`);
  return v;
}

/**
 * Element-level `$patch` in a merge list: delete removes every element with that key,
 * replace makes the patch's other elements the whole list.
 */
function applyListDirectives(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  let base = original;
  const rest: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const item = asMap(v);
    if (!hasOwn(item, DIRECTIVE_MARKER)) {
      rest.push(v);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!hasOwn(item, mergeKey))
        throw new StrategicMergeError(`delete directive has no merge key ${mergeKey}`);
      base = base.filter((e) => {
        const m = asMap(e);
        return !(hasOwn(m, mergeKey) && sameScalar(m[mergeKey], item[mergeKey]));
      });
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw new StrategicMergeError('merging lists cannot yet be specified in the patch');
    } else {
      throw new StrategicMergeError(`invalid $patch directive: ${JSON.stringify(directive)}`);
    }
  }
  return replace ? [rest, []] : [base, rest];
}
