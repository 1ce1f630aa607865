// A listing read to its end or to its failure. A listing that fails part way (no such
// bucket, access denied on a later page) keeps what it listed before, and says so in the
// counts: one place, for the record reader and the fact readers alike.
import type { SourceObject } from '../sources/types';
import { addDetail, createIngestStats, type IngestStats } from './stats';

/**
 * The objects of a listing, and at its end, if it failed part way (no such bucket, access
 * denied), the counts that say so: what was listed before stays listed.
 */
export async function* listedObjects(
  objects: AsyncIterable<SourceObject>,
): AsyncGenerator<{ object: SourceObject } | { failed: IngestStats }> {
  const it = objects[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<SourceObject>;
    try {
      next = await it.next();
    } catch (e) {
      yield { failed: listingFailedStats(e) };
      return;
    }
    if (next.done) return;
    yield { object: next.value };
  }
}

function listingFailedStats(e: unknown): IngestStats {
  const s = createIngestStats();
  s.files.errors = 1;
  addDetail(s, {
    source: 'listing',
    line: 0,
    reason: 'list-error',
    note: e instanceof Error ? e.message : String(e),
  });
  return s;
}
