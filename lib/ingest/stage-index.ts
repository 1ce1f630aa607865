// The de-duplicator's memory: for every auditID seen, a bitmask of the stages seen. Exact
// de-duplication across a whole input needs one entry per relevant event, so this is the
// part of ingestion that grows with the input. kube-apiserver auditIDs are UUIDs: held as
// 128 bits in an open-addressing table of typed arrays (17 bytes a slot, at most three
// quarters full: 23-45 bytes an entry) instead of a Map from 36-character strings (~90 bytes
// an entry). Any other ID (a GKE insertId, a hand-written log) goes to a Map, as before.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INITIAL_SLOTS = 1024;

export class StageIndex {
  /** Four words of UUID per slot. */
  private keys = new Uint32Array(INITIAL_SLOTS * 4);
  /** Stage bits per slot; 0 marks a free slot. */
  private bits = new Uint8Array(INITIAL_SLOTS);
  private used = 0;
  private readonly others = new Map<string, number>();
  private readonly key = new Uint32Array(4);

  /** The stage bits recorded for `id` (0 when none). */
  get(id: string): number {
    if (!this.parse(id)) return this.others.get(id) ?? 0;
    return this.bits[this.find()];
  }

  /** Records `bits` (1-255) as the stage bits of `id`. */
  set(id: string, bits: number): void {
    if (!this.parse(id)) {
      this.others.set(id, bits);
      return;
    }
    let at = this.find();
    if (this.bits[at] === 0) {
      if ((this.used + 1) * 4 > this.bits.length * 3) {
        this.grow();
        at = this.find();
      }
      this.used++;
      this.keys.set(this.key, at * 4);
    }
    this.bits[at] = bits;
  }

  /** Entries held (both kinds). */
  get size(): number {
    return this.used + this.others.size;
  }

  /** Reads a lowercase UUID into `this.key`; false for anything else. */
  private parse(id: string): boolean {
    if (typeof id !== 'string' || id.length !== 36 || !UUID.test(id)) return false;
    const hex = id.slice(0, 8) + id.slice(9, 13) + id.slice(14, 18) + id.slice(19, 23) + id.slice(24);
    for (let w = 0; w < 4; w++) this.key[w] = parseInt(hex.slice(w * 8, w * 8 + 8), 16) >>> 0;
    return true;
  }

  /** The slot holding `this.key`, or the free slot where it would go (linear probing). */
  private find(): number {
    const k = this.key;
    const keys = this.keys;
    const bits = this.bits;
    const mask = bits.length - 1;
    // UUIDs are random (v4) or time-based (v1, time in the first word): mix all four words.
    let h = Math.imul(k[0] ^ Math.imul(k[1], 0x9e3779b1) ^ Math.imul(k[2], 0x85ebca6b) ^ k[3], 0xc2b2ae35);
    h ^= h >>> 15;
    for (let at = h & mask; ; at = (at + 1) & mask) {
      if (bits[at] === 0) return at;
      const o = at * 4;
      if (keys[o] === k[0] && keys[o + 1] === k[1] && keys[o + 2] === k[2] && keys[o + 3] === k[3]) return at;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldBits = this.bits;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.bits = new Uint8Array(oldBits.length * 2);
    const saved = this.key.slice();
    for (let i = 0; i < oldBits.length; i++) {
      if (oldBits[i] === 0) continue;
      this.key.set(oldKeys.subarray(i * 4, i * 4 + 4));
      const at = this.find();
      this.keys.set(this.key, at * 4);
      this.bits[at] = oldBits[i];
    }
    this.key.set(saved);
  }
}
