// Plain-JSON helpers: the simulator builds Kubernetes objects as typed values, then treats
// them as JSON for patches, diffs and the last-applied annotation.

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A deep copy through JSON: drops `undefined`, which is what the wire would do too. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Views a typed Kubernetes object as JSON (a copy, so callers may mutate it). */
export function toJson(v: unknown): JsonObject {
  const c: unknown = clone(v);
  if (!isObject(c)) throw new Error('toJson: not an object');
  return c;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/** Go's encoding/json writes map keys sorted; objectmatcher's JSON goes through maps. */
export function sortKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
    return out;
  }
  return v;
}

/**
 * objectmatcher's cleanup before it diffs or stores an object: `null` and `""` values are
 * dropped inside objects, an object emptied by that is dropped too, but an object that was
 * `{}` to begin with stays, and so does `[]`.
 */
export function stripNullsAndEmpty(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(stripNullsAndEmpty);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(v)) {
    if (child === null || child === '') continue;
    if (isObject(child)) {
      const wasEmpty = Object.keys(child).length === 0;
      const cleaned = stripNullsAndEmpty(child);
      if (!wasEmpty && isObject(cleaned) && Object.keys(cleaned).length === 0) continue;
      out[k] = cleaned;
      continue;
    }
    out[k] = stripNullsAndEmpty(child);
  }
  return out;
}

/**
 * Re-orders an object's keys: first `order` (those present), then the rest as they were.
 * The API server writes objects in Go struct field order; matching it keeps the logs real.
 */
export function orderKeys(obj: JsonObject, order: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of order) if (k in obj) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k];
  return out;
}

/** Reads a JSON object back as a typed Kubernetes object (the inverse view of toJson). */
export function fromJson<T>(obj: JsonObject): T {
  return obj as unknown as T;
}
