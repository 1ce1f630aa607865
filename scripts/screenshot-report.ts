// Redraws docs/report-examples.png, the README's picture of the HTML report: the bundled
// examples analysed and rendered as the CLI does, shot in the tests' packaged Chromium.
//
//   npx tsx scripts/screenshot-report.ts
import { join } from 'path';
import { defaultAnalysisOptions } from '../lib/analyze/options';
import { analyzeInputs } from '../lib/pipeline/analyze-inputs';
import { renderReport } from '../lib/report';
import { openReport } from '../test/report/browser';
import { launchChromium } from '../test/support/chromium';
import { helpRequested } from './usage';

const ROOT = join(__dirname, '..');

async function main(): Promise<void> {
  helpRequested(
    process.argv.slice(2),
    "Usage: npx tsx scripts/screenshot-report.ts\n\nRedraws docs/report-examples.png: the examples' HTML report shot in Chromium.\n",
  );
  // Paths in the picture as a user types them, relative to the checkout.
  process.chdir(ROOT);
  // The README's first command.
  const input = 'examples/logs';
  const doc = await analyzeInputs([input], defaultAnalysisOptions(), {});
  const html = renderReport(doc, 'html', {
    color: false,
    inputs: [input],
    generatedAt: '2026-05-04T09:05:00Z',
  });
  const browser = await launchChromium();
  try {
    const { page } = await openReport(browser, html, { viewport: { width: 1280, height: 1400 } });
    await page.screenshot({ path: join(ROOT, 'docs', 'report-examples.png') });
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
