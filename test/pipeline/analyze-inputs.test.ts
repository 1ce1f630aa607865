import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { gzipSync } from 'zlib';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { simulateCluster } from '../../sim';

/** One scaleops loop's audit log (gzip'd JSON lines) and its operator's lines. */
function loopLogs() {
  const sim = simulateCluster({ seed: 5, start: '2026-11-03T08:00:00Z', scenarios: ['scaleops-loop'] });
  const audit = gzipSync(sim.audit.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const ops = Buffer.from(
    sim.operator
      .map((l) => JSON.stringify({ level: l.level, ts: l.ts, msg: l.msg, ...l.fields }))
      .join('\n') + '\n',
  );
  return { sim, audit, ops };
}

describe('analyzeInputs progress', () => {
  it('reports the listing’s total, every stored byte read, every event read, and the analysis phase', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'progress-'));
    const { sim, audit, ops } = loopLogs();
    writeFileSync(path.join(dir, 'audit.log.gz'), audit);
    writeFileSync(path.join(dir, 'manager.log'), ops);

    const updates: Array<[number, number]> = [];
    let total = -1;
    let done = false;
    const phases: string[] = [];
    const doc = await analyzeInputs(
      [dir],
      defaultAnalysisOptions(),
      {},
      {
        progress: (t) => {
          total = t;
          return {
            update: (bytes, events) => void updates.push([bytes, events]),
            phase: (text) => void phases.push(text),
            done: () => void (done = true),
          };
        },
      },
    );
    expect(total).toBe(audit.length + ops.length);
    expect(updates[updates.length - 1][0]).toBe(total);
    // Every event read, not only the few kept: the noise is most of a real log.
    expect(updates[updates.length - 1][1]).toBe(sim.audit.length + sim.operator.length);
    expect(phases).toEqual([expect.stringMatching(/^analysing \d[\d,]* facts/)]);
    expect(done).toBe(true);
    expect(doc.loops).toHaveLength(1);
  });
});

describe('analyzeInputs: operator logs absent', () => {
  const { audit, ops } = loopLogs();
  const warned = (doc: { summary: Record<string, unknown> }) =>
    ((doc.summary.warnings as string[]) ?? []).filter((w) => w.startsWith('no koperator log line was read'));

  it.each([
    ['audit and operator logs', true, 0],
    ['the audit log alone', false, 1],
  ])('%s: the warning is there %#', async (_, withOperator, warnings) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oplogs-'));
    writeFileSync(path.join(dir, 'audit.log.gz'), audit);
    if (withOperator) writeFileSync(path.join(dir, 'manager.log'), ops);
    const doc = await analyzeInputs([dir], defaultAnalysisOptions(), {});
    // The recreations are found either way; only the missing lines are said.
    expect(doc.recreations.length).toBeGreaterThan(0);
    expect(warned(doc)).toHaveLength(warnings);
    if (warnings) expect(warned(doc)[0]).toMatch(/eksOperatorLogs, docs\/deploying\.md "Operator logs"/);
  });
});
