// Each alert names the raw records its decision rests on (lib/alerts/sources.ts): the audit IDs
// of its finding's evidence, found among the facts the run read, with their object and line.
import { alertSources, evidenceOf, MAX_ALERT_SOURCES } from '../../lib/alerts/sources';
import type { AlertEvent } from '../../lib/alerts/types';
import { FactStore } from '../../lib/facts/store';
import { operatorFact, podFact } from '../facts/fixtures';
import { loopEvent, recreation, recreationEvent } from '../notify/fixtures';

const withEvidence = (ids: string[]): AlertEvent => ({
  ...recreationEvent,
  id: 'r',
  recreation: { ...recreation, evidence: ids },
});
const facts = FactStore.of([
  operatorFact(),
  podFact({ auditID: 'a1', src: { source: 's3://logs/k/1.gz', line: 3 } }),
  podFact({ auditID: 'a2', src: { source: 's3://logs/k/2.gz', line: 9 } }),
  // A duplicate delivery of a1 (another object): the first read names it.
  podFact({ auditID: 'a1', src: { source: 's3://logs/k/3.gz', line: 1 } }),
  ...Array.from({ length: 8 }, (_, i) =>
    podFact({ auditID: `b${i}`, src: { source: 's3://logs/b.gz', line: i } }),
  ),
]);

describe('alertSources', () => {
  it.each<[string, string[], [string, number, string][]]>([
    [
      'in evidence order',
      ['a2', 'a1'],
      [
        ['s3://logs/k/2.gz', 9, 'a2'],
        ['s3://logs/k/1.gz', 3, 'a1'],
      ],
    ],
    ['an id not among the facts read is left out', ['zz', 'a2'], [['s3://logs/k/2.gz', 9, 'a2']]],
    ['none found: no sources', ['zz'], []],
    [
      `at most ${MAX_ALERT_SOURCES}`,
      Array.from({ length: 8 }, (_, i) => `b${i}`),
      Array.from({ length: MAX_ALERT_SOURCES }, (_, i): [string, number, string] => [
        's3://logs/b.gz',
        i,
        `b${i}`,
      ]),
    ],
  ])('%s', (_, ids, want) => {
    const got = alertSources([withEvidence(ids)], facts).get('r') ?? [];
    expect(got.map((s) => [s.object, s.line, s.auditID])).toEqual(want);
  });

  it('reads nothing when there is no alert', () => {
    const store = FactStore.of([podFact()]);
    const spy = jest.spyOn(store, 'fact');
    expect(alertSources([], store).size).toBe(0);
    expect(spy).not.toHaveBeenCalled();
  });

  it('takes a loop’s evidence from its newest recreation', () => {
    expect(evidenceOf(loopEvent)).toEqual(loopEvent.latest!.evidence);
    expect(evidenceOf({ ...loopEvent, latest: null })).toEqual([]);
  });
});
