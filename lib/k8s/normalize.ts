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
  if (Array.isArray(obj)) return cleanList(obj);
  if (isObject(obj)) return cleanObject(obj);
  return obj;
}

// A part that is already clean is reused rather than copied: the pods of a restart loop share
// their spec objects, so this keeps them shared (and content-id.ts keys them by identity).
// Outputs may therefore alias inputs; neither is ever mutated. Bounded, recent objects only.
const MAX_KNOWN = 65_536;
const knownClean = new Map<object, boolean>();

/** True when cleaning `v` (as a member or list element) would return an equal value. */
function isClean(v: JsonObject | unknown[]): boolean {
  let clean = knownClean.get(v);
  if (clean === undefined) {
    clean = Array.isArray(v) ? v.every(isCleanElement) : Object.values(v).every(isCleanMember);
    if (knownClean.size >= MAX_KNOWN) knownClean.clear();
    knownClean.set(v, clean);
  }
  return clean;
}

function isCleanMember(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  return Array.isArray(v) || isObject(v) ? isClean(v) : true;
}

function isCleanElement(v: unknown): boolean {
  if (v === undefined) return false;
  return Array.isArray(v) || isObject(v) ? isClean(v) : true;
}

function cleanObject(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === null || v === undefined || v === '') continue;
    if (Array.isArray(v)) {
      out[k] = isClean(v) ? v : cleanList(v);
    } else if (isObject(v)) {
      if (Object.keys(v).length === 0) {
        out[k] = {};
        continue;
      }
      if (isClean(v)) {
        out[k] = v;
        continue;
      }
      const cleaned = cleanObject(v);
      if (Object.keys(cleaned).length > 0) out[k] = cleaned;
    } else {
      out[k] = v;
    }
  }
  return out;
}

function cleanList(l: unknown[]): unknown[] {
  return l.map((v) => {
    if (v === undefined) return null;
    if (Array.isArray(v)) return isClean(v) ? v : cleanList(v);
    if (isObject(v)) return isClean(v) ? v : cleanObject(v);
    return v;
  });
}
