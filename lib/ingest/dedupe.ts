// One audit event can reach us several times: the same request from two delivery paths
// (an EKS export and a Firehose stream), overlapping exports, or rotated files copied
// twice. Events are the same event when (auditID, stage) match; the first seen wins.
//
// RequestReceived carries no bodies and no admission annotations, so it is only worth
// keeping when its request's ResponseComplete is missing everywhere. A stream cannot
// know that before the end: RequestReceived events are held aside and released by
// flush() only for auditIDs that never completed. Memory: one small entry per auditID
// seen (a bitmask of its stages, stage-index.ts: 40 bytes for a UUID) plus the held
// RequestReceived events, which are dropped as soon as their completion arrives.
import type { LogRecord } from '../model/record';
import { StageIndex } from './stage-index';
import type { IngestStats } from './stats';

const REQUEST_RECEIVED = 1;
const RESPONSE_STARTED = 2;
const RESPONSE_COMPLETE = 4;
const PANIC = 8;
const STAGE_BITS: Record<string, number> = {
  RequestReceived: REQUEST_RECEIVED,
  ResponseStarted: RESPONSE_STARTED,
  ResponseComplete: RESPONSE_COMPLETE,
  Panic: PANIC,
};

/** What names one audit event among its deliveries; null for what has no such name (operator lines). */
export interface StageKey {
  auditID: string;
  stage: string;
}

/**
 * The rules above over any item that carries an audit event's key: the local pipeline's
 * records, and the facts its ingest workers project from them (lib/ingest-pool), which
 * must be kept and dropped exactly as the records they came from.
 */
export class StageDeduper<T> {
  private readonly seen = new StageIndex();
  /** Stages outside the four known ones (none exist today), keyed "auditID\0stage". */
  private readonly seenOther = new Set<string>();
  private readonly held = new Map<string, T>();

  constructor(private readonly stats: IngestStats) {}

  /** The item to emit now, or null (a duplicate, or a RequestReceived held back). */
  push(key: StageKey | null, item: T): T | null {
    if (key === null) return item;
    const { auditID, stage } = key;
    const bit = STAGE_BITS[stage];
    if (bit === undefined) {
      const k = `${auditID}\0${stage}`;
      if (this.seenOther.has(k)) return this.duplicate();
      this.seenOther.add(k);
      return item;
    }
    const before = this.seen.get(auditID) ?? 0;
    if (before & bit) return this.duplicate();
    this.seen.set(auditID, before | bit);
    if (bit === REQUEST_RECEIVED) {
      if (before & RESPONSE_COMPLETE) {
        this.stats.dedupe.requestReceivedSuperseded++;
      } else {
        this.held.set(auditID, item);
      }
      return null;
    }
    if (bit === RESPONSE_COMPLETE && this.held.delete(auditID)) this.stats.dedupe.requestReceivedSuperseded++;
    return item;
  }

  /** At the end of all inputs: the RequestReceived items whose request never completed. */
  *flush(): Generator<T> {
    for (const item of this.held.values()) {
      this.stats.dedupe.requestReceivedEmitted++;
      yield item;
    }
    this.held.clear();
  }

  private duplicate(): null {
    this.stats.dedupe.duplicates++;
    return null;
  }
}

/** The key of a record: its audit event's, or none for an operator line. */
export function recordKey(rec: LogRecord): StageKey | null {
  return rec.kind === 'audit' ? rec.event : null;
}

/** {@link StageDeduper} over records. */
export class AuditDeduper {
  private readonly stages: StageDeduper<LogRecord>;

  constructor(stats: IngestStats) {
    this.stages = new StageDeduper(stats);
  }

  push(rec: LogRecord): LogRecord | null {
    return this.stages.push(recordKey(rec), rec);
  }

  flush(): Generator<LogRecord> {
    return this.stages.flush();
  }
}
