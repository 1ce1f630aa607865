// Merges the facts of several objects into one store without duplicates. Objects are
// ingested one at a time, so the de-duplication the local pipeline does across its inputs
// (lib/ingest/dedupe.ts) has to happen here for the deployed one: EKS exports and a
// Firehose stream of the same cluster deliver the same events twice. Same rules:
// (auditID, stage) repeats are dropped, first seen wins; a RequestReceived is kept only
// when its request's ResponseComplete is present nowhere (it carries no bodies), so it
// is held aside until the end; the same operator line shipped twice is one line.
//
// Facts go straight into a FactStore as each object is read: a window of a looping fleet
// is millions of facts, and holding every object's facts as objects first was the
// deployed analysis's largest cost in memory.
import { createHash } from 'crypto';
import type { Fact, OperatorFact } from '../model/facts';
import { StageIndex } from '../ingest/stage-index';
import { FactStore } from './store';

const REQUEST_RECEIVED = 1;
const RESPONSE_COMPLETE = 4;
const STAGE_BITS: Record<string, number> = {
  RequestReceived: REQUEST_RECEIVED,
  ResponseStarted: 2,
  ResponseComplete: RESPONSE_COMPLETE,
  Panic: 8,
};

export class FactsMerger {
  private readonly store = new FactStore();
  /** Stage bits seen per auditID (an auditID names one request, so one object and one type). */
  private readonly seen = new StageIndex();
  /** Stages outside the four known ones, keyed "auditID\0stage". */
  private readonly seenOther = new Set<string>();
  private readonly lines = new Set<string>();
  private readonly held = new Map<string, Fact>();

  /** Adds one object's facts; objects must come in a fixed order for "first seen" to mean anything. */
  add(facts: readonly Fact[]): void {
    for (const f of facts) {
      if (f.type === 'operator') {
        if (this.firstLine(f)) this.store.add(f);
        continue;
      }
      const bit = STAGE_BITS[f.stage];
      if (bit === undefined) {
        const key = `${f.auditID}\0${f.stage}`;
        if (this.seenOther.has(key)) continue;
        this.seenOther.add(key);
        this.store.add(f);
        continue;
      }
      const before = this.seen.get(f.auditID);
      if (before & bit) continue;
      this.seen.set(f.auditID, before | bit);
      if (bit === REQUEST_RECEIVED) {
        if (!(before & RESPONSE_COMPLETE)) this.held.set(f.auditID, f);
        continue;
      }
      if (bit === RESPONSE_COMPLETE) this.held.delete(f.auditID);
      this.store.add(f);
    }
  }

  /** The store, with the RequestReceived facts whose request never completed. */
  finish(): FactStore {
    for (const f of this.held.values()) this.store.add(f);
    this.held.clear();
    this.store.seal();
    return this.store;
  }

  private firstLine(f: OperatorFact): boolean {
    // Operator lines carry no id; the same line shipped by two log pipelines differs only in
    // `src`. Remembered by a digest of the rest: a debug "resource diffs" line carries whole
    // pods (tens of KB), and a window of a loop holds thousands of them.
    const { src: _src, ...rest } = f;
    const id = createHash('sha256').update(JSON.stringify(rest)).digest('base64');
    if (this.lines.has(id)) return false;
    this.lines.add(id);
    return true;
  }
}
