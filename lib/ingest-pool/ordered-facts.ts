// Facts from many objects, merged as if the objects had been read one after the other.
//
// Objects are read in parallel and finish in any order, but "first seen wins" in
// de-duplication, the RequestReceived events held to the end, the order of facts in the store
// and of skip details in the stats all follow the input order. So the object at the head of
// that order streams straight in, and the others wait, as entries, until every object before
// them is done. Memory: the entries of the objects read ahead of the head (a few: one per
// worker), never the whole input.
import { StageDeduper } from '../ingest/dedupe';
import { mergeIngestStats, type IngestStats } from '../ingest/stats';
import type { Fact } from '../model/facts';
import { FactStore } from '../facts/store';
import type { FactEntry } from './file-facts';

interface Waiting {
  entries: FactEntry[];
  stats: IngestStats | null;
}

export class OrderedFacts {
  private readonly store = new FactStore();
  private readonly dedupe: StageDeduper<Fact | null>;
  /** The position, in input order, of the object streaming in now. */
  private head = 0;
  private readonly waiting = new Map<number, Waiting>();
  private sealed = false;

  /** `stats` receives each object's counts when its turn comes, and the de-duplication's. */
  constructor(private readonly stats: IngestStats) {
    this.dedupe = new StageDeduper(stats);
  }

  /** Entries of the object at position `seq`, in its file order. */
  add(seq: number, entries: readonly FactEntry[]): void {
    if (seq < this.head) throw new Error(`entries for object ${seq}, which is already merged`);
    if (seq === this.head) {
      for (const e of entries) this.take(e);
      return;
    }
    const w = this.waitingFor(seq);
    if (w.stats) throw new Error(`entries for object ${seq} after its end`);
    for (const e of entries) w.entries.push(e);
  }

  /** The object at `seq` is read to its end (or failed); `stats` are its counts. */
  end(seq: number, stats: IngestStats): void {
    if (seq < this.head) throw new Error(`object ${seq} ended twice`);
    if (seq !== this.head) {
      const w = this.waitingFor(seq);
      if (w.stats) throw new Error(`object ${seq} ended twice`);
      w.stats = stats;
      return;
    }
    mergeIngestStats(this.stats, stats);
    this.head++;
    // The objects read ahead come in now, up to the first still being read.
    for (let w = this.waiting.get(this.head); w; w = this.waiting.get(this.head)) {
      this.waiting.delete(this.head);
      for (const e of w.entries) this.take(e);
      if (!w.stats) return; // the new head, still being read: its entries stream in from now
      mergeIngestStats(this.stats, w.stats);
      this.head++;
    }
  }

  /** Objects merged so far (the position of the next one). */
  get merged(): number {
    return this.head;
  }

  /** The store, once every object up to `count` has ended. */
  finish(count: number): FactStore {
    if (this.head !== count || this.waiting.size > 0)
      throw new Error(`${count} objects read, ${this.head} merged: an object never ended`);
    if (!this.sealed) {
      for (const f of this.dedupe.flush()) if (f) this.store.add(f);
      this.store.seal();
      this.sealed = true;
    }
    return this.store;
  }

  private take(e: FactEntry): void {
    const f = this.dedupe.push(e.key, e.fact);
    if (f) this.store.add(f);
  }

  private waitingFor(seq: number): Waiting {
    let w = this.waiting.get(seq);
    if (!w) this.waiting.set(seq, (w = { entries: [], stats: null }));
    return w;
  }
}
