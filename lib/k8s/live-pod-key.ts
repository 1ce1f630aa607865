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

import { contentKey } from './content-id';
import { hasOwn } from './smp-directives';
import { isObject, type JsonObject } from './json-value';
import { selfPatchIsEmpty } from './strategic-merge';

/**
 * A key for `current` without the parts neither `original` nor `modified` names, or null
 * when a left-out part could still matter (see above) or an input is not a pod-like object.
 * The caller checks that `original` and `modified` are `directiveFree` (it can cache that).
 */
export function liveKey(original: unknown, modified: unknown, current: unknown): string | null {
  if (!isObject(original) || !isObject(modified) || !isObject(current)) return null;
  return keptOf(current, original, modified, []);
}

/** The key of what is kept of `current`: recursed maps spelled out, whole values by content. */
function keptOf(
  current: JsonObject,
  original: JsonObject | undefined,
  modified: JsonObject,
  path: string[],
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
    let part: string | null;
    if (isObject(m) && isObject(v)) {
      const o = inOriginal && isObject(original[k]) ? (original[k] as JsonObject) : undefined;
      part = keptOf(v, o, m, [...path, k]);
      if (part === null) return null;
    } else {
      part = contentKey(v);
    }
    out += `${JSON.stringify(k)}:${part},`;
  }
  return `${out}}`;
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
