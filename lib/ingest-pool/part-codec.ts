// Facts across threads without their repeated parts. A broker re-created thousands of times
// has thousands of pod bodies made of the same interned parts (containers, volumes, the
// last-applied annotation: lib/facts/value-interner.ts). Structured clone would copy each
// part once per message and the receiver would have to serialise and hash it again to share
// it (a fifth of the main thread's time when measured). Instead the sender names each
// interned part by its interning key and sends it once; afterwards a reference of a few bytes
// stands for it, and the receiver shares equal parts across senders by that key, in the
// table its own projection interns into.
//
// The wire form is plain data. An interned part is `{[MARK]: id, k: key, v: members}` the
// first time and `{[MARK]: id}` after; an object of the data that happens to hold MARK itself
// (hostile input) travels as `{[MARK]: 0, v: members}`, so every value round-trips.

const MARK = '\u0000koperator-audit-part';
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** One sender's side: which parts the receiver holds, by id. */
export class PartEncoder {
  private readonly ids = new Map<string, number>();
  private next = 1;

  constructor(
    private readonly keyOf: (v: object) => string | undefined,
    /** Parts remembered before starting over (the receiver is told, and forgets too). */
    private readonly limit = 131_072,
  ) {}

  /** Call before each message: true when the table started over, which the message must say. */
  startMessage(): boolean {
    if (this.ids.size < this.limit) return false;
    this.ids.clear();
    this.next = 1;
    return true;
  }

  encode(v: unknown): unknown {
    if (v === null || typeof v !== 'object') return v;
    const key = this.keyOf(v);
    if (key !== undefined) {
      const known = this.ids.get(key);
      if (known !== undefined) return { [MARK]: known };
      const id = this.next++;
      this.ids.set(key, id);
      return { [MARK]: id, k: key, v: this.members(v) };
    }
    if (!Array.isArray(v) && hasOwn(v, MARK)) return { [MARK]: 0, v: this.members(v) };
    return this.members(v);
  }

  private members(v: object): unknown {
    if (Array.isArray(v)) return v.map((x) => this.encode(x));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const m = this.encode((v as Record<string, unknown>)[k]);
      // `__proto__` parsed from JSON is an own member; assigned, it would set the prototype.
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: m, enumerable: true, writable: true, configurable: true });
      else out[k] = m;
    }
    return out;
  }
}

/** One sender's parts on the receiving side. Decodes in place: the wire value is the receiver's own copy. */
export class PartDecoder {
  private parts: object[] = [];

  /** `share`: the receiver's table of parts by key, shared by every sender (ValueInterner.shareByKey). */
  constructor(private readonly share: (key: string, v: object) => object) {}

  /** The sender started over (PartEncoder.startMessage). */
  reset(): void {
    this.parts = [];
  }

  decode(w: unknown): unknown {
    if (w === null || typeof w !== 'object') return w;
    if (Array.isArray(w)) return this.members(w);
    const o = w as Record<string, unknown>;
    if (!hasOwn(o, MARK)) return this.members(o);
    const id = o[MARK];
    if (typeof id !== 'number') throw new Error('damaged part reference');
    if (!hasOwn(o, 'v')) {
      const part = this.parts[id];
      if (part === undefined) throw new Error(`part ${id} referenced before it was sent`);
      return part;
    }
    const value = this.members(o.v as object);
    if (id === 0) return value;
    const part = this.share(String(o.k), value);
    this.parts[id] = part;
    return part;
  }

  private members(v: object): object {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = this.decode(v[i]);
      return v;
    }
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const m = o[k];
      if (m !== null && typeof m === 'object') o[k] = this.decode(m);
    }
    return o;
  }
}
