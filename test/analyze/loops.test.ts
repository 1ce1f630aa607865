import { findLoops } from '../../lib/analyze/loops';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import type { Recreation } from '../../lib/model/findings';

const OP = 'system:serviceaccount:kafka:kafka-operator';

function rec(
  at: string,
  by = OP,
  classification: Recreation['classification'] = 'external-mutation-revert',
): Recreation {
  return {
    namespace: 'kafka',
    kafkaCluster: 'c',
    brokerId: '1',
    deletedPod: { name: `c-1-${at}`, uid: at, deletedAt: at, deletedBy: by },
    createdPod: null,
    classification,
    fields: [
      { path: 'spec.containers[name=kafka].resources.requests.cpu', from: '1', to: '2', by: 'hook/w' },
    ],
    wouldRestart: { threeWayMerge: true, intentDiff: false },
    evidence: [],
  };
}

const t = (s: number) => new Date(Date.UTC(2026, 10, 2, 10, 0, 0) + s * 1000).toISOString();
const opts = defaultAnalysisOptions();
const operators = new Set([OP]);

describe('findLoops', () => {
  it('finds a run of operator recreations with its period, fields and mutators', () => {
    const recs = [0, 8, 16, 25, 33].map((s) => rec(t(s)));
    const [loop, ...rest] = findLoops(recs, operators, t(3600), opts);
    expect(rest).toHaveLength(0);
    expect(loop).toMatchObject({
      count: 5,
      firstAt: t(0),
      lastAt: t(33),
      periodSeconds: 8.0,
      classification: 'external-mutation-revert',
      fields: ['spec.containers[name=kafka].resources.requests.cpu'],
      mutators: ['hook/w'],
      active: false,
    });
    expect(loop.recommendation).toContain('hook/w');
  });

  it('needs loopMinCount recreations', () => {
    expect(findLoops([rec(t(0)), rec(t(8))], operators, t(10), opts)).toEqual([]);
  });

  it('splits runs at a gap longer than loopMaxGap', () => {
    const recs = [0, 10, 20, 20 + 601, 20 + 611, 20 + 621].map((s) => rec(t(s)));
    expect(findLoops(recs, operators, t(5000), opts).map((l) => l.count)).toEqual([3, 3]);
  });

  it('ends a run at a deletion by someone else', () => {
    const recs = [
      rec(t(0)),
      rec(t(10)),
      rec(t(20), 'bob@example.com', 'external-deletion'),
      rec(t(30)),
      rec(t(40)),
    ];
    expect(findLoops(recs, operators, t(5000), opts)).toEqual([]);
  });

  it('is active when the last deletion is within two periods of the end of the data', () => {
    const recs = [0, 10, 20].map((s) => rec(t(s)));
    expect(findLoops(recs, operators, t(35), opts)[0].active).toBe(true);
    expect(findLoops(recs, operators, t(45), opts)[0].active).toBe(false);
  });

  it('takes the most common class of the run', () => {
    const recs = [rec(t(0), OP, 'intent-change'), rec(t(10)), rec(t(20))];
    expect(findLoops(recs, operators, t(5000), opts)[0].classification).toBe('external-mutation-revert');
  });
});
