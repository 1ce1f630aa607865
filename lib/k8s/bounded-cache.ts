// A memo keyed by content (a string), for work that repeats across the pods of a restart loop.
// It is bounded by entries and by the characters its keys hold, since keys are often whole
// serialised pods: when either bound is reached it starts over, which only costs recomputing.
// Nothing else is evicted, so there is no bookkeeping on a hit.

export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  private keyChars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeyChars: number,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxKeyChars) return;
    if (this.entries.size >= this.maxEntries || this.keyChars + key.length > this.maxKeyChars) {
      this.entries.clear();
      this.keyChars = 0;
    }
    if (!this.entries.has(key)) this.keyChars += key.length;
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
