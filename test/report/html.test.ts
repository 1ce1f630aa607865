// The HTML report in real headless Chromium: what a reader sees, not what the string holds.
import { mkdirSync } from 'fs';
import { join } from 'path';
import type { Browser } from 'playwright-core';
import { renderReport } from '../../lib/report';
import { fightCause } from '../../lib/report/html/advice';
import {
  clickMark,
  countReport,
  domCensus,
  isRecreationOpen,
  launchChromium,
  openReport,
  type OpenedReport,
} from './browser';
import { buildFixture, buildLarge, FIXTURE_OPTIONS, INJECTION, SCRIPT_BREAKOUT } from './fixture';

const ARTIFACTS = join(__dirname, '..', 'artifacts');

describe('HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('on the fixture', () => {
    const doc = buildFixture();
    const html = renderReport(doc, 'html', { color: false, ...FIXTURE_OPTIONS });
    const idxOf = (pod: string): number => doc.recreations.findIndex((r) => r.deletedPod.name === pod);
    let report: OpenedReport;

    beforeAll(async () => {
      report = await openReport(browser, html);
    });
    afterAll(async () => {
      await report?.page.close();
    });

    it('loads with no console error, page error, network request or dialog, and is screenshotted', async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      await report.page.screenshot({ path: join(ARTIFACTS, 'report.png') });
      expect(report.consoleErrors).toEqual([]);
      expect(report.pageErrors).toEqual([]);
      expect(report.requests).toEqual([]);
      expect(report.dialogs).toEqual([]);
    });

    it('marks every recreation once, draws one .loop-band per loop and one row per looping broker', async () => {
      const counts = await countReport(report.page);
      expect(counts.marked).toBe(doc.recreations.length);
      expect(counts.loopBands).toBe(doc.loops.length);
      expect(counts.loopBrokers).toBe(new Set(doc.loops.map((l) => `${l.kafkaCluster}#${l.brokerId}`)).size);
      expect(counts.loopRuns).toBe(doc.loops.length);
      expect(counts.advice).toBe(new Set(doc.loops.map((l) => l.recommendation)).size);
      expect(counts.listedRows).toBe(doc.recreations.length);
      // A mark of its own carries its recreation's class and uid; a bin's members are in the page data.
      const marks = await report.page.$$eval('.mark', (els) =>
        els.map((e) => ({
          idx: Number(e.getAttribute('data-idx')),
          bin: e.getAttribute('data-bin'),
          cls: e.getAttribute('data-class'),
          uid: e.getAttribute('data-uid'),
        })),
      );
      const bins = JSON.parse((await report.page.textContent('#report-data')) ?? '{}').bins as number[][];
      const seen = marks.flatMap((m) => (m.bin === null ? [m.idx] : bins[Number(m.bin)]));
      expect([...seen].sort((a, b) => a - b)).toEqual(doc.recreations.map((_, i) => i));
      for (const m of marks.filter((x) => x.bin === null)) {
        const r = doc.recreations[m.idx];
        expect([m.cls, m.uid]).toEqual([r.classification, r.deletedPod.uid ?? '']);
      }
    });

    it('draws one .fight-band per fight, in a row of its own, and lists each with its recommendation', async () => {
      const fights = doc.fights ?? [];
      const bands = await report.page.$$eval('.fight-band', (els) =>
        els.map((e) => e.getAttribute('data-kind')),
      );
      expect(bands.sort()).toEqual(fights.map((f) => f.kind).sort());
      const counts = await countReport(report.page);
      expect(counts.fightRows).toBe(fights.length);
      expect(counts.fightAdvice).toBe(new Set(fights.map(fightCause)).size);
      // Each fight's own advice in its row, and each cause's once in "What to do", first on the page.
      const rows = await report.page.$$eval('#fights details.fight .recommendation', (ps) =>
        ps.map((p) => p.textContent),
      );
      expect(rows.sort()).toEqual(fights.map((f) => f.recommendation).sort());
      const todo = (await report.page.textContent('#what-to-do')) ?? '';
      for (const f of fights) expect(todo).toContain(f.recommendation);
      // A fight's row label never filters the recreations by a broker.
      expect(await report.page.$$eval('.row-label[data-fight]', (els) => els.length)).toBe(fights.length);
    });

    it('shows the header counts, the inputs, every count, and each loop under its broker', async () => {
      const header = await report.page.textContent('header');
      // The span covers the fights too (the hot loop ends last).
      expect(header).toContain('2026-11-02 09:58:21 → 11:33:36 UTC');
      expect(header).toContain('3fights');
      expect(header).toContain('logs/operator.log.gz');
      // The fixture's summary is not lib/ingest's shape: its keys are still listed, collapsed.
      expect(await report.page.textContent('#summary')).toContain('skipped[0].reason');
      const todo = (await report.page.textContent('#what-to-do')) ?? '';
      for (const l of doc.loops) expect(todo.split(l.recommendation)).toHaveLength(2);
      const loops = (await report.page.textContent('#loops')) ?? '';
      expect(loops).toContain('at the end of the logs, 2026-11-02 11:24:04 UTC');
      expect(loops).toContain('ended');
      await report.page.click('details.broker-loops[data-broker*="pipeline-kafka"] > summary');
      expect(
        await report.page.$$eval('details.broker-loops[data-broker*="pipeline-kafka"] tr.run', (trs) =>
          trs.map((tr) => tr.textContent?.replace(/\s+/g, ' ').trim()),
        ),
      ).toEqual(['1 2026-11-02 11:20:00 → 11:24:04 5 1m01s active']);
    });

    it('expanding a recreation shows its field diff and both verdicts', async () => {
      const row = `details.rec[data-idx="${idxOf('orders-kafka-0-5r7kk')}"]`;
      expect(await report.page.$(`${row} table.diff`)).toBeNull();
      await report.page.click(`${row} > summary`);
      // The diff is rendered on the toggle event, after the click returns: wait for it (a
      // loaded machine ran the query first once).
      await report.page.waitForSelector(`${row} table.diff`);
      const cells = await report.page.$$eval(`${row} tr.field`, (trs) =>
        trs.map((tr) => [
          tr.querySelector('td.path')?.textContent,
          [...tr.querySelectorAll('td.change code.chg')].map((c) => c.textContent).join('\n'),
          tr.querySelector('td.by')?.textContent,
          (tr.querySelector('details.whole') as unknown as { open: boolean } | null)?.open,
        ]),
      );
      // What changed is the line shown; the whole values are folded behind it.
      expect(cells).toEqual([
        [
          'spec.containers[name=kafka].image',
          'ghcr.io/adobe/kafka:2.13-3.7.0 → ghcr.io/adobe/kafka:2.13-3.7.1',
          'alice@example.com',
          false,
        ],
        [
          'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
          '-Xmx2G -Xms2G → -Xmx4G -Xms4G',
          'unknown',
          false,
        ],
      ]);
      const verdicts = await report.page.textContent(`${row} .verdicts`);
      expect(verdicts).toContain('Before the koperator fix (three-way merge): restart');
      expect(verdicts).toContain('After the fix (intent diff): restart');
    });

    it("shows the element a webhook added, highlighted, in the loop's first screen", async () => {
      const loop = 'details.broker-loops[data-broker*="events-kafka"]';
      await report.page.click(`${loop} > summary`);
      const added = report.page.locator(`${loop} .bl-fields code.chg.add`).first();
      expect(await added.textContent()).toBe(
        '+ [1] {weight: 50, podAffinityTerm.topologyKey: topology.kubernetes.io/zone}',
      );
      // Visible where the opened loop is, without scrolling anything.
      const box = await added.boundingBox();
      const top = (await report.page.locator(`${loop} > summary`).boundingBox())?.y ?? 0;
      const viewport = report.page.viewportSize();
      expect(box).not.toBeNull();
      expect(await added.isVisible()).toBe(true);
      expect((box?.y ?? Infinity) + (box?.height ?? 0) - top).toBeLessThan(viewport?.height ?? 0);
      expect(
        await report.page.evaluate(
          (el) => el.scrollHeight <= el.clientHeight + 1,
          await added.elementHandle(),
        ),
      ).toBe(true);
      const bg = await added.evaluate(
        (el) =>
          (
            globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }
          ).getComputedStyle(el).backgroundColor,
      );
      expect(bg).not.toBe('rgba(0, 0, 0, 0)');
    });

    it('says the verdict is unknown when the states are not known', async () => {
      const row = `details.rec[data-idx="${idxOf('logs-kafka-0-9zz8y')}"]`;
      await report.page.click(`${row} > summary`);
      const verdicts = await report.page.textContent(`${row} .verdicts`);
      expect(verdicts).toContain('(three-way merge): unknown');
      expect(await report.page.textContent(`${row} .evidence`)).toContain(
        'successor pod spec not in the data',
      );
    });

    it('shows hostile log values as text, never as markup', async () => {
      const row = `details.rec[data-idx="${idxOf('events-kafka-0-inj3c')}"]`;
      await report.page.click(`${row} > summary`);
      expect(await report.page.textContent(`${row} tr.field td.change code.chg`)).toBe(
        `(unset) → ${INJECTION}`,
      );
      expect(await report.page.textContent(`${row} tr.field pre.to`)).toBe(INJECTION);
      expect(await report.page.textContent(`${row} tr.field td.by`)).toBe(`evil-hook/${SCRIPT_BREAKOUT}`);
      const dom = await domCensus(report.page);
      expect({ imgs: dom.imgs, scripts: dom.scripts, inlineHandlers: dom.inlineHandlers }).toEqual({
        imgs: 0,
        scripts: 2,
        inlineHandlers: 0,
      });
      expect(report.dialogs).toEqual([]);
      expect(report.pageErrors).toEqual([]);
    });

    it('opens the recreation of a clicked mark', async () => {
      const idx = idxOf('orders-kafka-1-65jhm');
      await report.page.click(`circle.mark[data-idx="${idx}"]`);
      expect(await isRecreationOpen(report.page, idx)).toBe(true);
    });

    it('filters the list by class from the legend', async () => {
      await report.page.click('.legend button.chip[data-class="intent-change"]');
      expect((await countReport(report.page)).listedRows).toBe(2);
      await report.page.click('.legend button.chip[data-class="intent-change"]');
      expect((await countReport(report.page)).listedRows).toBe(doc.recreations.length);
    });
  });

  describe('with hostile text in every server-rendered place', () => {
    const doc = buildFixture();
    const svgTag = '<svg onload=alert(4)>';
    doc.loops[0].mutators.push(INJECTION);
    doc.loops[0].recommendation = SCRIPT_BREAKOUT;
    doc.loops[1].classification = `x" onmouseover="alert(5)` as never;
    doc.recreations[0].kafkaCluster = svgTag;
    doc.recreations[1].classification = INJECTION as never;
    doc.summary[INJECTION] = SCRIPT_BREAKOUT;
    const fight = (doc.fights ?? [])[0];
    fight.recommendation = SCRIPT_BREAKOUT;
    fight.target.name = svgTag;
    fight.writers.push(INJECTION);
    fight.fields.push(`x" onmouseover="alert(7)`);
    const html = renderReport(doc, 'html', {
      color: false,
      inputs: [INJECTION],
      generatedAt: SCRIPT_BREAKOUT,
      reportUrl: 'javascript:alert(6)',
    });
    let report: OpenedReport;

    beforeAll(async () => {
      report = await openReport(browser, html);
    });
    afterAll(async () => {
      await report?.page.close();
    });

    it('renders them as text and runs no script of theirs', async () => {
      await report.page.hover(`circle.mark[data-idx="0"]`);
      const { elements: _, links, ...dom } = await domCensus(report.page);
      // The SVGs are the page's own: the time axis, the timeline, the loop key in the legend and,
      // where there are drifts, the drift key beside it.
      expect(dom).toEqual({ imgs: 0, scripts: 2, svgs: doc.drifts?.length ? 4 : 3, inlineHandlers: 0 });
      // The only links are the page's own, from a broker's or a fight's row to its advice.
      expect(links.length).toBe(
        new Set(doc.loops.map((l) => `${l.namespace}/${l.kafkaCluster}#${l.brokerId}`)).size +
          (doc.fights ?? []).length,
      );
      for (const l of links) expect(l).toMatch(/^#advice-\d+$/);
      expect(report.dialogs).toEqual([]);
      expect(report.pageErrors).toEqual([]);
      expect(report.consoleErrors).toEqual([]);
      const text = await report.page.textContent('body');
      for (const s of [INJECTION, SCRIPT_BREAKOUT, svgTag]) expect(text).toContain(s);
      // The page script still ran: the list is there.
      expect((await countReport(report.page)).listedRows).toBe(doc.recreations.length);
    });
  });

  describe('with 2,500 recreations', () => {
    const doc = buildLarge(2500);
    const html = renderReport(doc, 'html', { color: false });
    let report: OpenedReport;

    beforeAll(async () => {
      report = await openReport(browser, html);
    });
    afterAll(async () => {
      await report?.page.close();
    });

    it('draws every mark and band but lists only one page of 100', async () => {
      const counts = await countReport(report.page);
      expect(counts.marked).toBe(2500);
      expect(counts.loopBands).toBe(doc.loops.length);
      expect(counts.listedRows).toBe(100);
      expect(counts.pageInfo).toBe('Page 1 of 25');
      expect(report.consoleErrors).toEqual([]);
      expect(report.pageErrors).toEqual([]);
      // The DOM stays small: the timeline's plain elements plus one page of rows.
      expect((await domCensus(report.page)).elements).toBeLessThan(6000);
    });

    it('turns pages forwards and backwards, in chronological order', async () => {
      const firstIdx = (): Promise<string | null> =>
        report.page.$eval('#rec-list details.rec', (d) => d.getAttribute('data-idx'));
      expect(await firstIdx()).toBe('0');
      expect(await report.page.isDisabled('#page-prev')).toBe(true);
      await report.page.click('#page-next');
      expect(await report.page.textContent('#page-info')).toBe('Page 2 of 25');
      expect(await firstIdx()).toBe('100');
      expect(await report.page.textContent('#rec-count')).toBe('101–200 of 2,500');
      for (let i = 2; i < 25; i++) await report.page.click('#page-next');
      expect(await report.page.textContent('#page-info')).toBe('Page 25 of 25');
      expect(await report.page.isDisabled('#page-next')).toBe(true);
      expect(await firstIdx()).toBe('2400');
      await report.page.click('#page-prev');
      expect(await firstIdx()).toBe('2300');
    });

    it('jumps to the right page when a late mark is clicked, and stays quick', async () => {
      const started = Date.now();
      await clickMark(report.page, 2222);
      expect(await report.page.textContent('#page-info')).toBe('Page 23 of 25');
      expect(await isRecreationOpen(report.page, 2222)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('filters by class and search text across all pages', async () => {
      await report.page.selectOption('#filter-class', 'unknown');
      const expected = doc.recreations.filter((r) => r.classification === 'unknown').length;
      expect(await report.page.textContent('#rec-count')).toBe(`1–100 of ${expected} (filtered from 2,500)`);
      await report.page.selectOption('#filter-class', '');
      await report.page.fill('#filter-text', 'p02499');
      await report.page.waitForSelector('#rec-list details.rec[data-idx="2499"]');
      await report.page.waitForFunction('document.querySelectorAll("#rec-list details.rec").length === 1');
      expect(await report.page.textContent('#page-info')).toBe('Page 1 of 1');
    });
  });
});
