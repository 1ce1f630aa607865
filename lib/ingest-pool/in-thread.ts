// Objects read one after the other on this thread, through the same entries and merge as
// the pool's (pool.ts): with one worker, from standard input, or where no worker bundle is.
import type { FactStore } from '../facts/store';
import type { IngestOptions } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { SourceObject } from '../sources/types';
import { fileEntries, listingFailedStats } from './file-facts';
import { OrderedFacts } from './ordered-facts';

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
  const it = objects[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<SourceObject>;
    try {
      next = await it.next();
    } catch (e) {
      merged.end(seq++, listingFailedStats(e));
      break;
    }
    if (next.done) break;
    const s = createIngestStats();
    let n = 0;
    for await (const entry of fileEntries(next.value, s, opts)) {
      merged.add(seq, [entry]);
      if (onEvents && (++n & 1023) === 0) onEvents(before + eventsOf(s));
    }
    merged.end(seq++, s);
    before += eventsOf(s);
    onEvents?.(before);
  }
  return merged.finish(seq);
}
