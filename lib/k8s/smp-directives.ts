// The strategic-merge-patch wire format's directives (apimachinery strategicpatch) and the
// small operations on them shared by the diff and the merge.

import { goSort } from './go-sort';
import { deepEqual, goKind, isObject, scalarString, type GoKind, type JsonObject } from './json-value';

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';
export const REPLACE_DIRECTIVE = 'replace';
export const MERGE_DIRECTIVE = 'merge';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** A patch that apimachinery would refuse (its errors are returned, never panics, here). */
export class StrategicMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategicMergeError';
  }
}

export function hasOwn(o: JsonObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** `$setElementOrder/containers` -> `containers`; apimachinery rejects a key without the exact prefix. */
export function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw new StrategicMergeError(`invalid patch: ${s} is not of the form ${prefix}/<field>`);
  }
  return s.slice(slash + 1);
}

/**
 * Drops every map carrying `$patch` (and list elements that are such maps); other directive
 * keys ($setElementOrder/..., $retainKeys) are left in place, as apimachinery does.
 * `keep` is false when the value itself is such a map.
 */
export function removeDirectives(v: unknown): { value: unknown; keep: boolean } {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const e of v) {
      const r = removeDirectives(e);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (isObject(v)) {
    if (hasOwn(v, DIRECTIVE_MARKER)) return { value: undefined, keep: false };
    const out: JsonObject = {};
    for (const [k, e] of Object.entries(v)) {
      const r = removeDirectives(e);
      if (r.keep) out[k] = r.value;
    }
    return { value: out, keep: true };
  }
  return { value: v, keep: true };
}

/** Drops null members of maps at every depth (null list elements stay), for values taken whole from a patch. */
export function discardNullValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(discardNullValues);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, e] of Object.entries(v)) {
    if (e !== null && e !== undefined) out[k] = discardNullValues(e);
  }
  return out;
}

/** Directive keys that survive a merge only by accident; the API server's typed decoding drops them. */
export function isLeftoverDirectiveKey(k: string): boolean {
  return (
    k === RETAIN_KEYS_DIRECTIVE ||
    k === DIRECTIVE_MARKER ||
    k.startsWith(`${SET_ELEMENT_ORDER_PREFIX}/`) ||
    k.startsWith(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/`)
  );
}

export function stripLeftoverDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripLeftoverDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, e] of Object.entries(v)) {
    if (!isLeftoverDirectiveKey(k)) out[k] = stripLeftoverDirectives(e);
  }
  return out;
}

/**
 * The single element kind shared by the given lists (sliceElementType). apimachinery refuses
 * lists of lists, mixed element types, and (by failing) a null element or no element at all.
 */
export function elementKind(...lists: unknown[][]): GoKind {
  let kind: GoKind | undefined;
  for (const l of lists) {
    for (const e of l) {
      const k = goKind(e);
      if (k === 'nil') throw new StrategicMergeError('list element is null');
      if (kind === undefined) {
        if (k === 'slice') throw new StrategicMergeError('lists of lists are not supported');
        kind = k;
      } else if (k !== kind) {
        throw new StrategicMergeError('list element types are not identical');
      }
    }
  }
  if (kind === undefined) throw new StrategicMergeError('no elements in any of the given slices');
  return kind;
}

/** Go's `==` on two decoded JSON scalars (nil equals nil, missing counts as nil). */
export function sameScalar(a: unknown, b: unknown): boolean {
  return (a ?? null) === (b ?? null);
}

/** sortScalars: sort.Sort by the %v rendering with a `<=` comparator (equal renderings swap). */
export function sortScalars(l: readonly unknown[]): unknown[] {
  return goSort(l, (a, b) => scalarString(a) <= scalarString(b));
}

/** deduplicateScalars, on a copy: see dedupeScalarsInPlace. */
export function dedupeScalars(l: readonly unknown[]): unknown[] {
  const buf = [...l];
  return buf.slice(0, dedupeScalarsInPlace(buf));
}

/**
 * deduplicateScalars as upstream writes it: a later duplicate is overwritten by the list's
 * last element and the list shortened, in place. Returns the new length; `buf` past it keeps
 * what was there, which is what a Go slice sharing the array still sees.
 */
export function dedupeScalarsInPlace(buf: unknown[]): number {
  let length = buf.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (sameScalar(buf[i], buf[j])) {
        buf[j] = buf[length];
        length--;
        j--;
      }
    }
  }
  return length + 1;
}

/** The capacity of a slice decoded from a JSON array of n elements (append growth from empty). */
export function decodedCapacity(n: number): number {
  let cap = n === 0 ? 0 : 1;
  while (cap < n) cap *= 2;
  return cap;
}

/** Two patches being combined must agree on a parallel list they both carry. */
export function deepEqualOrThrow(a: unknown, b: unknown, what: string): void {
  if (!deepEqual(a, b)) throw new StrategicMergeError(`${what} differs between the patches being combined`);
}
