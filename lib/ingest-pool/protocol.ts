// The messages between the command line's thread and its ingest workers: plain data that
// structured clone carries (object bytes go as transferred ArrayBuffers, never copied twice).
import type { IngestStats } from '../ingest/stats';
import type { FactEntry, WorkerIngestOptions } from './file-facts';

/** To a worker. Objects are numbered in input order (`seq`); a worker reads one at a time. */
export type ToWorker =
  | { type: 'start'; seq: number; name: string; opts: WorkerIngestOptions }
  | { type: 'bytes'; seq: number; data: ArrayBuffer }
  /** The object's bytes are all sent. */
  | { type: 'end'; seq: number }
  /** Reading the object failed part way; the message is what the reader records. */
  | { type: 'fail'; seq: number; message: string };

/** From a worker. */
export type FromWorker =
  /** One `bytes` message consumed: the sender may send another. */
  | { type: 'ack'; seq: number }
  /**
   * Entries in file order, their facts in the wire form of part-codec.ts (`reset`: the
   * sender's parts table started over first), with the events read so far in this object.
   */
  | { type: 'entries'; seq: number; entries: FactEntry[]; events: number; reset: boolean }
  /** The object is read; its counts. */
  | { type: 'done'; seq: number; stats: IngestStats };
