// The report's operator-log warning names each operator whose members were re-created, in
// that operator's words, and only when no operator line at all was read.
import { FactStore } from '../../lib/facts/store';
import { missesOperatorLogs, operatorLogWarnings } from '../../lib/pipeline/checks';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';

const sim = simulateCluster({ seed: 5, start: '2026-11-03T08:00:00Z', scenarios: ['scaleops-loop'] });
const withLines = FactStore.of(simulatedFacts(sim));
const auditOnly = FactStore.of(simulatedFacts({ ...sim, operator: [] }));

const KOPERATOR = /^no koperator log line was read: .*"resource diffs".*tainted labels.*eksOperatorLogs/;
const NIFIKOP = /^no NiFiKop log line was read: .*"Deleting pod".*1\.15 or later.*eksOperatorLogs/;

describe('operatorLogWarnings', () => {
  it.each<[string, Array<string | undefined>, RegExp[]]>([
    ['nothing found', [], []],
    ['koperator members (no operator field)', [undefined, undefined], [KOPERATOR]],
    ['NiFiKop members only', ['nifikop'], [NIFIKOP]],
    ['both, NiFiKop first in the findings', ['nifikop', undefined, 'koperator'], [KOPERATOR, NIFIKOP]],
  ])('%s, audit log alone', (_, operators, want) => {
    const got = operatorLogWarnings(auditOnly, operators);
    expect(got).toHaveLength(want.length);
    want.forEach((re, i) => expect(got[i]).toMatch(re));
    if (operators.every((o) => o === 'nifikop')) expect(got.join('\n')).not.toMatch(/koperator/);
  });

  it('says nothing when operator lines were read', () => {
    expect(sim.operator.length).toBeGreaterThan(0);
    expect(operatorLogWarnings(withLines, [undefined, 'nifikop'])).toEqual([]);
  });
});

describe('missesOperatorLogs', () => {
  const warned = operatorLogWarnings(auditOnly, [undefined]);
  it.each([
    ['loop', true],
    ['recreation', true],
    ['fight', false],
    ['drift', false],
  ] as const)('a %s alert of a run without operator lines: %s', (kind, want) => {
    expect(missesOperatorLogs(kind, warned)).toBe(want);
    expect(missesOperatorLogs(kind, [])).toBe(false);
  });
});
