// The analysis over the shared corpora, through the same pipeline the CLI runs.
import { promises as fs } from 'fs';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';
import { describeWithCorpus, EXTERNAL, SCENARIOS } from '../support/shared-corpus';

describeWithCorpus(SCENARIOS, 'shared scenario corpus', () => {
  it('finds every recreation and loop of expected.json, right, and nothing extra', async () => {
    const expected = JSON.parse(
      await fs.readFile(path.join(SCENARIOS, 'expected.json'), 'utf8'),
    ) as ExpectedDocument;
    const doc = await analyzeInputs([SCENARIOS], defaultAnalysisOptions(), {});
    expect(contractMistakes(expected, doc)).toEqual([]);
    expect(doc.recreations).toHaveLength(expected.recreations.length);
  });

  it('reports the truth’s field values and verdicts for every recreation', async () => {
    const expected = JSON.parse(await fs.readFile(path.join(SCENARIOS, 'expected.json'), 'utf8'));
    const doc = await analyzeInputs([SCENARIOS], defaultAnalysisOptions(), {});
    for (const e of expected.recreations) {
      const a = doc.recreations.find((r) => r.deletedPod.uid === e.deletedPod.uid)!;
      // readyAt is an addition to the contract's keys (summary.fixImpact), not in the truth.
      const created = a.createdPod && {
        name: a.createdPod.name,
        uid: a.createdPod.uid,
        createdAt: a.createdPod.createdAt,
      };
      expect({ pod: a.deletedPod, created, wouldRestart: a.wouldRestart }).toEqual({
        pod: e.deletedPod,
        created: e.createdPod,
        wouldRestart: e.wouldRestart,
      });
      const byPath = (fs: Array<{ path: string }>) => [...fs].sort((x, y) => x.path.localeCompare(y.path));
      // The contract's keys; `via` (how the writer wrote) extends it and is checked on the simulator.
      const contractKeys = a.fields.map((f) => ({ path: f.path, from: f.from, to: f.to, by: f.by }));
      expect(byPath(contractKeys)).toEqual(byPath(e.fields));
    }
    for (const e of expected.loops) {
      const a = doc.loops.find((l) => l.kafkaCluster === e.kafkaCluster && l.brokerId === e.brokerId)!;
      const { recommendation, ...contractKeys } = a;
      expect(recommendation.length).toBeGreaterThan(0);
      expect(contractKeys).toEqual(e);
    }
  });

  it('counts what it skipped, by reason, and keeps going past the damaged files', async () => {
    const doc = await analyzeInputs([SCENARIOS], defaultAnalysisOptions(), {});
    const s = doc.summary as { skipped: Record<string, number>; files: { foreign: number; errors: number } };
    expect(Object.values(s.skipped).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(s.files.foreign).toBeGreaterThan(0);
    expect(s.files.errors).toBeGreaterThan(0);
  });
});

describeWithCorpus(EXTERNAL, 'shared external corpus (real public audit samples)', () => {
  it('reads every file without a crash and reports no recreation or loop', async () => {
    const doc = await analyzeInputs([EXTERNAL], defaultAnalysisOptions(), {});
    expect(doc.recreations).toEqual([]);
    expect(doc.loops).toEqual([]);
    const s = doc.summary as { audit: { read: number } };
    expect(s.audit.read).toBeGreaterThan(800);
  });
});
