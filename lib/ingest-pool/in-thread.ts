// Objects read one after the other on this thread, through the same entries and merge as
// the pool's (pool.ts): with one worker, from standard input, or where no worker bundle is.
import type { FactStore } from '../facts/store';
import type { IngestOptions } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { SourceObject } from '../sources/types';
import { countReadFailure, fileEntries, type FactEntry } from './file-facts';
import { listedObjects } from '../ingest/listing';
import { OrderedFacts } from './ordered-facts';

const BATCH = 1024;
const eventsOf = (s: IngestStats): number => s.audit.read + s.operator.read;

export async function inThreadFacts(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  opts: IngestOptions,
  onEvents?: (events: number) => void,
): Promise<FactStore> {
  const merged = new OrderedFacts(stats);
  let seq = 0;
  let before = 0;
  for await (const item of listedObjects(objects)) {
    if ('failed' in item) {
      merged.end(seq++, item.failed);
      break;
    }
    const read = await readInThread(seq++, item.object, merged, opts, (n) => onEvents?.(before + n));
    before += read;
  }
  return merged.finish(seq);
}

/**
 * Object `seq` read on this thread into `merged`, in batches as workers send them (one array
 * per batch, not per record); `onEvents` hears this object's events read so far. Resolves
 * with their number.
 */
export async function readInThread(
  seq: number,
  obj: SourceObject,
  merged: OrderedFacts,
  opts: IngestOptions,
  onEvents?: (events: number) => void,
): Promise<number> {
  const s = createIngestStats();
  let batch: FactEntry[] = [];
  try {
    for await (const entry of fileEntries(obj, s, opts)) {
      batch.push(entry);
      if (batch.length === BATCH) {
        merged.add(seq, batch);
        batch = [];
        onEvents?.(eventsOf(s));
      }
    }
  } catch (e) {
    // As in a worker: one object's failure, not the run's.
    countReadFailure(s, obj.name, e);
  }
  merged.add(seq, batch);
  merged.end(seq, s);
  onEvents?.(eventsOf(s));
  return eventsOf(s);
}
