// The live-drift corpus from a real kube-apiserver (when present): its drifts scored by
// drift.md's matching rules, the values and verdicts the truth records, its recreations
// unchanged; and the other corpora, which hold no out-of-band write to a declared field, silent.
import { readFileSync } from 'fs';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import type { Drift } from '../../lib/model/findings';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';
import { driftMistakes } from '../support/drift-match';
import { describeWithCorpus, DRIFT, EXTERNAL, FIGHTS, SCENARIOS } from '../support/shared-corpus';

describeWithCorpus(DRIFT, 'the live-drift corpus', () => {
  const expected = () =>
    JSON.parse(readFileSync(path.join(DRIFT, 'expected.json'), 'utf8')) as ExpectedDocument & {
      drifts: Drift[];
    };

  it('finds every drift of the truth, right, and nothing else; the recreations still hold', async () => {
    const truth = expected();
    const doc = await analyzeInputs([DRIFT], defaultAnalysisOptions(), {});
    expect(driftMistakes(truth.drifts, doc.drifts ?? [])).toEqual([]);
    expect(contractMistakes(truth, doc)).toEqual([]);
    expect(doc.summary.drifts).toBe(truth.drifts.length);
  });

  it('reports the truth’s values, ends, verdicts and evidence', async () => {
    const truth = expected();
    const doc = await analyzeInputs([DRIFT], defaultAnalysisOptions(), {});
    const strip = (d: Drift & { note?: string }) => {
      const { note, ...rest } = d;
      void note;
      return rest;
    };
    expect(doc.drifts).toEqual(truth.drifts.map(strip));
  });
});

for (const [dir, title] of [
  [SCENARIOS, 'the scenario corpus'],
  [FIGHTS, 'the fights corpus'],
  [EXTERNAL, 'the external corpus'],
] as const) {
  describeWithCorpus(dir, `${title}, for drift`, () => {
    it('holds no drift', async () => {
      const doc = await analyzeInputs([dir], defaultAnalysisOptions(), {});
      expect(doc.drifts).toEqual([]);
    });
  });
}
