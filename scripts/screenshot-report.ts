// Redraws the HTML report's pictures in README and docs/output.md, analysed and rendered as the CLI does
// and shot in the tests' packaged Chromium: docs/report-examples.png from the bundled
// examples, and docs/report-fights.png from the shared fights corpus where it exists.
//
//   npx tsx scripts/screenshot-report.ts
import { existsSync } from 'fs';
import { join } from 'path';
import { defaultAnalysisOptions } from '../lib/analyze/options';
import { analyzeInputs } from '../lib/pipeline/analyze-inputs';
import { renderReport } from '../lib/report';
import { openReport } from '../test/report/browser';
import { launchChromium } from '../test/support/chromium';
import { helpRequested } from './usage';

const ROOT = join(__dirname, '..');

const PICTURES = [
  // The README's first command.
  { input: 'examples/logs', out: 'report-examples.png', height: 1400, generatedAt: '2026-05-04T09:05:00Z' },
  {
    input: '../shared/corpus/fights',
    out: 'report-fights.png',
    height: 1600,
    generatedAt: '2026-11-09T16:05:00Z',
  },
];

async function main(): Promise<void> {
  helpRequested(
    process.argv.slice(2),
    "Usage: npx tsx scripts/screenshot-report.ts\n\nRedraws docs/report-examples.png: the examples' HTML report shot in Chromium.\n",
  );
  // Paths in the picture as a user types them, relative to the checkout.
  process.chdir(ROOT);
  const browser = await launchChromium();
  try {
    for (const p of PICTURES) {
      if (!existsSync(p.input)) {
        console.warn(`${p.input} is absent: docs/${p.out} left as it is`);
        continue;
      }
      const doc = await analyzeInputs([p.input], defaultAnalysisOptions(), {});
      const html = renderReport(doc, 'html', { color: false, inputs: [p.input], generatedAt: p.generatedAt });
      const { page } = await openReport(browser, html, { viewport: { width: 1280, height: p.height } });
      await page.screenshot({ path: join(ROOT, 'docs', p.out) });
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
