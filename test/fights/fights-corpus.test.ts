// The shared fights corpus (when present): one EKS cluster's logs in three delivery formats,
// with its fights scored by fights.md's matching rules, its koperator findings unchanged, and
// the external corpus (real clusters' logs with no fight) silent.
import { readFileSync } from 'fs';
import * as path from 'path';
import type { Fight, Loop, Recreation } from '../../lib/model/findings';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { describeWithCorpus, EXTERNAL, FIGHTS } from '../support/shared-corpus';

interface Expected {
  fights: Fight[];
  recreations: Recreation[];
  loops: Loop[];
}

const key = (f: Fight) => `${f.kind} ${f.namespace ?? '-'}/${f.target.resource}/${f.target.name}`;

describeWithCorpus(FIGHTS, 'the fights corpus', () => {
  it('finds every fight of the truth (fights.md matching rules) and nothing else', async () => {
    const expected = JSON.parse(readFileSync(path.join(FIGHTS, 'expected.json'), 'utf8')) as Expected;
    const doc = await analyzeInputs([FIGHTS], defaultAnalysisOptions(), {});
    const got = doc.fights ?? [];
    expect(got.map(key).sort()).toEqual(expected.fights.map(key).sort());
    for (const t of expected.fights) {
      const f = got.find((g) => key(g) === key(t))!;
      expect({ key: key(t), missingFields: t.fields.filter((p) => !f.fields.includes(p)) }).toEqual({
        key: key(t),
        missingFields: [],
      });
      expect(f.writers).toEqual(expect.arrayContaining(t.writers));
      for (const m of t.mutators) expect(f.mutators.some((x) => x.includes(m))).toBe(true);
      expect(Math.abs(f.count - t.count)).toBeLessThanOrEqual(0.2 * t.count);
      expect(f.recommendation.length).toBeGreaterThan(40);
    }
    // koperator's findings are its own: the broker loop stays a loop, never a fight.
    expect(doc.loops.map((l) => [l.kafkaCluster, l.brokerId, l.count])).toEqual(
      expected.loops.map((l) => [l.kafkaCluster, l.brokerId, l.count]),
    );
    expect(doc.recreations.length).toBe(expected.recreations.length);
  });
});

describeWithCorpus(EXTERNAL, 'the external corpus', () => {
  it('holds no fight and no finding', async () => {
    const doc = await analyzeInputs([EXTERNAL], defaultAnalysisOptions(), {});
    expect({ fights: doc.fights, recreations: doc.recreations.length, loops: doc.loops.length }).toEqual({
      fights: [],
      recreations: 0,
      loops: 0,
    });
  });
});
