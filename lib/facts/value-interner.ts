// JSON values interned bottom-up: every object or list is replaced by the first equal one
// seen, at every depth. The pods of a restart loop differ in a few strings (the name, the
// token volume, a webhook's resources), which made every list that holds one differ; interned
// member by member those lists were copies below the difference too (127 objects per
// koperator create on the benchmark's loop). Bottom-up, only the path to a difference is new.
//
// A value's key is built from its members' keys, and an object's member stands in it as the
// id of its interned copy, so no key holds more than one level of text (the old keys were
// whole serialised members, a gigabyte of audit log kept 25 MB of them). Equal means equal
// JSON: same keys in the same order, same scalars (JSON cannot tell -0 from 0, nor can this).
// Interned values are shared by many facts and must never be mutated; a value handed in is
// updated in place (its members replaced by their interned copies), so callers pass values
// they own (just parsed or copied).

/** Deeper than this (hostile input only) a value is kept as it is. */
const MAX_DEPTH = 64;

export class ValueInterner {
  private readonly byKey = new Map<string, object>();
  private readonly idOf = new Map<object, number>();
  private nextId = 0;

  /** Bounded by `maxEntries` values; when full it starts over, which only loses sharing. */
  constructor(private readonly maxEntries: number) {}

  intern<T>(v: T): T {
    if (v === null || typeof v !== 'object') return v;
    return (this.object(v as object, 0) ?? v) as T;
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
