// JSON values interned at every depth: each object or list is replaced by the first equal
// one seen. The pods of a restart loop differ in a few strings (the name, the token volume,
// a webhook's resources), which made every list holding one differ; interned member by
// member, those lists were copies below the difference too (127 objects per koperator
// create on the benchmark's loop). Here a value not seen before has its members interned
// in turn, so only the path down to a difference is new.
//
// Values are recognised by their JSON (one JSON.stringify in C++ is cheaper than any walk
// in JavaScript), held under a SHA-256 of it rather than the text (whole serialised members
// as keys held 25 MB per GB of audit log). SHA-256: an accidental collision is beyond reach,
// a crafted one unknown. A value seen before is found at once; one not seen costs a
// serialisation per level down to what differs.
//
// Equal means equal JSON: same keys in the same order, same scalars (JSON cannot tell -0
// from 0, nor a missing member from an undefined one, nor can this). Interned values are
// shared by many facts and must never be mutated; a value handed in is updated in place
// (its members replaced by their interned copies), so callers pass values they own (just
// parsed or copied).
import { hash } from 'crypto';

/** JSON this short is its own key: hashing it would cost more than it saves. */
const SHORT_JSON = 44;
/** Deeper than this (hostile input only) members are left as they are. */
const MAX_DEPTH = 64;

export class ValueInterner {
  private readonly known = new Map<string, object>();
  /** The key of every value handed out, kept while the value lives (past a start-over too). */
  private readonly keys = new WeakMap<object, string>();

  /** Bounded by `maxEntries` values; when full it starts over, which only loses sharing. */
  constructor(private maxEntries: number) {}

  /** A new bound; a table already larger starts over at its next new value. */
  limit(maxEntries: number): void {
    this.maxEntries = maxEntries;
  }

  intern<T>(v: T): T {
    if (v === null || typeof v !== 'object') return v;
    let json: string;
    try {
      json = JSON.stringify(v);
    } catch {
      return v; // too deep to serialise (hostile input)
    }
    // A value whose toJSON gives undefined serialises to nothing: not JSON, kept as it is.
    if (typeof json !== 'string') return v;
    return this.interned(v as object, json, 0) as T;
  }

  /**
   * The key an interned value is known by: its JSON when short, else a SHA-256 of it. Equal
   * values have equal keys, so another thread can share what this one interned without
   * serialising it again (lib/ingest-pool/part-codec.ts).
   */
  keyOf(v: object): string | undefined {
    return this.keys.get(v);
  }

  /**
   * The value known by `key` (a key `keyOf` gave, maybe on another thread), or `v`, which
   * becomes the value known by it. `v` must be equal to what the key was made from.
   */
  shareByKey<T extends object>(key: string, v: T): T {
    const known = this.known.get(key);
    if (known !== undefined) return known as T;
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(key, v);
    this.keys.set(v, key);
    return v;
  }

  get size(): number {
    return this.known.size;
  }

  private interned(v: object, json: string, depth: number): object {
    const key = json.length <= SHORT_JSON ? json : hash('sha256', json, 'base64');
    const known = this.known.get(key);
    if (known !== undefined) return known;
    if (depth < MAX_DEPTH && isPlain(v)) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const m = o[k];
        if (m === null || typeof m !== 'object') continue;
        const text = JSON.stringify(m);
        if (typeof text === 'string') o[k] = this.interned(m, text, depth + 1);
      }
    }
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(key, v);
    this.keys.set(v, key);
    return v;
  }
}

/** An array or an object of Object's (or no) prototype: what JSON.parse makes. */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
