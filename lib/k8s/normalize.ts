// k8s-objectmatcher's DeleteNullInJson (patch/deletenull.go, v1.8.0 as vendored by koperator),
// run on both sides before every diff. Its rules, which differ between objects and lists:
//   - in an object, a null or "" member is dropped (false and 0 stay: v1.8.0 no longer treats
//     bools as zero values);
//   - an object member that is itself an object: {} stays as it was, a non-empty object is
//     cleaned and dropped if cleaning emptied it;
//   - a list keeps its length: a null element stays null, "" stays "", and an object element
//     is cleaned but kept even if cleaning emptied it;
//   - lists ([] included) are always kept.

import { isObject, type JsonObject } from './json-value';

export function stripNulls(obj: unknown): unknown {
  if (Array.isArray(obj)) return cleanList(obj, 0);
  if (isObject(obj)) return cleanObject(obj, 0);
  return obj;
}

// Copy on write: a part that is already clean is returned as it is, and only the path to a
// dirty value is copied, so the pods of a restart loop keep sharing their spec objects (and
// content-id.ts keys them by identity). Outputs may alias inputs; neither is ever mutated.
// The parts the fact projection shares between pods are a pod's metadata and spec members
// (depth 2): their results are remembered, so a shared part is walked once. Other parts are
// walked each time, which costs less than remembering every object. Weakly: a part that is
// no longer held elsewhere (a transient state's status) is not kept alive by this.
const SHARED_DEPTH = 2;
const cleaned = new WeakMap<object, unknown>();

function remembered<T extends object>(v: T, depth: number, clean: (v: T, depth: number) => T): T {
  if (depth !== SHARED_DEPTH) return clean(v, depth);
  let out = cleaned.get(v) as T | undefined;
  if (out === undefined) cleaned.set(v, (out = clean(v, depth)));
  return out;
}

function cleanObject(o: JsonObject, depth: number): JsonObject {
  const keys = Object.keys(o);
  let out: JsonObject | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = o[k];
    let next: unknown = v;
    let drop = false;
    if (v === null || v === undefined || v === '') {
      drop = true;
    } else if (Array.isArray(v)) {
      next = remembered(v, depth + 1, cleanList);
    } else if (isObject(v) && Object.keys(v).length > 0) {
      next = remembered(v, depth + 1, cleanObject);
      drop = next !== v && Object.keys(next as JsonObject).length === 0;
    }
    if (out === null && (drop || next !== v)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = o[keys[j]];
    }
    if (out !== null && !drop) out[k] = next;
  }
  return out ?? o;
}

function cleanList(l: unknown[], depth: number): unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < l.length; i++) {
    const v = l[i];
    let next: unknown = v;
    if (v === undefined) next = null;
    else if (Array.isArray(v)) next = remembered(v, depth + 1, cleanList);
    else if (isObject(v)) next = remembered(v, depth + 1, cleanObject);
    if (out === null && next !== v) out = l.slice(0, i);
    if (out !== null) out.push(next);
  }
  return out ?? l;
}
