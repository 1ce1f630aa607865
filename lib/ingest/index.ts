// The ingestion layer's entry points: any stored object (local file, S3 object) in any
// supported container format becomes one stream of LogRecords, de-duplicated across
// objects, with everything not emitted counted in IngestStats.
//
//   bytes → decompress → frame → unwrap/parse (with byte pre-filter) → records → dedupe
//
// Nothing here throws on bad input: unreadable objects, damaged gzip and junk lines are
// counted and reading goes on with the next line or object.
import type { Readable } from 'stream';
import type { LogRecord } from '../model/record';
import type { SourceObject } from '../sources/types';
import { decompress } from './decompress';
import { AuditDeduper } from './dedupe';
import { ObjectReader, type ReaderOptions } from './object-reader';
import { listedObjects } from './listing';
import { mergeIngestStats, type IngestStats } from './stats';

export { AuditDeduper } from './dedupe';
export { createIngestStats, mergeIngestStats } from './stats';
export type { IngestStats, SkipDetail, SkipReason, FileIssue } from './stats';

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface IngestOptions {
  /** A record longer than this is skipped (counted), never buffered. Default 8 MiB. */
  maxLineBytes?: number;
  /** The caller's own filter, applied after the relevance filter (rejections are counted as `excluded`). */
  keep?: (rec: LogRecord) => boolean;
  /**
   * Default true: only pod writes (any subresource), KafkaCluster and ConfigMap writes, and
   * zap lines are emitted. False emits every valid audit event (corpus checks, dumps).
   */
  relevantOnly?: boolean;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Ends a source stream whatever its kind (an S3 body, a file stream, a plain iterable). */
export function destroyStream(stream: NodeJS.ReadableStream | Readable): void {
  const d = (stream as Partial<Readable>).destroy;
  if (typeof d === 'function') d.call(stream);
}

/** One object's records, in file order, not de-duplicated. Never throws. */
export async function* readObject(
  obj: SourceObject,
  stats: IngestStats,
  opts: IngestOptions = {},
): AsyncGenerator<LogRecord> {
  const ropts: ReaderOptions = {
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    keep: opts.keep,
    relevantOnly: opts.relevantOnly ?? true,
  };
  const reader = new ObjectReader(obj.name, stats, ropts);
  let stream: NodeJS.ReadableStream | Readable;
  try {
    stream = await obj.open();
  } catch (e) {
    // Not a file read: an input error (a missing path, a refused object), said as such.
    reader.fileIssue('open-error', errorMessage(e));
    reader.finish();
    return;
  }
  stats.files.read++;
  let complete = false;
  try {
    for await (const chunk of decompress(stream as AsyncIterable<unknown>, reader)) {
      reader.push(chunk);
      yield* reader.takeOut();
      if (reader.abandoned) break;
    }
    complete = true;
  } catch (e) {
    // An I/O error, or a bug on some input: keep what was read, count the object as failed.
    reader.fileIssue('read-error', errorMessage(e));
    complete = true;
  } finally {
    destroyStream(stream);
  }
  if (!complete) return;
  try {
    reader.end();
  } catch (e) {
    reader.fileIssue('read-error', errorMessage(e));
  }
  yield* reader.takeOut();
  reader.finish();
}

/** Every object's records, de-duplicated on (auditID, stage). Never throws. */
export async function* ingest(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  opts: IngestOptions = {},
): AsyncGenerator<LogRecord> {
  const dedupe = new AuditDeduper(stats);
  for await (const item of listedObjects(objects)) {
    if ('failed' in item) {
      // The listing itself failed (no such bucket, access denied): said, and what was read
      // so far is still released.
      mergeIngestStats(stats, item.failed);
      break;
    }
    for await (const rec of readObject(item.object, stats, opts)) {
      const out = dedupe.push(rec);
      if (out) yield out;
    }
  }
  yield* dedupe.flush();
}
