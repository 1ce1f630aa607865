// The HTML report of the shared scenario corpus, rendered by the real pipeline and
// opened in headless Chromium (issue: reports people would rather look at).
import { mkdirSync } from 'fs';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { renderReport } from '../../lib/report';
import { inspectReport } from '../report/browser';
import { describeWithCorpus, SCENARIOS } from '../support/shared-corpus';

describeWithCorpus(SCENARIOS, 'HTML report of the shared scenario corpus', () => {
  it('renders without errors, every recreation marked and one band per loop', async () => {
    const doc = await analyzeInputs([SCENARIOS], defaultAnalysisOptions(), {});
    const html = renderReport(doc, 'html', {
      color: false,
      inputs: [SCENARIOS],
      generatedAt: '2026-11-30T00:00:00Z',
    });
    const artifacts = path.join(__dirname, '..', 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    const r = await inspectReport(html, { screenshotPath: path.join(artifacts, 'corpus-report.png') });
    expect(r.consoleErrors).toEqual([]);
    expect(r.pageErrors).toEqual([]);
    expect(r.requests).toEqual([]);
    expect(r.marked).toBe(doc.recreations.length);
    expect(r.loopBands).toBe(doc.loops.length);
    expect(r.marksByClass['external-mutation-revert']).toBe(
      doc.recreations.filter((x) => x.classification === 'external-mutation-revert').length,
    );
  });
});
