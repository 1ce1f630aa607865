// Pod bodies as the FactStore holds them. The projection makes each body's two outer levels
// per pod (the object, and its metadata, spec and status: shallow copies) and shares what
// lies below them between the pods of a loop (containers, volumes, labels, the last-applied
// annotation: interned). As objects, those per-pod levels cost a header and eight bytes a
// member; here each is a shape id (its key list, held once) and one 32-bit tagged value a
// member: a string or a shared part by index, a small integer inline. Parts below the second
// level are kept as the very objects added, so caches keyed by their identity still hit.
//
// `decode` builds the outer levels afresh on every call: objects of one broker's facts live
// only while that broker is analysed, and so do the identity-keyed caches' entries for them.

/** Low three bits of a tagged value. */
const TAG_BITS = 3;
const T_SPECIAL = 0;
const T_INT = 1;
const T_TEXT = 2;
const T_PART = 3;
const T_NODE = 4;
const T_OTHER = 5;
const SPECIALS = [undefined, null, false, true] as const;
const MAX_PAYLOAD = 2 ** 28 - 1;
const INT_BIAS = 2 ** 27;
/** Levels laid out as shapes and tagged values; deeper parts are kept as objects. */
const NODE_DEPTH = 2;
const POOL_BITS = 20;
const POOL_CHUNK = 1 << POOL_BITS;
const POOL_MASK = POOL_CHUNK - 1;
/** Bound on the tables that find a string or part seen before: past it, sharing starts over. */
const RECENT = 65_536;

/** Tagged value of `undefined`: a fact without that body. */
export const NO_BODY = 0;

/** Values by index, with a bounded map back from value to index so that repeats are stored once. */
class Recent<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<T, number>();

  idOf(v: T): number {
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      if (this.ids.size >= RECENT) this.ids.clear();
      this.ids.set(v, id);
    }
    return id;
  }
}

interface ShapeTrie {
  next: Map<string, ShapeTrie>;
  /** The shape ending here, or -1. */
  id: number;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export class BodyTable {
  private readonly pool: Int32Array[] = [];
  private used = POOL_CHUNK;
  private readonly shapes: string[][] = [];
  /** Key lists by a trie over their keys: no string is built to find a shape. */
  private readonly shapeRoot: ShapeTrie = { next: new Map(), id: -1 };
  private readonly texts = new Recent<string>();
  private readonly parts = new Recent<object>();
  private readonly others: unknown[] = [];
  /** The same object added twice (shared by two facts) is laid out once. */
  private readonly nodes = new WeakMap<object, number>();

  /** `v` as a tagged value; with `layout` false an object is kept whole, as it is. */
  encode(v: unknown, layout = true): number {
    if (!layout && typeof v === 'object' && v !== null) return this.other(v);
    return this.value(v, 0);
  }

  decode(t: number): unknown {
    const p = t >>> TAG_BITS;
    switch (t & 7) {
      case T_SPECIAL:
        return SPECIALS[p];
      case T_INT:
        return p - INT_BIAS;
      case T_TEXT:
        return this.texts.values[p];
      case T_PART:
        return this.parts.values[p];
      case T_NODE: {
        const chunk = this.pool[p >>> POOL_BITS];
        const at = p & POOL_MASK;
        const keys = this.shapes[chunk[at]];
        const o: Record<string, unknown> = {};
        for (let k = 0; k < keys.length; k++) o[keys[k]] = this.decode(chunk[at + 1 + k]);
        return o;
      }
      default:
        return this.others[p];
    }
  }

  private value(v: unknown, depth: number): number {
    switch (typeof v) {
      case 'undefined':
        return NO_BODY;
      case 'boolean':
        return ((v ? 3 : 2) << TAG_BITS) | T_SPECIAL;
      case 'number':
        if (Number.isInteger(v) && v >= -INT_BIAS && v < INT_BIAS && !Object.is(v, -0))
          return ((v + INT_BIAS) << TAG_BITS) | T_INT;
        return this.other(v);
      case 'string':
        return this.tagged(this.texts.idOf(v), T_TEXT, v);
      case 'object': {
        if (v === null) return (1 << TAG_BITS) | T_SPECIAL;
        if (depth < NODE_DEPTH && !Array.isArray(v) && isPlainObject(v)) {
          const node = this.node(v, depth);
          if (node !== null) return node;
        }
        return this.tagged(this.parts.idOf(v), T_PART, v);
      }
      default:
        return this.other(v);
    }
  }

  private node(o: Record<string, unknown>, depth: number): number | null {
    const known = this.nodes.get(o);
    if (known !== undefined) return known;
    const keys = Object.keys(o);
    // A key named __proto__ would set the prototype when assigned back, not a property.
    if (keys.length >= POOL_CHUNK || keys.includes('__proto__')) return null;
    const values = keys.map((k) => this.value(o[k], depth + 1));
    if (this.used + keys.length + 1 > POOL_CHUNK) {
      if ((this.pool.length + 1) * POOL_CHUNK > MAX_PAYLOAD) return null;
      this.pool.push(new Int32Array(POOL_CHUNK));
      this.used = 0;
    }
    const offset = (this.pool.length - 1) * POOL_CHUNK + this.used;
    const chunk = this.pool[this.pool.length - 1];
    chunk[this.used] = this.shapeOf(keys);
    chunk.set(values, this.used + 1);
    this.used += keys.length + 1;
    const t = (offset << TAG_BITS) | T_NODE;
    this.nodes.set(o, t);
    return t;
  }

  private shapeOf(keys: string[]): number {
    let at = this.shapeRoot;
    for (const k of keys) {
      let next = at.next.get(k);
      if (!next) at.next.set(k, (next = { next: new Map(), id: -1 }));
      at = next;
    }
    if (at.id < 0) {
      at.id = this.shapes.length;
      this.shapes.push(keys);
    }
    return at.id;
  }

  private tagged(id: number, tag: number, v: unknown): number {
    return id <= MAX_PAYLOAD ? (id << TAG_BITS) | tag : this.other(v);
  }

  private other(v: unknown): number {
    if (this.others.length > MAX_PAYLOAD) throw new RangeError('fact store: too many bodies');
    this.others.push(v);
    return ((this.others.length - 1) << TAG_BITS) | T_OTHER;
  }
}
