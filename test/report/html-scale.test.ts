// The HTML report at the sizes people meet: the benchmark's 1 GB day (3,000 recreations,
// 115 loops on 5 of 8 brokers) and a fleet's 100,000 recreations, measured in real
// headless Chromium at the widths people use; and the header's account of failed inputs.
import { mkdirSync } from 'fs';
import { join } from 'path';
import type { Browser } from 'playwright-core';
import type { FindingsDocument } from '../../lib/model/findings';
import { renderReport } from '../../lib/report';
import {
  clickMark,
  clippedElements,
  collisions,
  countReport,
  domCensus,
  isRecreationOpen,
  launchChromium,
  openReport,
  pageHeight,
  timelineLabels,
  type OpenedReport,
} from './browser';
import { buildFixture } from './fixture';
import { BENCH_1GB, buildLoopingFleet, FLEET_100K } from './looping-fleet';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const render = (doc: FindingsDocument): string =>
  renderReport(doc, 'html', {
    color: false,
    inputs: ['s3://audit-logs/eks/prod/'],
    generatedAt: '2026-11-03T00:00:00Z',
  });

async function expectLabelsClear(report: OpenedReport): Promise<void> {
  const { loopLabels, rowLabels, svg } = await timelineLabels(report.page);
  expect(loopLabels.length).toBeGreaterThan(0);
  expect(collisions(loopLabels)).toEqual([]);
  expect(collisions([...loopLabels, ...rowLabels]).length).toBe(collisions(rowLabels).length);
  for (const l of loopLabels) {
    expect(l.left).toBeGreaterThanOrEqual(svg.left);
    expect(l.right).toBeLessThanOrEqual(svg.right);
  }
}

describe('HTML report at scale, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe("the benchmark's 1 GB day: 2,989 recreations, 115 loops on 5 of 8 brokers", () => {
    const doc = buildLoopingFleet(BENCH_1GB);
    const html = render(doc);
    const advice = new Set(doc.loops.map((l) => l.recommendation));

    it('is the shape the benchmark gives', () => {
      expect([doc.recreations.length, doc.loops.length, advice.size]).toEqual([2989, 115, 1]);
    });

    describe.each([1280, 1400, 1920])('at %i px wide', (width) => {
      let report: OpenedReport;
      beforeAll(async () => {
        report = await openReport(browser, html, { viewport: { width, height: 900 } });
      });
      afterAll(async () => {
        await report?.page.close();
      });

      it('loads cleanly and marks every recreation', async () => {
        expect([report.consoleErrors, report.pageErrors, report.requests]).toEqual([[], [], []]);
        const counts = await countReport(report.page);
        expect(counts.marked).toBe(doc.recreations.length);
        expect(counts.loopBands).toBe(115);
        // 25 recreations in four minutes of a ten-hour axis share two or three marks.
        expect(counts.marks).toBeLessThan(doc.recreations.length / 3);
      });

      it('lays out the loop labels without collisions', async () => {
        await expectLabelsClear(report);
      });

      it('has one row per broker and each piece of advice once, and stays short', async () => {
        const counts = await countReport(report.page);
        expect([counts.loopBrokers, counts.loopRuns, counts.advice]).toEqual([5, 115, 1]);
        const todo = (await report.page.textContent('#what-to-do')) ?? '';
        for (const a of advice) expect(todo.split(a)).toHaveLength(2);
        // 61,000 px before loops were grouped; most of what is left is one page of 100 recreations.
        expect(await pageHeight(report.page)).toBeLessThan(7000);
      });

      it('clips no advice, broker row or run, even with every broker open', async () => {
        await report.page.$$eval('details.broker-loops', (ds) =>
          ds.forEach((d) => ((d as { open: boolean }).open = true)),
        );
        expect(await report.page.$$eval('#loops tr.run', (trs) => trs.length)).toBe(115);
        expect(
          await clippedElements(
            report.page,
            '#what-to-do .recommendation, #what-to-do .advice, #loops summary > span, #loops td, #loops code',
          ),
        ).toEqual([]);
        await report.page.$$eval('details.broker-loops', (ds) =>
          ds.forEach((d) => ((d as { open: boolean }).open = false)),
        );
      });

      if (width !== 1400) {
        it('is screenshotted into test/artifacts', async () => {
          const path = join(ARTIFACTS, `report-large-${width}.png`);
          await report.page.screenshot({ path, fullPage: true });
          expect(await pageHeight(report.page)).toBeGreaterThan(900);
        });
      }
    });
  });

  describe('100,000 recreations: 4,000 loops on 50 brokers, two webhooks', () => {
    let doc: FindingsDocument;
    let report: OpenedReport;
    beforeAll(async () => {
      doc = buildLoopingFleet(FLEET_100K);
      report = await openReport(browser, render(doc), { viewport: { width: 1280, height: 900 } });
    }, 120000);
    afterAll(async () => {
      await report?.page.close();
    });

    it('loads cleanly, marks every recreation with far fewer marks, and lists one page', async () => {
      expect([report.consoleErrors, report.pageErrors, report.requests]).toEqual([[], [], []]);
      const counts = await countReport(report.page);
      expect(counts.marked).toBe(100000);
      expect(counts.marks).toBeLessThan(15000);
      expect([counts.loopBands, counts.loopBrokers, counts.loopRuns, counts.advice]).toEqual([
        4000, 50, 4000, 2,
      ]);
      expect([counts.listedRows, counts.pageInfo]).toEqual([100, 'Page 1 of 1000']);
      expect((await domCensus(report.page)).elements).toBeLessThan(60000);
      expect(await pageHeight(report.page)).toBeLessThan(14000);
    });

    it('lays out the loop labels without collisions', async () => {
      await expectLabelsClear(report);
    });

    it("tells a binned mark's count on hover, and opens a broker's runs when its band is clicked", async () => {
      const bin = report.page.locator('circle.mark.bin').first();
      await bin.dispatchEvent('mouseover');
      expect(await report.page.textContent('#tip')).toContain(
        `${await bin.getAttribute('data-count')} recreations`,
      );
      const band = report.page.locator('rect.loop-band').nth(123);
      const broker = await band.getAttribute('data-broker');
      await band.dispatchEvent('click');
      const row = report.page.locator(`details.broker-loops[data-broker='${broker}']`);
      expect(await row.getAttribute('open')).toBe('');
      expect(await row.locator('tr.run').count()).toBe(80);
    });

    it("lists a binned mark's recreations from its first one", async () => {
      const last = doc.recreations.length - 1;
      const first = await clickMark(report.page, last);
      expect(
        await report.page.$eval('#filter-broker', (s) => (s as unknown as { value: string }).value),
      ).toBe(JSON.stringify(['kafka', 'clickstream-kafka', doc.recreations[last].brokerId]));
      expect(await isRecreationOpen(report.page, first)).toBe(true);
    });
  });

  describe('inputs that failed and files that were not logs', () => {
    const doc = buildFixture();
    doc.summary = {
      inputs: ['s3://audit-logs/eks/prod/', '/var/log/audti/', 'logs/'],
      inputErrors: [
        { input: 's3://audit-logs/eks/prod/', reason: 'no AWS region (set AWS_REGION or --region)' },
        { input: '/var/log/audti/', reason: 'no such file or directory' },
      ],
      files: { read: 5, empty: 0, foreign: 2, errors: 1 },
      bytes: { read: 4096, decompressed: 65536 },
      audit: { read: 120, kept: 40, irrelevant: 80, excluded: 0 },
      operator: { read: 12, kept: 12, excluded: 0 },
      dedupe: { duplicates: 3 },
      skipped: { 'not-a-log-line': 7, 'incomplete-record': 1 },
      dataEndsAt: '2026-11-02T11:30:00Z',
      warnings: ['operator user system:serviceaccount:kafka:old-operator never created a broker pod'],
      details: [
        { source: 'logs/README.md', line: 0, reason: 'foreign-file', note: 'not-a-log-line: text, 10 bytes' },
        {
          source: 'logs/expected.json',
          line: 0,
          reason: 'foreign-file',
          note: 'foreign-record: JSON object',
        },
        { source: 'logs/old.log.gz', line: 0, reason: 'gzip-truncated', note: 'unexpected end of file' },
        { source: 'logs/audit.log', line: 14, reason: 'incomplete-record' },
      ],
    };
    let report: OpenedReport;
    beforeAll(async () => {
      report = await openReport(browser, render(doc));
    });
    afterAll(async () => {
      await report?.page.close();
    });

    it('names each failed input and its reason in a banner at the top', async () => {
      const banner = report.page.locator('header #input-errors');
      expect(await banner.isVisible()).toBe(true);
      expect(await banner.getAttribute('role')).toBe('alert');
      const text = (await banner.textContent()) ?? '';
      expect(text).toContain('2 inputs could not be read');
      expect(text).toContain('s3://audit-logs/eks/prod/: no AWS region (set AWS_REGION or --region)');
      expect(text).toContain('/var/log/audti/: no such file or directory');
      const top = async (sel: string): Promise<number> =>
        (await report.page.locator(sel).boundingBox())?.y ?? NaN;
      expect(await top('#input-errors')).toBeLessThan(await top('#timeline'));
    });

    it('says in words the warnings, which files were not logs or read in part, what was skipped and read', async () => {
      const words = async (sel: string): Promise<string> =>
        ((await report.page.textContent(`header ${sel}`)) ?? '').replace(/\s+/g, ' ');
      expect(await words('#input-foreign')).toContain('2 files were not logs');
      expect(await words('#input-foreign')).toContain(
        'logs/README.md: text, 10 bytes (line in no log format)',
      );
      expect(await words('#input-partial')).toContain(
        'logs/old.log.gz: gzip data cut short (unexpected end of file)',
      );
      expect(await words('#input-warnings')).toContain('old-operator never created a broker pod');
      expect(await words('#input-skipped')).toContain('8 records skipped');
      expect(await words('#input-skipped')).toContain('7 lines in no log format, 1 incomplete record');
      expect(await words('#input-read')).toContain(
        'Read 5 files (4.00 KiB, 64.0 KiB uncompressed): 120 audit events (40 relevant), 12 operator lines, 3 duplicates dropped. The logs end at 2026-11-02 11:30:00 UTC.',
      );
    });

    it('shows no banner when every input was read', async () => {
      const clean = await openReport(
        browser,
        render(buildLoopingFleet({ ...BENCH_1GB, loopingBrokers: 1, loopsPerBroker: 2 })),
      );
      try {
        for (const id of [
          '#input-errors',
          '#input-warnings',
          '#input-partial',
          '#input-foreign',
          '#input-skipped',
        ]) {
          expect(await clean.page.locator(id).count()).toBe(0);
        }
        expect(await clean.page.locator('#input-read').isVisible()).toBe(true);
      } finally {
        await clean.page.close();
      }
    });
  });
});
