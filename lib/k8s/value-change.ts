// What changed inside one field, as a person reads it. A field of the contract can be a whole
// atomic list or object (`spec.tolerations`, an anti-affinity term list, a container an
// injector adds): printing its two values whole hides the one element that differs, and two
// serializations of the same value list their keys in different orders. Here the difference is
// reduced to the elements added, removed or changed, each located the way a person names it:
// by its merge key where the list has one (a container by name, a volume mount by mountPath),
// by key and effect for a toleration, otherwise by its position, with nested changes as paths
// relative to the field. Key order is never a difference; a list whose elements only moved is
// one `order` step.

import { deepEqual, isObject } from './json-value';
import { formatPath, mergeKeyValueString } from './paths';
import { listStrategy } from './pod-schema';

export type ValueChangeOp = 'add' | 'remove' | 'change' | 'order';

export interface ValueChange {
  op: ValueChangeOp;
  /**
   * Where, relative to the field, in the contract's path syntax; a list element by its identity
   * (`[name=istio-proxy]`, `[key=dedicated,effect=NoSchedule]`) or by its position (`[1]`: in the
   * new value for `add` and `change`, in the old one for `remove`); '' for the field itself.
   */
  at: string;
  /** The old value (`remove`, `change`), or the old order as element names (`order`). */
  from?: unknown;
  /** The new value (`add`, `change`), or the new order as element names (`order`). */
  to?: unknown;
}

/**
 * Tolerations carry no strategic-merge key, but a person tells them apart by key and effect;
 * lists not named here and without a merge key are matched by position and content.
 */
const IDENTITY_FIELDS: ReadonlyArray<[string, string[]]> = [['spec.tolerations', ['key', 'effect']]];

/** Past this many elements a side, a list is compared whole (the pairing is quadratic). */
const MAX_ALIGNED = 400;

/** The steps from `from` to `to` of the field at `fieldPath`; empty when they are equal. */
export function valueChanges(fieldPath: string, from: unknown, to: unknown): ValueChange[] {
  const out: ValueChange[] = [];
  const a = from ?? undefined;
  const b = to ?? undefined;
  if (deepEqual(a, b)) return out;
  const container = (v: unknown): boolean => isObject(v) || Array.isArray(v);
  // A scalar set or unset reads as `(unset) → 1Gi`, not as something added.
  if ((a === undefined && !container(b)) || (b === undefined && !container(a)))
    out.push({ op: 'change', at: '', from: a ?? null, to: b ?? null });
  // A list appearing or going away is its elements added or removed, each named.
  else if (Array.isArray(a) && b === undefined) diffValues(a, [], schemaOf(fieldPath), '', out);
  else if (a === undefined && Array.isArray(b)) diffValues([], b, schemaOf(fieldPath), '', out);
  else diffValues(a, b, schemaOf(fieldPath), '', out);
  return out;
}

function diffValues(a: unknown, b: unknown, schema: string[], at: string, out: ValueChange[]): void {
  if (deepEqual(a, b)) return;
  if (a === undefined) return void out.push({ op: 'add', at, to: b });
  if (b === undefined) return void out.push({ op: 'remove', at, from: a });
  if (isObject(a) && isObject(b)) {
    for (const k of unionKeys(a, b)) diffValues(a[k], b[k], [...schema, k], keyLocation(at, k), out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffLists(a, b, schema, at, out);
  out.push({ op: 'change', at, from: a, to: b });
}

function diffLists(a: unknown[], b: unknown[], schema: string[], at: string, out: ValueChange[]): void {
  const identity = identityOf(schema, a, b);
  if (identity) return diffKeyedLists(a, b, identity, schema, at, out);
  if (a.length > MAX_ALIGNED || b.length > MAX_ALIGNED)
    return void out.push({ op: 'change', at, from: a, to: b });
  if (sameElements(a, b)) {
    out.push({ op: 'order', at, from: a.map(orderLabel), to: b.map(orderLabel) });
    return;
  }
  // Unchanged elements are paired in order (a longest common subsequence); between two pairs,
  // elements that replaced each other are one change each, the rest added or removed.
  const pairs = commonSubsequence(a, b);
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [a.length, b.length]]) {
    const changed = Math.min(pi - i, pj - j);
    for (let k = 0; k < changed; k++) diffValues(a[i + k], b[j + k], schema, `${at}[${j + k}]`, out);
    for (let k = changed; k < pi - i; k++) out.push({ op: 'remove', at: `${at}[${i + k}]`, from: a[i + k] });
    for (let k = changed; k < pj - j; k++) out.push({ op: 'add', at: `${at}[${j + k}]`, to: b[j + k] });
    i = pi + 1;
    j = pj + 1;
  }
}

function diffKeyedLists(
  a: unknown[],
  b: unknown[],
  identity: (e: unknown) => string,
  schema: string[],
  at: string,
  out: ValueChange[],
): void {
  const before = new Map(a.map((e) => [identity(e), e]));
  const after = new Map(b.map((e) => [identity(e), e]));
  for (const [id, e] of before) {
    const next = after.get(id);
    if (next === undefined) out.push({ op: 'remove', at: `${at}[${id}]`, from: e });
    else diffValues(e, next, schema, `${at}[${id}]`, out);
  }
  for (const [id, e] of after) if (!before.has(id)) out.push({ op: 'add', at: `${at}[${id}]`, to: e });
  const keptBefore = [...before.keys()].filter((id) => after.has(id));
  const keptAfter = [...after.keys()].filter((id) => before.has(id));
  if (!deepEqual(keptBefore, keptAfter))
    out.push({ op: 'order', at, from: keptBefore.map(idLabel), to: keptAfter.map(idLabel) });
}

/**
 * How the elements of the list at `schema` are told apart: `name=kafka` for a merge key,
 * `key=dedicated,effect=NoSchedule` for a toleration, by name for any list of distinctly named
 * objects; null (by position) when an element lacks its identity or two share one.
 */
function identityOf(schema: string[], a: unknown[], b: unknown[]): ((e: unknown) => string) | null {
  const strategy = listStrategy(schema);
  const named = IDENTITY_FIELDS.find(([p]) => p === schema.join('.'));
  const keys = strategy.kind === 'merge' ? [strategy.key] : named ? named[1] : ['name'];
  const id = (e: unknown): string =>
    isObject(e)
      ? keys
          .filter((k) => e[k] !== undefined && e[k] !== null)
          .map((k) => `${k}=${bracketValue(mergeKeyValueString(e[k]))}`)
          .join(',')
      : '';
  for (const list of [a, b]) {
    const seen = new Set<string>();
    for (const e of list) {
      const k = id(e);
      // A merge key must be present; a toleration needs one of its two.
      if (k === '' || (keys.length === 1 && !k.startsWith(`${keys[0]}=`)) || seen.has(k)) return null;
      seen.add(k);
    }
  }
  return a.length + b.length > 0 ? id : null;
}

function bracketValue(v: string): string {
  return /^[^\]"[,]*$/.test(v) ? v : JSON.stringify(v);
}

/** `name=kafka` → `kafka` in an order list: the key is said once by the field. */
function idLabel(id: string): string {
  return id.includes(',') ? id : id.slice(id.indexOf('=') + 1);
}

function orderLabel(e: unknown): string {
  return compactValue(e, 40);
}

function sameElements(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  for (const e of a) {
    const k = left.findIndex((x) => deepEqual(x, e));
    if (k < 0) return false;
    left.splice(k, 1);
  }
  return true;
}

function commonSubsequence(a: unknown[], b: unknown[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const len: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i][j] = deepEqual(a[i], b[j]) ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (deepEqual(a[i], b[j])) pairs.push([i++, j++]);
    else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

function unionKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function keyLocation(at: string, key: string): string {
  const s = formatPath([key]);
  return at === '' || s.startsWith('[') ? `${at}${s}` : `${at}.${s}`;
}

/** Object keys from the Pod root, list elements left out: what pod-schema.ts looks lists up by. */
function schemaOf(fieldPath: string): string[] {
  const keys: string[] = [];
  const re = /\["((?:[^"\\]|\\.)*)"\]|\[[^\]]*\]|([^.[\]]+)/g;
  for (let m = re.exec(fieldPath); m; m = re.exec(fieldPath)) {
    if (m[1] !== undefined) keys.push(JSON.parse(`"${m[1]}"`) as string);
    else if (m[2] !== undefined) keys.push(m[2]);
  }
  return keys;
}

/** Keys a person looks for first in an element's content, in this order, before the rest. */
const LEADING_KEYS = ['name', 'key', 'operator', 'value', 'effect', 'image', 'weight', 'topologyKey'];

/**
 * A value on one line, at most `max` characters: a scalar as itself, an object as its leaves
 * flattened to `a.b: value` pairs (shallow ones first, so a term's weight and topology key come
 * before its label selector), cut at a pair with `…` rather than mid-value where it can be.
 */
export function compactValue(v: unknown, max: number): string {
  if (!isObject(v) && !Array.isArray(v)) return cut(scalarText(v), max);
  if (Array.isArray(v) && v.every((e) => !isObject(e) && !Array.isArray(e))) return cut(inlineList(v), max);
  const pairs = leaves(v, '', 0)
    .sort((x, y) => x.depth - y.depth || rank(x.key) - rank(y.key) || (x.path < y.path ? -1 : 1))
    .map((l) => `${l.path}: ${l.text}`);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (pairs.length === 0) return `${open}${close}`;
  let body = '';
  for (const [i, p] of pairs.entries()) {
    const sep = i === 0 ? '' : ', ';
    const rest = i === pairs.length - 1 ? 0 : 3;
    if ((open + body + sep + p + close).length + rest <= max) {
      body += sep + p;
      continue;
    }
    body = i === 0 ? cut(p, Math.max(4, max - 2)) : `${body}, …`;
    break;
  }
  return `${open}${body}${close}`;
}

interface Leaf {
  path: string;
  key: string;
  depth: number;
  text: string;
}

function leaves(v: unknown, path: string, depth: number): Leaf[] {
  const out: Leaf[] = [];
  const entries: Array<[string, unknown, string]> = Array.isArray(v)
    ? v.map((e, i) => [`${path}[${i}]`, e, String(i)])
    : Object.keys(v as Record<string, unknown>).map((k) => [
        keyLocation(path, k),
        (v as Record<string, unknown>)[k],
        k,
      ]);
  for (const [p, e, key] of entries) {
    const flat = !isObject(e) && !Array.isArray(e);
    const scalarList = Array.isArray(e) && e.every((x) => !isObject(x) && !Array.isArray(x));
    const empty = (isObject(e) && Object.keys(e).length === 0) || (Array.isArray(e) && e.length === 0);
    if (flat || scalarList || empty)
      out.push({ path: p, key, depth, text: flat ? scalarText(e) : Array.isArray(e) ? inlineList(e) : '{}' });
    else out.push(...leaves(e, p, depth + 1));
  }
  return out;
}

function rank(key: string): number {
  const i = LEADING_KEYS.indexOf(key);
  return i < 0 ? LEADING_KEYS.length : i;
}

function inlineList(v: unknown[]): string {
  return `[${v.map(scalarText).join(', ')}]`;
}

/** A string bare where that reads unambiguously, quoted where it is empty or would not. */
export function scalarText(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v !== 'string') return typeof v === 'object' ? JSON.stringify(v) : String(v);
  return v === '' || /^\s|\s$|[\n\r\t]|, |: /.test(v) ? JSON.stringify(v) : v;
}

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
