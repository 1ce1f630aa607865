// The typed round trip: a Pod as Go holds it after decoding JSON into a corev1.Pod and
// encoding it again. koperator's states reach the diff that way (its desired pod is a Go
// struct; the live pod is read from the API server into one), and the API server stores a
// pod that way, so a live state rebuilt from webhook patches must go through it too. What it
// does (pod-types.ts has the table it reads):
//   - fields Go does not know are dropped; keys are matched exactly, as the API machinery does;
//   - `omitempty` fields holding their zero value ("", 0, false, nil, an empty map or list)
//     are dropped; fields without it are written even when zero (null for a nil pointer,
//     slice or map; "" and 0 as they are);
//   - struct values are always written, whatever their tag: `status: {}`, `resources: {}`,
//     `creationTimestamp: null` (a zero metav1.Time writes null);
//   - quantities are written in canonical form (quantity.ts), times as RFC 3339 in UTC to
//     the second;
//   - IntOrString is written as its mode says: `apiserver` as Go's own marshaller does (the
//     number or the string), `objectmatcher` as k8s-objectmatcher's override registered in
//     json-iterator, which koperator's diff marshals with: the integer value, a string only
//     when it is not a number, and nil for zero (so a `"8080"` port is written as 8080);
//   - a value of the wrong JSON type for its field cannot be decoded: TypedDecodeError.
// Inputs are never mutated; a part that comes out unchanged is returned as the same object,
// so the pods of a restart loop keep sharing their parts (content-id.ts keys by identity).

import { canonicalQuantity } from './quantity';
import { isObject, type JsonObject } from './json-value';
import { POD_TYPES } from './pod-types';

export type IntOrStringMode = 'apiserver' | 'objectmatcher';

/** A value Go's decoder refuses: the whole pod fails to decode. */
export class TypedDecodeError extends Error {
  constructor(path: string, message: string) {
    super(`cannot decode pod: ${path ? `${path}: ` : ''}${message}`);
    this.name = 'TypedDecodeError';
  }
}

interface Field {
  name: string;
  omitempty: boolean;
  kind: Kind;
}

type Kind =
  | { t: 'str' | 'int32' | 'int64' | 'bool' | 'qty' | 'time' | 'intstr' | 'map' | 'qmap' | 'raw' }
  | { t: 'ptr'; elem: Kind }
  | {
      t: 'struct';
      fields: Field[];
      byName: Map<string, Field>;
      /** Fields written even when absent from the input: no omitempty, or a struct value. */
      always: Field[];
      name: string;
    }
  | { t: 'list'; elem: Kind };

const structs = new Map<string, Kind & { t: 'struct' }>();

function kindOf(spec: string): Kind {
  if (spec.startsWith('[]')) return { t: 'list', elem: kindOf(spec.slice(2)) };
  if (spec.startsWith('*')) return { t: 'ptr', elem: kindOf(spec.slice(1)) };
  switch (spec) {
    case 'str':
    case 'int32':
    case 'int64':
    case 'bool':
    case 'qty':
    case 'time':
    case 'intstr':
    case 'map':
    case 'qmap':
    case 'raw':
      return { t: spec };
    default:
      return structKind(spec);
  }
}

function structKind(name: string): Kind & { t: 'struct' } {
  let k = structs.get(name);
  if (k !== undefined) return k;
  const spec = POD_TYPES[name];
  if (spec === undefined) throw new Error(`pod-types: no struct ${name}`);
  k = { t: 'struct', fields: [], byName: new Map(), always: [], name };
  structs.set(name, k);
  for (const [key, s] of Object.entries(spec)) {
    const omitempty = key.endsWith('?');
    const f: Field = { name: omitempty ? key.slice(0, -1) : key, omitempty, kind: kindOf(s) };
    k.fields.push(f);
    k.byName.set(f.name, f);
  }
  for (const f of k.fields) {
    if (!f.omitempty || f.kind.t === 'struct' || f.kind.t === 'qty' || f.kind.t === 'time') k.always.push(f);
  }
  return k;
}

const POD = structKind('Pod');

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** What an absent field is written as, or OMIT. */
const OMIT = Symbol('omit');

/**
 * `pod` as Go would write it after decoding it into a corev1.Pod. A non-object (null, a
 * string) decodes as an empty pod.
 */
export function typedPod(pod: unknown, mode: IntOrStringMode): JsonObject {
  return encodeStruct(
    POD,
    pod,
    null,
    { mode, shared: mode === 'apiserver' ? apiserverParts : objectmatcherParts },
    0,
  ) as JsonObject;
}

/** Where a value sits, spelled only when an error names it. */
interface Where {
  parent: Where | null;
  key: string | number;
}

function spell(w: Where | null): string {
  const keys: Array<string | number> = [];
  for (let p = w; p !== null; p = p.parent) keys.push(p.key);
  let out = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    out += typeof k === 'number' ? `[${k}]` : out === '' ? k : `.${k}`;
  }
  return out;
}

function fail(w: Where | null, message: string): never {
  throw new TypedDecodeError(spell(w), message);
}

// Parts the fact projection shares between pods (the pod, its metadata and spec members) are
// encoded once, by identity and struct: inputs must not be mutated after a call.
const SHARED_DEPTH = 2;
type SharedParts = Map<Kind, WeakMap<object, unknown>>;
const apiserverParts: SharedParts = new Map();
const objectmatcherParts: SharedParts = new Map();

interface Ctx {
  mode: IntOrStringMode;
  shared: SharedParts;
}

function encodeStruct(
  k: Kind & { t: 'struct' },
  v: unknown,
  w: Where | null,
  ctx: Ctx,
  depth: number,
): unknown {
  if (v === null || v === undefined) return encodeFields(k, {}, w, ctx, depth);
  if (!isObject(v)) fail(w, `a ${typeName(v)} cannot be a ${k.name}`);
  if (depth > SHARED_DEPTH) return encodeFields(k, v, w, ctx, depth);
  let ofKind = ctx.shared.get(k);
  if (ofKind === undefined) ctx.shared.set(k, (ofKind = new WeakMap()));
  let out = ofKind.get(v);
  if (out === undefined) ofKind.set(v, (out = encodeFields(k, v, w, ctx, depth)));
  return out;
}

function encodeFields(
  k: Kind & { t: 'struct' },
  v: JsonObject,
  w: Where | null,
  ctx: Ctx,
  depth: number,
): JsonObject {
  const out: JsonObject = {};
  let same = true;
  for (const key in v) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    const f = k.byName.get(key);
    if (f === undefined) {
      // Unknown keys are dropped.
      same = false;
      continue;
    }
    const input = v[key];
    const enc = encodeField(f, input, { parent: w, key }, ctx, depth + 1);
    if (enc === OMIT) {
      same = false;
      continue;
    }
    out[key] = enc;
    if (enc !== input) same = false;
  }
  for (const f of k.always) {
    if (Object.prototype.hasOwnProperty.call(v, f.name)) continue;
    const enc = encodeField(f, undefined, { parent: w, key: f.name }, ctx, depth + 1);
    if (enc === OMIT) continue;
    out[f.name] = enc;
    same = false;
  }
  return same ? v : out;
}

function encodeField(f: Field, v: unknown, w: Where | null, ctx: Ctx, depth: number): unknown {
  const k = f.kind;
  const absent = v === null || v === undefined;
  switch (k.t) {
    case 'struct':
      return encodeStruct(k, v, w, ctx, depth);
    case 'ptr':
      if (absent) return OMIT;
      return encodeValue(k.elem, v, w, ctx, depth, false);
    case 'list':
    case 'map':
    case 'qmap':
    case 'raw': {
      if (absent) return f.omitempty ? OMIT : null;
      const enc = encodeValue(k, v, w, ctx, depth, f.omitempty);
      if (f.omitempty && isEmptyCollection(enc)) return OMIT;
      return enc;
    }
    default: {
      const enc = encodeValue(k, v, w, ctx, depth, f.omitempty);
      if (f.omitempty && isZeroScalar(k, enc)) return OMIT;
      return enc;
    }
  }
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

function isZeroScalar(k: Kind, v: unknown): boolean {
  switch (k.t) {
    case 'str':
      return v === '';
    case 'int32':
    case 'int64':
      return v === 0;
    case 'bool':
      return v === false;
    case 'intstr':
      return v === null || v === 0 || v === '';
    default:
      return false;
  }
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'list';
  if (v === null) return 'null';
  return typeof v;
}

function encodeValue(
  k: Kind,
  v: unknown,
  w: Where | null,
  ctx: Ctx,
  depth: number,
  omitempty: boolean,
): unknown {
  switch (k.t) {
    case 'str':
      if (v === null || v === undefined) return '';
      if (typeof v !== 'string') fail(w, `a ${typeName(v)} cannot be a string`);
      return v;
    case 'bool':
      if (v === null || v === undefined) return false;
      if (typeof v !== 'boolean') fail(w, `a ${typeName(v)} cannot be a bool`);
      return v;
    case 'int32':
    case 'int64':
      if (v === null || v === undefined) return 0;
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        fail(w, `${JSON.stringify(v)} cannot be an ${k.t}`);
      }
      if (
        k.t === 'int32' ? v < INT32_MIN || v > INT32_MAX : !Number.isSafeInteger(v) && Math.abs(v) >= 2 ** 63
      ) {
        fail(w, `${v} overflows ${k.t}`);
      }
      return v;
    case 'qty': {
      if (v === null || v === undefined) return '0';
      const c = canonicalQuantity(v);
      if (c === null) fail(w, `${JSON.stringify(v)} is not a quantity`);
      return c === v ? v : c;
    }
    case 'time':
      return encodeTime(v, w);
    case 'intstr':
      return encodeIntOrString(v, w, ctx.mode);
    case 'raw':
      return v;
    case 'map':
    case 'qmap':
      return encodeMap(k.t, v, w);
    case 'list':
      return encodeList(k.elem, v, w, ctx, depth);
    case 'struct':
      return encodeStruct(k, v, w, ctx, depth);
    case 'ptr':
      return v === null || v === undefined ? OMIT : encodeValue(k.elem, v, w, ctx, depth, omitempty);
  }
}

function encodeMap(t: 'map' | 'qmap', v: unknown, w: Where | null): unknown {
  if (!isObject(v)) fail(w, `a ${typeName(v)} cannot be a map`);
  let out: JsonObject | null = null;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const e = v[key];
    let enc: unknown;
    if (t === 'map') {
      if (e === null || e === undefined) enc = '';
      else if (typeof e !== 'string') fail({ parent: w, key }, `a ${typeName(e)} cannot be a string`);
      else enc = e;
    } else {
      enc = e === null || e === undefined ? '0' : canonicalQuantity(e);
      if (enc === null) fail({ parent: w, key }, `${JSON.stringify(e)} is not a quantity`);
    }
    if (out === null && enc !== e) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = v[keys[j]];
    }
    if (out !== null) out[key] = enc;
  }
  return out ?? v;
}

function encodeList(elem: Kind, v: unknown, w: Where | null, ctx: Ctx, depth: number): unknown {
  if (!Array.isArray(v)) fail(w, `a ${typeName(v)} cannot be a list`);
  // A shared list is encoded once too, so its result keeps one identity across pods
  // (live-pod-key.ts remembers list keys by identity).
  if (depth > SHARED_DEPTH) return encodeElements(elem, v, w, ctx, depth);
  let ofKind = ctx.shared.get(elem);
  if (ofKind === undefined) ctx.shared.set(elem, (ofKind = new WeakMap()));
  let out = ofKind.get(v);
  if (out === undefined) ofKind.set(v, (out = encodeElements(elem, v, w, ctx, depth)));
  return out;
}

function encodeElements(elem: Kind, v: unknown[], w: Where | null, ctx: Ctx, depth: number): unknown {
  let out: unknown[] | null = null;
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    // A nil pointer element stays null; any other null element decodes as its zero value.
    let enc: unknown;
    if (elem.t === 'ptr' && (e === null || e === undefined)) enc = null;
    else enc = encodeValue(elem, e, { parent: w, key: i }, ctx, depth, false);
    if (out === null && enc !== e) out = v.slice(0, i);
    if (out !== null) out.push(enc);
  }
  return out ?? v;
}

// RFC 3339 as metav1.Time.UnmarshalJSON accepts it (time.RFC3339, fractional seconds allowed).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function encodeTime(v: unknown, w: Where | null): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') fail(w, `a ${typeName(v)} cannot be a time`);
  const m = RFC3339.exec(v);
  if (!m) fail(w, `${JSON.stringify(v)} is not an RFC 3339 time`);
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8]}`);
  if (Number.isNaN(ms)) fail(w, `${JSON.stringify(v)} is not an RFC 3339 time`);
  const out = `${new Date(ms).toISOString().slice(0, 19)}Z`;
  return out === v ? v : out;
}

/** strconv.Atoi: optional sign and decimal digits, within int64. */
function atoi(s: string): number | null {
  if (!/^[+-]?[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return Math.abs(n) < 2 ** 63 ? n : null;
}

function encodeIntOrString(v: unknown, w: Where | null, mode: IntOrStringMode): unknown {
  let intVal = 0;
  let strVal = '';
  let isString = false;
  if (typeof v === 'string') {
    isString = true;
    strVal = v;
  } else if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
      fail(w, `${v} cannot be an int32 or a string`);
    }
    intVal = v;
  } else if (v !== null && v !== undefined) {
    fail(w, `a ${typeName(v)} cannot be an int or a string`);
  }
  if (mode === 'apiserver') return isString ? strVal : intVal;
  const value = isString ? (atoi(strVal) ?? 0) : intVal;
  if (value === 0) return strVal !== '' && strVal !== '0' ? strVal : null;
  return value;
}
