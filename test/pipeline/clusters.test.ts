// Two Kubernetes clusters running KafkaClusters of the same names: analysed together
// their brokers would pair across clusters; with `clusters` prefixes they stay apart.
import { mkdirSync, mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeByCluster } from '../../lib/pipeline/analyze-inputs';
import { simulateCluster } from '../../sim';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';

describe('analyzeByCluster', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'clusters-'));
  const sims = { prod: 1, staging: 2 };
  const truth: ExpectedDocument = { recreations: [], loops: [] };
  for (const [name, seed] of Object.entries(sims)) {
    const sim = simulateCluster({
      seed,
      start: '2026-11-03T08:00:00Z',
      scenarios: ['scaleops-loop', 'manual-delete'],
    });
    mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, name, 'audit.log'), encodeAudit('audit-jsonl', sim.audit));
    writeFileSync(path.join(root, name, 'manager.log'), encodeOperator('zap-json', sim.operator));
    truth.recreations.push(...(sim.truth.recreations as ExpectedDocument['recreations']));
    truth.loops.push(...(sim.truth.loops as ExpectedDocument['loops']));
  }
  const inputs = Object.keys(sims).map((n) => path.join(root, n));

  it('keeps each cluster’s brokers apart and reports both clusters’ findings', async () => {
    const clusters = Object.keys(sims).map((name) => ({ prefix: path.join(root, name), name }));
    const doc = await analyzeByCluster(inputs, clusters, defaultAnalysisOptions(), {});
    const byCluster = (doc.summary as { clusters: Record<string, { recreations: number }> }).clusters;
    expect(Object.keys(byCluster).sort()).toEqual(['prod', 'staging']);
    // Same broker names in both clusters: loops match by broker, so check recreations
    // exactly and that each cluster's loop is there.
    expect(contractMistakes({ recreations: truth.recreations, loops: [] }, { ...doc, loops: [] })).toEqual(
      [],
    );
    const counts = (ls: Array<{ count: number }>) => ls.map((l) => l.count).sort((a, b) => a - b);
    expect(counts(doc.loops)).toEqual(counts(truth.loops));
  });

  it('without the prefixes, mixes them (the reason the setting exists)', async () => {
    const doc = await analyzeByCluster(inputs, undefined, defaultAnalysisOptions(), {});
    // Both clusters' loops on the same broker, at the same time, run together as one.
    expect(doc.loops.map((l) => l.count)).not.toEqual(truth.loops.map((l) => l.count));
  });
});
