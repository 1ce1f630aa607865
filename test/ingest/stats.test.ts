// IngestStats is plain JSON, and two runs (or two Lambda invocations) add up.
import { addDetail, createIngestStats, MAX_DETAILS, mergeIngestStats } from '../../lib/ingest/stats';
import { encodeAudit } from '../../sim/encode';
import { memoryObject, mixedEvents, readAll } from './fixtures';

describe('IngestStats', () => {
  it('survives a JSON round trip unchanged', async () => {
    const { stats } = await readAll([
      memoryObject(
        'a',
        encodeAudit(
          'audit-jsonl',
          mixedEvents().map((f) => f.event),
        ),
      ),
      memoryObject('b', 'junk\n'),
    ]);
    expect(JSON.parse(JSON.stringify(stats))).toEqual(stats);
  });

  it('adds every counter, merges per-format and per-reason counts, keeps details capped', async () => {
    const events = mixedEvents().map((f) => f.event);
    const one = await readAll([memoryObject('a', encodeAudit('audit-jsonl', events))]);
    const two = await readAll([
      memoryObject('b', encodeAudit('eks-cloudwatch-export', events)),
      memoryObject('c', 'junk\nmore junk\n{"x":1}\n'),
    ]);
    const both = await readAll([
      memoryObject('a', encodeAudit('audit-jsonl', events)),
      memoryObject('b', encodeAudit('eks-cloudwatch-export', events)),
      memoryObject('c', 'junk\nmore junk\n{"x":1}\n'),
    ]);
    const merged = createIngestStats();
    mergeIngestStats(merged, one.stats);
    mergeIngestStats(merged, two.stats);
    // De-duplication is the one thing separate runs cannot see across each other.
    const { dedupe: _m, ...mergedRest } = merged;
    const { dedupe: _b, ...bothRest } = both.stats;
    expect(mergedRest).toEqual(bothRest);
    expect(merged.records).toEqual({ 'audit-jsonl': events.length, 'eks-cloudwatch-export': events.length });
  });

  it('caps details at MAX_DETAILS and counts the rest', () => {
    const a = createIngestStats();
    const b = createIngestStats();
    for (let i = 0; i < MAX_DETAILS; i++) addDetail(a, { source: 'a', line: i + 1, reason: 'corrupt-json' });
    for (let i = 0; i < 10; i++) addDetail(b, { source: 'b', line: i + 1, reason: 'corrupt-json' });
    b.detailsOmitted = 5;
    mergeIngestStats(a, b);
    expect(a.details).toHaveLength(MAX_DETAILS);
    expect(a.detailsOmitted).toBe(15);
  });
});
