// Every label of the HTML report readable in full at the widths people use (1,280 and
// 1,920 px), on the bundled examples and on the fights corpus, in real headless Chromium:
// no label cut short with "…", none reaching past its column or over another, and a
// screenshot of each kept in test/artifacts.
import { mkdirSync } from 'fs';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import type { FindingsDocument } from '../../lib/model/findings';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { renderReport } from '../../lib/report';
import { TIMELINE } from '../../lib/report/html/timeline';
import { describeWithCorpus, FIGHTS } from '../support/shared-corpus';
import {
  clippedElements,
  collisions,
  launchChromium,
  openReport,
  timelineLabels,
  type OpenedReport,
} from './browser';

const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const EXAMPLES = path.join(__dirname, '..', '..', 'examples', 'logs');
const WIDTHS = [1280, 1920];

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60000);
afterAll(async () => {
  await browser?.close();
});

function labelChecks(name: string, load: () => Promise<FindingsDocument>): void {
  describe.each(WIDTHS)(`${name} at %i px`, (width) => {
    let report: OpenedReport;
    let doc: FindingsDocument;
    beforeAll(async () => {
      doc = await load();
      const html = renderReport(doc, 'html', {
        color: false,
        inputs: [name],
        generatedAt: '2026-12-06T00:00:00Z',
      });
      report = await openReport(browser, html, { viewport: { width, height: 900 } });
      await report.page.screenshot({
        path: path.join(ARTIFACTS, `labels-${name}-${width}.png`),
        fullPage: true,
      });
    }, 60000);
    afterAll(async () => {
      await report?.page.close();
    });

    it('draws a label for every broker and fight, none cut short', async () => {
      const drawn = await timelineLabels(report.page);
      expect(drawn.rowLabels.length).toBeGreaterThan(0);
      expect(drawn.rowLabels.filter((l) => l.text.startsWith('fight'))).toHaveLength(
        Math.min((doc.fights ?? []).length, drawn.rowLabels.length),
      );
      expect(drawn.texts.filter((t) => t.includes('…'))).toEqual([]);
    });

    it('keeps each row label in the label column and clear of the others', async () => {
      const drawn = await timelineLabels(report.page);
      const plotLeft =
        drawn.svg.left + (TIMELINE.labelWidth * (drawn.svg.right - drawn.svg.left)) / TIMELINE.width;
      expect(drawn.rowLabels.filter((l) => l.right > plotLeft).map((l) => l.text)).toEqual([]);
      expect(collisions(drawn.rowLabels)).toEqual([]);
    });

    it('keeps every band label inside the drawing', async () => {
      const drawn = await timelineLabels(report.page);
      const outside = drawn.loopLabels.filter((l) => l.left < drawn.svg.left || l.right > drawn.svg.right);
      expect(outside.map((l) => l.text)).toEqual([]);
    });

    it('clips nothing in the advice, loops and fights sections', async () => {
      expect(
        await clippedElements(
          report.page,
          '#what-to-do .recommendation, #what-to-do .advice, #loops summary > span, #loops td, #fights td, #fights summary',
        ),
      ).toEqual([]);
    });
  });
}

labelChecks('examples', () => analyzeInputs([EXAMPLES], defaultAnalysisOptions(), {}));

describeWithCorpus(FIGHTS, 'the fights corpus', () => {
  labelChecks('fights', () => analyzeInputs([FIGHTS], defaultAnalysisOptions(), {}));
});
