// Any Kubernetes object's fields in the contract's path syntax (findings-contract.md), for
// the fight detectors: which leaves a write set, to what, and which fields the API server
// defaulted that the writer left out. Pods have a schema (pod-schema.ts); other objects are
// read with what the API conventions make safe to assume: a pod template is a Pod, a
// webhook configuration's `webhooks` are keyed by name (as are most lists of named things,
// which is how an operator's CRD lists usually look).
//
// Values become tokens, never stay values: numbers, booleans and null as their JSON (what a
// replica count or a flag is), anything else as a hash. A fact may then be compared and
// shown without carrying a string that could be a secret.
import { isObject } from './json-value';
import { formatPath, mergeKeyValueString, type PathSegment } from './paths';
import { listStrategy } from './pod-schema';

/** The token of a path a write removed (or a null it set, which removes it). */
export const ABSENT = '-';

/** Metadata that the API server owns or that names the object: never what writers fight over. */
const SERVER_METADATA = new Set([
  'name',
  'namespace',
  'generateName',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
]);

/** Root keys that are not the object's content (status is its own subresource). */
const ROOT_SKIP = new Set(['kind', 'apiVersion', 'status']);

/**
 * The merge key of the list at `schema` (object keys from the root, indexes left out), or
 * null for an atomic list. Pod templates (`...template.spec`, `...template.metadata`) use the
 * Pod schema; elsewhere a list of objects that all carry a distinct string `name` is keyed
 * by it, as Kubernetes' own named lists are.
 */
export function mergeKeyOf(schema: readonly string[], list: readonly unknown[]): string | null {
  const t = schema.lastIndexOf('template');
  const podPath =
    t >= 0 && (schema[t + 1] === 'spec' || schema[t + 1] === 'metadata') ? schema.slice(t + 1) : null;
  const path = podPath ?? (schema[0] === 'metadata' ? [...schema] : null);
  if (path) {
    const s = listStrategy(path);
    if (s.kind === 'merge') return s.key;
    if (podPath) return null;
  }
  return distinctNames(list) ? 'name' : null;
}

function distinctNames(list: readonly unknown[]): boolean {
  if (list.length === 0) return false;
  const seen = new Set<string>();
  for (const e of list) {
    if (!isObject(e) || typeof e.name !== 'string' || seen.has(e.name)) return false;
    seen.add(e.name);
  }
  return true;
}

// FNV-1a over the UTF-16 code units, twice with different offsets: 64 bits is plenty to
// tell values of one field apart, and costs a few nanoseconds a character.
function hash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `#${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A value's token: numbers, booleans and null as JSON; strings, maps and lists hashed. */
export function valueToken(v: unknown): string {
  if (v === null || v === undefined) return ABSENT;
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'string') return hash(`s${v}`);
  return hash(canonical(v));
}

/** Every leaf of an object's content (metadata the server owns, status, kind left out) → token. */
export function objectLeaves(obj: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(obj)) return out;
  for (const [k, v] of Object.entries(obj)) {
    if (ROOT_SKIP.has(k)) continue;
    if (k === 'metadata' && isObject(v)) {
      for (const [mk, mv] of Object.entries(v)) {
        if (!SERVER_METADATA.has(mk)) walkLeaves(mv, ['metadata', mk], ['metadata', mk], out);
      }
      continue;
    }
    walkLeaves(v, [k], [k], out);
  }
  return out;
}

function walkLeaves(v: unknown, schema: string[], segs: PathSegment[], out: Map<string, string>): void {
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) {
      out.set(formatPath(segs), valueToken(v));
      return;
    }
    for (const k of keys) {
      if (schema.length >= 2 && schema[schema.length - 1] === 'metadata' && k === 'creationTimestamp')
        continue;
      walkLeaves(v[k], [...schema, k], [...segs, k], out);
    }
    return;
  }
  if (Array.isArray(v) && v.length > 0) {
    const key = mergeKeyOf(schema, v);
    if (key !== null && v.every((e) => isObject(e) && e[key] !== undefined && e[key] !== null)) {
      for (const e of v as Array<Record<string, unknown>>) {
        const elem: PathSegment[] = [...segs, { key, value: mergeKeyValueString(e[key]) }];
        const rest = Object.keys(e).filter((k) => k !== key);
        if (rest.length === 0) out.set(formatPath(elem), valueToken({}));
        for (const k of rest) walkLeaves(e[k], [...schema, k], [...elem, k], out);
      }
      return;
    }
  }
  out.set(formatPath(segs), valueToken(v));
}

/**
 * The paths a merge or strategic-merge patch body names, each with the token of what it set
 * there (ABSENT for a null or a `$patch: delete`). Directives other than those are skipped:
 * they order or retain, they do not set.
 */
export function mergePatchLeaves(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) {
      if (k.startsWith('$') || ROOT_SKIP.has(k)) continue;
      if (k === 'metadata' && isObject(v)) {
        for (const [mk, mv] of Object.entries(v)) {
          if (!SERVER_METADATA.has(mk) && !mk.startsWith('$'))
            walkPatch(mv, ['metadata', mk], ['metadata', mk], out);
        }
        continue;
      }
      walkPatch(v, [k], [k], out);
    }
  }
  return out;
}

function walkPatch(v: unknown, schema: string[], segs: PathSegment[], out: Map<string, string>): void {
  if (v === null) {
    out.set(formatPath(segs), ABSENT);
    return;
  }
  if (isObject(v)) {
    if (v.$patch === 'delete') {
      out.set(formatPath(segs), ABSENT);
      return;
    }
    const keys = Object.keys(v).filter((k) => !k.startsWith('$'));
    if (keys.length === 0) {
      if (Object.keys(v).length === 0) out.set(formatPath(segs), valueToken(v));
      return;
    }
    for (const k of keys) {
      if (schema[schema.length - 1] === 'metadata' && k === 'creationTimestamp') continue;
      walkPatch(v[k], [...schema, k], [...segs, k], out);
    }
    return;
  }
  if (Array.isArray(v) && v.length > 0) {
    const key = mergeKeyOf(schema, v);
    if (key !== null && v.every((e) => isObject(e) && e[key] !== undefined && e[key] !== null)) {
      for (const e of v as Array<Record<string, unknown>>) {
        const elem: PathSegment[] = [...segs, { key, value: mergeKeyValueString(e[key]) }];
        if (e.$patch === 'delete') {
          out.set(formatPath(elem), ABSENT);
          continue;
        }
        const rest = Object.keys(e).filter((k) => k !== key && !k.startsWith('$'));
        if (rest.length === 0) out.set(formatPath(elem), valueToken({}));
        for (const k of rest) walkPatch(e[k], [...schema, k], [...elem, k], out);
      }
      return;
    }
  }
  out.set(formatPath(segs), valueToken(v));
}

/** An RFC 6902 pointer as contract path segments, list indexes resolved against `obj`; null when they cannot be. */
export function pointerPath(pointer: string, obj: unknown): string | null {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const segs: PathSegment[] = [];
  const schema: string[] = [];
  let node: unknown = obj;
  for (const t of tokens) {
    if (Array.isArray(node)) {
      const key = mergeKeyOf(schema, node);
      const el = /^\d+$/.test(t) ? node[Number(t)] : undefined;
      if (key === null || !isObject(el) || el[key] === undefined || el[key] === null) {
        return segs.length > 0 ? formatPath(segs) : null;
      }
      segs.push({ key, value: mergeKeyValueString(el[key]) });
      node = el;
      continue;
    }
    segs.push(t);
    schema.push(t);
    node = isObject(node) ? node[t] : undefined;
  }
  return segs.length > 0 ? formatPath(segs) : null;
}

/**
 * What a patch set, read back from the stored object where the level shows it: the leaves of
 * `after` under each path the body names, ABSENT where none is left.
 */
export function leavesUnder(named: Iterable<string>, after: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  const all = [...after.keys()];
  for (const p of named) {
    const exact = after.get(p);
    if (exact !== undefined) {
      out.set(p, exact);
      continue;
    }
    let found = false;
    for (const q of all) {
      if (q.length > p.length && q.startsWith(p) && (q[p.length] === '.' || q[p.length] === '[')) {
        out.set(q, after.get(q)!);
        found = true;
      }
    }
    if (!found) out.set(p, ABSENT);
  }
  return out;
}

/**
 * The top-most paths `response` has and `request` lacks, outside metadata and status: what the
 * API server defaulted. Merge-keyed list elements are matched by key; atomic lists are one
 * value and never looked into.
 */
export function defaultedPaths(request: unknown, response: unknown): string[] {
  const out: string[] = [];
  if (!isObject(request) || !isObject(response)) return out;
  for (const [k, v] of Object.entries(response)) {
    if (k === 'metadata' || ROOT_SKIP.has(k)) continue;
    missing(request[k], v, [k], [k], out);
  }
  return out;
}

function missing(req: unknown, resp: unknown, schema: string[], segs: PathSegment[], out: string[]): void {
  if (req === undefined) {
    // An empty map or list defaulted in means nothing the writer could have meant otherwise.
    const empty =
      (isObject(resp) && Object.keys(resp).length === 0) || (Array.isArray(resp) && resp.length === 0);
    if (!empty) out.push(formatPath(segs));
    return;
  }
  if (isObject(resp) && isObject(req)) {
    for (const [k, v] of Object.entries(resp)) {
      if (schema[schema.length - 1] === 'metadata' && k === 'creationTimestamp') continue;
      missing(req[k], v, [...schema, k], [...segs, k], out);
    }
    return;
  }
  if (Array.isArray(resp) && Array.isArray(req)) {
    const key = mergeKeyOf(schema, resp);
    if (key === null) return;
    for (const e of resp) {
      if (!isObject(e) || e[key] === undefined) return;
      const match = req.find((r) => isObject(r) && r[key] === e[key]);
      const elem: PathSegment[] = [...segs, { key, value: mergeKeyValueString(e[key]) }];
      if (match === undefined) out.push(formatPath(elem));
      else missing(match, e, schema, elem, out);
    }
  }
}

/** The API resource of an owner reference's kind: lower case, plural (what the API serves it as). */
export function resourceOfKind(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/** The API group of an owner reference's apiVersion (`apps/v1` → `apps`, `v1` → ``). */
export function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
