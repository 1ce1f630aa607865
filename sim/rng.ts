// A small seeded PRNG (sfc32, seeded through splitmix32) and the random shapes Kubernetes
// uses: v4 UUIDs, the API server's 5-character name suffixes, hex and base62 tokens.
// Everything in the simulator draws from here, never from Math.random or the clock, so one
// seed always yields byte-identical logs.

/** The alphabet of `generateName` suffixes (apimachinery's rand.String: no vowels, no 0/1/3). */
export const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a, to derive independent streams from labels. */
function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const mix = splitmix32(this.seed);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // sfc32 needs a few rounds before its output is well mixed.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /**
   * An independent stream for one purpose (a scenario, the noise). Streams are keyed by label,
   * not by draw order, so adding noise or a scenario does not shift every other random choice.
   */
  fork(label: string): Rng {
    return new Rng((this.seed ^ hashLabel(label)) >>> 0);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** Exponentially distributed, for Poisson-like arrival gaps. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** A random (version 4) UUID, as Kubernetes uses for uids and audit IDs. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[this.nextUint32() & 3];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** The five characters the API server appends to a `generateName`. */
  nameSuffix(length = 5): string {
    return this.fromAlphabet(NAME_SUFFIX_ALPHABET, length);
  }

  hex(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += (this.nextUint32() & 15).toString(16);
    return s;
  }

  base62(length: number): string {
    return this.fromAlphabet(BASE62, length);
  }

  fromAlphabet(alphabet: string, length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}
