// A key for the part of a live pod that a three-way strategic merge patch, and objectmatcher's
// re-check of it, can depend on. In a restart loop every deleted pod is compared with the same
// last-applied and desired pods, and the live pods differ only in what neither of those
// declares (name, uid, resourceVersion, timestamps, nodeName, status): a decision keyed by the
// rest is computed once per loop.
//
// Why leaving those parts out cannot change a decision (all inputs already stripped of nulls):
//   - the delta half of CreateThreeWayMergePatch walks the keys of `modified` only, and the
//     deletions half never reads `current`;
//   - so the patch names, along every path of maps from the root, only keys of `original` or
//     `modified` (provided neither carries directive keys, which could make a map-level
//     `$patch: replace` that drops everything else);
//   - applying that patch to `current` leaves every other key as it was, so the re-check's
//     two-way diff and the field diff compare each left-out value with a copy of itself, which
//     is empty unless the value is odd (an unsorted primitive merge list, a malformed merge
//     list, a `__proto__` key): `selfPatchIsEmpty` checks exactly that, and an odd value makes
//     the pod unkeyable, so it is decided on its own.
// A value under a key that the patch can replace whole (the key is in `original` only, or
// `modified` has no map there) is kept whole in the key, since a field diff reports all of it.
// Merge-keyed lists are walked the same way, element by element (keptOfList): what the diff
// cannot see there is an element no merge key of `original` or `modified` names.

import { contentKey } from './content-id';
import { hasOwn, sameScalar } from './smp-directives';
import { isObject, scalarString, type JsonObject } from './json-value';
import { hasRetainKeys, listStrategy } from './pod-schema';
import { selfPatchIsEmpty } from './strategic-merge';

export interface LiveKey {
  key: string;
  /**
   * The merge keys (as rendered) of list elements the key stands in for with `?`, in
   * traversal order. A decision whose patch or fields name one of them depends on it: it
   * stands only for pods whose element at that position has the same name (pod-diff.ts).
   */
  unnamed: string[];
}

/**
 * A key for `current` without the parts neither `original` nor `modified` names, or null
 * when a left-out part could still matter (see above) or an input is not a pod-like object.
 * The caller checks that `original` and `modified` are `directiveFree` (it can cache that).
 */
export function liveKey(original: unknown, modified: unknown, current: unknown): LiveKey | null {
  if (!isObject(original) || !isObject(modified) || !isObject(current)) return null;
  const unnamed: string[] = [];
  const key = keptOf(current, original, modified, [], unnamed);
  return key === null ? null : { key, unnamed };
}

/** The key of what is kept of `current`: recursed maps spelled out, whole values by content. */
function keptOf(
  current: JsonObject,
  original: JsonObject | undefined,
  modified: JsonObject,
  path: string[],
  unnamed: string[],
): string | null {
  let out = '{';
  for (const k of Object.keys(current)) {
    const v = current[k];
    const inOriginal = original !== undefined && hasOwn(original, k);
    const inModified = hasOwn(modified, k);
    if (!inOriginal && !inModified) {
      if (!selfPatchIsEmpty(path, k, v)) return null;
      continue;
    }
    const m = inModified ? modified[k] : undefined;
    const o = inOriginal ? original[k] : undefined;
    let part: string | null;
    if (isObject(m) && isObject(v)) {
      part = keptOf(v, isObject(o) ? o : undefined, m, [...path, k], unnamed);
      if (part === null) return null;
    } else if (Array.isArray(m) && Array.isArray(v)) {
      part = listKeyOf(v, Array.isArray(o) ? o : undefined, m, path, k, unnamed);
      if (part === null) return null;
    } else {
      part = contentKey(v);
    }
    out += `${JSON.stringify(k)}:${part},`;
  }
  return `${out}}`;
}

// The pods of a loop share their lists as objects (the projection interns a pod's spec
// members, stripNulls keeps clean parts), so a list's key is remembered by identity, with the
// lists it was keyed against: walking it element by element for every pod cost more than the
// decisions the memo saves.
interface ListKey {
  /** Where the list was keyed: an interned list may stand at two places. */
  at: string;
  original: unknown[] | undefined;
  modified: unknown[];
  part: string | null;
  unnamed: string[];
}

const listKeys = new WeakMap<unknown[], ListKey>();

// A list's key spells every element, and the memo hashes the whole pod key at every lookup:
// each distinct list key stands in it as a short id. Ids are never reused for another key,
// so starting the table over only costs misses.
const MAX_LIST_IDS = 65_536;
const listIds = new Map<string, string>();
let nextListId = 0;

function shortId(part: string): string {
  let id = listIds.get(part);
  if (id === undefined) {
    if (listIds.size >= MAX_LIST_IDS) listIds.clear();
    listIds.set(part, (id = `L${nextListId++}`));
  }
  return id;
}

function listKeyOf(
  current: unknown[],
  original: unknown[] | undefined,
  modified: unknown[],
  path: string[],
  key: string,
  unnamed: string[],
): string | null {
  const at = `${path.join('.')}.${key}`;
  let known = listKeys.get(current);
  if (known?.at !== at || known.original !== original || known.modified !== modified) {
    const own: string[] = [];
    const part = keptOfList(current, original, modified, path, key, own);
    listKeys.set(
      current,
      (known = { at, original, modified, part: part === null ? null : shortId(part), unnamed: own }),
    );
  }
  unnamed.push(...known.unnamed);
  return known.part;
}

/**
 * The key of a live list under `key` of the map at `path`. A merge-keyed list of maps is
 * spelled element by element: an element that neither `original` nor `modified` names by
 * merge key (the projected service-account token volume and its mount, whose names are
 * random per pod: the reason every pod of a loop used to miss the memo) stands as `?`, in
 * its place. Such an element is never paired with a patch element, so the three-way patch
 * and the re-check treat it only by position and by its key's identity (order is
 * interleaved by position; pairing compares keys for equality), provided its key is a
 * unique scalar and its content is self-patch-clean. It can still surface by name (a
 * re-check that reorders the list spells every element's key), so its key is listed in
 * `unnamed`, in traversal order, for the caller to check. Every other list is kept whole.
 */
function keptOfList(
  current: unknown[],
  original: unknown[] | undefined,
  modified: unknown[],
  path: string[],
  key: string,
  unnamed: string[],
): string | null {
  const listPath = [...path, key];
  const strategy = listStrategy(listPath);
  if (strategy.kind !== 'merge' || modified.length === 0) return contentKey(current);
  const mergeKey = strategy.key;
  const named = keysOf(modified, mergeKey);
  const declared = original === undefined ? new Map<string, JsonObject>() : keysOf(original, mergeKey);
  if (named === null || declared === null) return contentKey(current);
  // Elements of a list with $retainKeys are diffed with their extra fields in view, so
  // named ones are kept whole rather than by the fields original and modified declare.
  const wholeNamed = hasRetainKeys(listPath);
  const here = new Set<string>();
  let out = '[';
  for (const e of current) {
    if (!isObject(e) || !isScalarKey(e[mergeKey])) return contentKey(current);
    const ks = scalarString(e[mergeKey]);
    const m = named.get(ks);
    if (m === undefined && !declared.has(ks)) {
      if (here.has(ks) || !selfPatchIsEmpty(path, key, [e])) return null;
      here.add(ks);
      out += '?,';
      continue;
    }
    let part: string | null = contentKey(e);
    if (m !== undefined && !wholeNamed && sameScalar(m[mergeKey], e[mergeKey])) {
      const o = declared.get(ks);
      const same = o !== undefined && sameScalar(o[mergeKey], e[mergeKey]);
      part = keptOf(e, same ? o : undefined, m, listPath, unnamed);
    }
    if (part === null) return null;
    out += `${part},`;
  }
  unnamed.push(...here);
  return `${out}]`;
}

/** Elements by merge-key rendering, or null when one lacks a scalar key or a key repeats. */
function keysOf(list: unknown[], mergeKey: string): Map<string, JsonObject> | null {
  const byKey = new Map<string, JsonObject>();
  for (const e of list) {
    if (!isObject(e) || !isScalarKey(e[mergeKey])) return null;
    const ks = scalarString(e[mergeKey]);
    if (byKey.has(ks)) return null;
    byKey.set(ks, e);
  }
  return byKey;
}

function isScalarKey(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

const directiveFreeCache = new WeakMap<object, boolean>();

/** No key anywhere starts with `$`; cached, since last-applied values are shared objects. */
export function directiveFree(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return true;
  const known = directiveFreeCache.get(v);
  if (known !== undefined) return known;
  let free = true;
  if (Array.isArray(v)) free = v.every(directiveFreeUncached);
  else
    for (const [k, e] of Object.entries(v)) if (k.startsWith('$') || !directiveFreeUncached(e)) free = false;
  directiveFreeCache.set(v, free);
  return free;
}

function directiveFreeUncached(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.every(directiveFreeUncached);
  return Object.entries(v).every(([k, e]) => !k.startsWith('$') && directiveFreeUncached(e));
}
