// Objects read in parallel finish in any order; the merge must give what reading them one
// after the other gives: the same facts in the same order, the same counts and details.
import fc from 'fast-check';
import { createIngestStats, addDetail, type IngestStats } from '../../lib/ingest/stats';
import { OrderedFacts } from '../../lib/ingest-pool/ordered-facts';
import type { FactEntry } from '../../lib/ingest-pool/file-facts';
import type { FactStore } from '../../lib/facts/store';
import { podFact, operatorFact } from '../facts/fixtures';

const STAGES = ['RequestReceived', 'ResponseComplete', 'ResponseStarted', 'Panic'] as const;

/** An object's entries: audit facts over a few shared auditIDs (so duplicates cross objects), operator lines, keys whose projection was nothing. */
const entryArb: fc.Arbitrary<FactEntry> = fc.oneof(
  fc
    .record({
      id: fc.integer({ min: 0, max: 5 }),
      stage: fc.constantFrom(...STAGES),
      second: fc.integer({ min: 0, max: 59 }),
    })
    .map(({ id, stage, second }) => {
      const auditID = `00000000-0000-4000-8000-00000000000${id}`;
      const fact = podFact({ auditID, stage, at: `2026-11-02T10:00:${String(second).padStart(2, '0')}Z` });
      return { key: { auditID, stage }, fact };
    }),
  fc
    .integer({ min: 0, max: 5 })
    .map((id) => ({ key: { auditID: `k${id}`, stage: 'ResponseComplete' }, fact: null })),
  fc.integer({ min: 0, max: 9 }).map((n) => ({ key: null, fact: operatorFact({ msg: `line ${n}` }) })),
);

const objectArb = fc.record({
  entries: fc.array(entryArb, { maxLength: 12 }),
  skipped: fc.nat({ max: 3 }),
  format: fc.constantFrom('audit-jsonl', 'eks-cloudwatch-export'),
});
type Obj = { entries: FactEntry[]; skipped: number; format: string };

function objectStats(o: Obj, i: number): IngestStats {
  const s = createIngestStats();
  s.files.read = 1;
  s.audit.read = o.entries.length;
  (s.records as Record<string, number>)[o.format] = o.entries.length;
  for (let k = 0; k < o.skipped; k++)
    addDetail(s, { source: `object-${i}`, line: k + 1, reason: 'corrupt-json' });
  s.skipped['corrupt-json'] = o.skipped;
  return s;
}

function facts(store: FactStore): unknown[] {
  return Array.from({ length: store.size }, (_, i) => store.fact(i));
}

/** Reading one object after the other: the reference. */
function inOrder(objs: Obj[]): { facts: unknown[]; stats: IngestStats } {
  const stats = createIngestStats();
  const m = new OrderedFacts(stats);
  objs.forEach((o, i) => {
    m.add(i, o.entries);
    m.end(i, objectStats(o, i));
  });
  return { facts: facts(m.finish(objs.length)), stats };
}

/** Each object in batches, the batches of all objects interleaved as `schedule` says. */
function interleaved(
  objs: Obj[],
  schedule: number[],
  batch: number,
): { facts: unknown[]; stats: IngestStats } {
  const stats = createIngestStats();
  const m = new OrderedFacts(stats);
  const sent = objs.map(() => 0);
  const ended = objs.map(() => false);
  const open = () => objs.map((_, i) => i).filter((i) => !ended[i]);
  for (let step = 0; open().length > 0; step++) {
    const live = open();
    const i = live[(schedule[step % Math.max(1, schedule.length)] ?? 0) % live.length];
    const o = objs[i];
    if (sent[i] < o.entries.length) {
      m.add(i, o.entries.slice(sent[i], sent[i] + batch));
      sent[i] += batch;
    } else {
      m.end(i, objectStats(o, i));
      ended[i] = true;
    }
  }
  return { facts: facts(m.finish(objs.length)), stats };
}

describe('ordered merge of objects read in parallel', () => {
  it('any completion order gives the facts, counts and details of reading in order', () => {
    fc.assert(
      fc.property(
        fc.array(objectArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (objs, schedule, batch) => {
          const want = inOrder(objs);
          const got = interleaved(objs, schedule, batch);
          expect(got.facts).toEqual(want.facts);
          expect(JSON.stringify(got.stats)).toBe(JSON.stringify(want.stats));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a duplicate in a later object that finishes first is still the duplicate', [1, 0]],
    ['objects finishing last to first', [2, 1, 0]],
  ])('%s', (_name, finishOrder) => {
    const id = '00000000-0000-4000-8000-000000000001';
    const first = podFact({ auditID: id, src: { source: 'object-0', line: 1 } });
    const again = podFact({ auditID: id, src: { source: 'object-1', line: 9 } });
    const objs: Obj[] = [
      {
        entries: [{ key: { auditID: id, stage: 'ResponseComplete' }, fact: first }],
        skipped: 0,
        format: 'audit-jsonl',
      },
      {
        entries: [{ key: { auditID: id, stage: 'ResponseComplete' }, fact: again }],
        skipped: 1,
        format: 'audit-jsonl',
      },
      { entries: [], skipped: 0, format: 'audit-jsonl' },
    ].slice(0, finishOrder.length);
    const stats = createIngestStats();
    const m = new OrderedFacts(stats);
    for (const i of finishOrder) {
      m.add(i, objs[i].entries);
      m.end(i, objectStats(objs[i], i));
    }
    const store = m.finish(objs.length);
    expect(facts(store)).toEqual([first]);
    expect(stats.dedupe.duplicates).toBe(1);
  });

  it('RequestReceived waits for the end of all objects, and is dropped when any object completes it', () => {
    const id = '00000000-0000-4000-8000-000000000002';
    const received = podFact({ auditID: id, stage: 'RequestReceived' });
    const complete = podFact({ auditID: id, stage: 'ResponseComplete' });
    const lonely = podFact({ auditID: '00000000-0000-4000-8000-000000000003', stage: 'RequestReceived' });
    const stats = createIngestStats();
    const m = new OrderedFacts(stats);
    m.add(1, [{ key: { auditID: id, stage: 'ResponseComplete' }, fact: complete }]);
    m.end(1, createIngestStats());
    m.add(0, [
      { key: { auditID: id, stage: 'RequestReceived' }, fact: received },
      { key: { auditID: lonely.auditID, stage: 'RequestReceived' }, fact: lonely },
    ]);
    m.end(0, createIngestStats());
    expect(facts(m.finish(2))).toEqual([complete, lonely]);
    expect(stats.dedupe).toEqual({ duplicates: 0, requestReceivedSuperseded: 1, requestReceivedEmitted: 1 });
  });

  it.each([
    ['an object that never ends', (m: OrderedFacts) => m.end(1, createIngestStats()), /never ended/],
    [
      'an object ended twice',
      (m: OrderedFacts) => (m.end(0, createIngestStats()), m.end(0, createIngestStats())),
      /twice/,
    ],
    [
      'entries after an object ended',
      (m: OrderedFacts) => (m.end(1, createIngestStats()), m.add(1, [])),
      /after its end/,
    ],
  ])('refuses %s', (_name, misuse, message) => {
    const m = new OrderedFacts(createIngestStats());
    expect(() => {
      misuse(m);
      m.finish(2);
    }).toThrow(message);
  });
});
