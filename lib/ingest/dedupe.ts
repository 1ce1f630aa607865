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

export class AuditDeduper {
  private readonly seen = new StageIndex();
  /** Stages outside the four known ones (none exist today), keyed "auditID\0stage". */
  private readonly seenOther = new Set<string>();
  private readonly held = new Map<string, LogRecord>();

  constructor(private readonly stats: IngestStats) {}

  /** The record to emit now, or null (a duplicate, or a RequestReceived held back). */
  push(rec: LogRecord): LogRecord | null {
    if (rec.kind !== 'audit') return rec;
    const { auditID, stage } = rec.event;
    const bit = STAGE_BITS[stage];
    if (bit === undefined) {
      const key = `${auditID}\0${stage}`;
      if (this.seenOther.has(key)) return this.duplicate();
      this.seenOther.add(key);
      return rec;
    }
    const before = this.seen.get(auditID) ?? 0;
    if (before & bit) return this.duplicate();
    this.seen.set(auditID, before | bit);
    if (bit === REQUEST_RECEIVED) {
      if (before & RESPONSE_COMPLETE) {
        this.stats.dedupe.requestReceivedSuperseded++;
      } else {
        this.held.set(auditID, rec);
      }
      return null;
    }
    if (bit === RESPONSE_COMPLETE && this.held.delete(auditID)) this.stats.dedupe.requestReceivedSuperseded++;
    return rec;
  }

  /** At the end of all inputs: the RequestReceived events whose request never completed. */
  *flush(): Generator<LogRecord> {
    for (const rec of this.held.values()) {
      this.stats.dedupe.requestReceivedEmitted++;
      yield rec;
    }
    this.held.clear();
  }

  private duplicate(): null {
    this.stats.dedupe.duplicates++;
    return null;
  }
}
