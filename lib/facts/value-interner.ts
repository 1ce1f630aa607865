// JSON values interned bottom-up: every object or list is replaced by the first equal one
// seen, at every depth. The pods of a restart loop differ in a few strings (the name, the
// token volume, a webhook's resources), which made every list that holds one differ; interned
// member by member those lists were copies below the difference too (127 objects per
// koperator create on the benchmark's loop). Bottom-up, only the path to a difference is new.
//
// Most values handed in were seen before whole, and one JSON.stringify in C++ recognises them
// faster than a walk in JavaScript: a value is first looked up by a digest of its JSON (the
// JSON itself as the key held 25 MB per GB of audit log), and only a value not seen whole is
// walked. In the walk a value's key is built from its members' keys, an object member standing
// as the id of its interned copy, so no key holds more than one level of text. SHA-256: an
// accidental collision is beyond reach, a crafted one unknown.
//
// Equal means equal JSON: same keys in the same order, same scalars (JSON cannot tell -0 from
// 0, nor can this). Interned values are shared by many facts and must never be mutated; a
// value handed in is updated in place (its members replaced by their interned copies), so
// callers pass values they own (just parsed or copied).
import { hash } from 'crypto';

/** Deeper than this (hostile input only) a value is kept as it is. */
const MAX_DEPTH = 64;

/** JSON this short is its own key: hashing it would cost more than it saves. */
const SHORT_JSON = 44;

export class ValueInterner {
  private readonly whole = new Map<string, object>();
  private readonly byKey = new Map<string, object>();
  private readonly idOf = new Map<object, number>();
  private nextId = 0;

  /** Bounded by `maxEntries` values; when full it starts over, which only loses sharing. */
  constructor(private readonly maxEntries: number) {}

  intern<T>(v: T): T {
    if (v === null || typeof v !== 'object') return v;
    let json: string;
    try {
      json = JSON.stringify(v);
    } catch {
      return v; // too deep to serialise (hostile input)
    }
    // undefined, a function or a symbol serialises to nothing: not JSON, kept as it is.
    if (typeof json !== 'string') return v;
    const key = json.length <= SHORT_JSON ? json : hash('sha256', json, 'base64');
    const known = this.whole.get(key);
    if (known !== undefined) return known as T;
    const value = this.object(v as object, 0);
    if (value === null) return v;
    if (this.whole.size >= this.maxEntries) this.whole.clear();
    this.whole.set(key, value);
    return value as T;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The interned copy, or null when the value cannot be interned (too deep, or an odd object). */
  private object(v: object, depth: number): object | null {
    if (this.idOf.has(v)) return v;
    if (depth > MAX_DEPTH) return null;
    let key: string;
    if (Array.isArray(v)) {
      key = '[';
      for (let i = 0; i < v.length; i++) {
        const t = this.member(v[i], depth);
        if (t === null) return null;
        if (typeof t !== 'string') {
          v[i] = t.value;
          key += `#${t.id},`;
        } else key += `${t},`;
      }
    } else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return null;
      const o = v as Record<string, unknown>;
      key = '{';
      for (const k of Object.keys(o)) {
        const t = this.member(o[k], depth);
        if (t === null) return null;
        if (typeof t !== 'string') {
          o[k] = t.value;
          key += `${k.length}:${k}#${t.id},`;
        } else key += `${k.length}:${k}${t},`;
      }
    }
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    if (this.byKey.size >= this.maxEntries) {
      this.byKey.clear();
      this.idOf.clear();
    }
    // A key built by += is a tree of pieces (~15 per key, 32 bytes each): V8 flattens a string
    // in place when a character is read, so the table holds one flat string per key instead.
    key.charCodeAt(0);
    this.byKey.set(key, v);
    this.idOf.set(v, this.nextId++);
    return v;
  }

  /** A scalar's token, an object's interned copy with its id, or null (not internable). */
  private member(m: unknown, depth: number): string | { value: object; id: number } | null {
    switch (typeof m) {
      case 'string':
        return `s${m.length}:${m}`;
      case 'number':
        return Number.isFinite(m) ? `n${m === 0 ? 0 : m}` : null;
      case 'boolean':
        return m ? 't' : 'f';
      case 'object': {
        if (m === null) return 'z';
        const value = this.object(m, depth + 1);
        if (value === null) return null;
        return { value, id: this.idOf.get(value)! };
      }
      default:
        // undefined, functions, symbols, bigints: never in parsed JSON.
        return null;
    }
  }
}
