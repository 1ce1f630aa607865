// An object read on this thread fails alone, as one read by a worker does: a bug some input
// reaches is the object's read error, what it gave before stays, and the next object is read.
import { readInThread } from '../../lib/ingest-pool/in-thread';
import type { OrderedFacts } from '../../lib/ingest-pool/ordered-facts';
import type { FactEntry } from '../../lib/ingest-pool/file-facts';
import type { IngestStats } from '../../lib/ingest/stats';
import { simulateCluster } from '../../sim';
import { encodeAudit } from '../../sim/encode';
import { memoryObject } from '../ingest/fixtures';

const sim = simulateCluster({ seed: 3, start: '2026-11-04T06:00:00Z', noiseRatio: 0.3 });
// Enough kept records for more than one batch of 1024 entries.
const events = Array.from({ length: 12 }, (_, k) =>
  sim.audit.map((e) => ({ ...e, auditID: `${e.auditID.slice(0, -4)}${k.toString(16).padStart(4, '0')}` })),
).flat();

/** A merge that records what it is given and throws on the `failAt`th batch. */
function merge(failAt: number) {
  const added: FactEntry[][] = [];
  const ended: IngestStats[] = [];
  let calls = 0;
  const merged = {
    add: (_seq: number, entries: readonly FactEntry[]) => {
      if (++calls === failAt) throw new Error('a bug this input reaches');
      added.push([...entries]);
    },
    end: (_seq: number, stats: IngestStats) => void ended.push(stats),
  } as unknown as OrderedFacts;
  return { merged, added, ended };
}

it('a failure while reading counts the object as a read error, keeps what came before, and ends it', async () => {
  const whole = merge(0);
  await readInThread(0, memoryObject('part.jsonl', encodeAudit('audit-jsonl', events)), whole.merged, {});
  const batches = whole.added.filter((b) => b.length > 0).length;
  expect(batches).toBeGreaterThan(2); // the failure falls inside the read, not on its last batch

  const failing = merge(2);
  await expect(
    readInThread(0, memoryObject('part.jsonl', encodeAudit('audit-jsonl', events)), failing.merged, {}),
  ).resolves.toBeGreaterThan(0);
  expect(failing.added[0]).toEqual(whole.added[0]);
  expect(failing.ended).toHaveLength(1);
  expect(failing.ended[0].files.errors).toBe(1);
  expect(failing.ended[0].details).toEqual([
    { source: 'part.jsonl', line: 0, reason: 'read-error', note: 'a bug this input reaches' },
  ]);
});
