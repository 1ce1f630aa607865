// One object's records projected to facts, each with the key de-duplication needs. The
// projection runs before de-duplication here (after it in `ingest`), so the key travels with
// the fact: a record whose projection is nothing still claims its (auditID, stage), exactly as
// the record would have, and a duplicate projected in vain is dropped like its record.
import { projectRecord } from '../facts/project';
import { readObject, type IngestOptions } from '../ingest';
import { recordKey, type StageKey } from '../ingest/dedupe';
import { addDetail, createIngestStats, type IngestStats } from '../ingest/stats';
import type { Fact } from '../model/facts';
import type { SourceObject } from '../sources/types';

export interface FactEntry {
  key: StageKey | null;
  fact: Fact | null;
}

/** What a worker can be told to do: every option but the caller's `keep` function. */
export type WorkerIngestOptions = Omit<IngestOptions, 'keep'>;

/** The object's entries in file order; its counts go to `stats` (one object's, merged later). */
export async function* fileEntries(
  obj: SourceObject,
  stats: IngestStats,
  opts: IngestOptions,
): AsyncGenerator<FactEntry> {
  for await (const rec of readObject(obj, stats, opts)) {
    const fact = projectRecord(rec);
    const key = recordKey(rec);
    if (key === null && fact === null) continue; // an operator line that cannot matter
    // The key alone, not the event it is read from: entries cross to another thread.
    yield { key: key && { auditID: key.auditID, stage: key.stage }, fact };
  }
}

/**
 * A bug some input reaches, thrown while reading an object: the object counts as failed part
 * way, what it gave stays, and the reader goes on with the next object.
 */
export function countReadFailure(stats: IngestStats, name: string, e: unknown): void {
  stats.files.errors++;
  addDetail(stats, {
    source: name,
    line: 0,
    reason: 'read-error',
    note: e instanceof Error ? e.message : String(e),
  });
}

/** The counts of an object whose reading stopped with its reader (a worker that died). */
export function lostObjectStats(name: string, note: string): IngestStats {
  const s = createIngestStats();
  s.files.read = 1;
  s.files.errors = 1;
  addDetail(s, { source: name, line: 0, reason: 'read-error', note });
  return s;
}
