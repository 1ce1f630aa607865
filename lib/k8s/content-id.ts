// Short stand-ins for JSON values, equal exactly when the values' JSON is equal, for memo keys
// built from whole pods. Serialising a pod for every key is the cost those memos were meant to
// save, but the pods of a restart loop share most of their parts as objects (bodies interned
// by the fact projection, last-applied values decoded once, clean parts reused by stripNulls):
// a shared object is serialised once and then stands as `#<id>`. Ids are never reused for
// other content, so clearing either bounded table only costs re-serialising. Values must not
// be mutated once they have an id.

import { BoundedCache } from './bounded-cache';

const MAX_RECENT_OBJECTS = 65_536;
const idOfObject = new Map<object, number>();
const idOfJson = new BoundedCache<number>(65_536, 256 * 2 ** 20);
let nextId = 0;

/** `#<id>` for an object or list, the JSON itself for a scalar (`u` for undefined). */
export function contentKey(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'u' : JSON.stringify(v);
  let id = idOfObject.get(v);
  if (id === undefined) {
    const json = jsonOrNull(v);
    // Too deep to serialise (hostile input): a token no other value gets, so only a miss.
    if (json === null) return `!${nextId++}`;
    id = idOfJson.get(json);
    if (id === undefined) idOfJson.set(json, (id = nextId++));
    if (idOfObject.size >= MAX_RECENT_OBJECTS) idOfObject.clear();
    idOfObject.set(v, id);
  }
  return `#${id}`;
}

/** A key for an object from its members' keys (in order), leaving out `skip`. */
export function membersKey(obj: Record<string, unknown>, skip?: ReadonlySet<string>): string {
  let out = '{';
  for (const k of Object.keys(obj)) {
    if (skip?.has(k)) continue;
    out += `${JSON.stringify(k)}:${contentKey(obj[k])},`;
  }
  return `${out}}`;
}

function jsonOrNull(v: unknown): string | null {
  try {
    return JSON.stringify(v);
  } catch {
    return null;
  }
}
