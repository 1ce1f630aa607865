// Loads a rendered HTML report in real headless Chromium and reports what a reader
// would see: mark and band counts, rows, console errors and blocked network requests.
// Shared by the report tests and the corpus run through the CLI.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { pathToFileURL } from 'url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';

export { launchChromium };

// The project type-checks without the DOM lib (lib/ is Node code, and a global
// `/// <reference lib="dom" />` would let Node code use `document` unnoticed). The
// callbacks below run in the page; these module-local declarations cover what they use.
interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface DomElement {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Rect;
  closest(selector: string): DomElement | null;
  attributes: ArrayLike<{ name: string }>;
  getAttribute(name: string): string | null;
  dispatchEvent(event: unknown): boolean;
  childNodes: ArrayLike<{ nodeName: string; textContent: string | null }>;
}
declare const document: {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  querySelector(selector: string): (DomElement & { open?: boolean }) | null;
  getElementById(id: string): DomElement | null;
};
declare const MouseEvent: new (type: string, init: { bubbles: boolean }) => unknown;

export interface OpenedReport {
  page: Page;
  /** console.error messages, in order. */
  consoleErrors: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** Any request the page tried to make: a self-contained report makes none. */
  requests: string[];
  /** alert/confirm/prompt dialogs opened: an injected script would show here. */
  dialogs: string[];
}

/**
 * Opens `html` in a fresh page of `browser` (1280x800 unless `viewport` says otherwise),
 * with the network blocked and recorded. The page is loaded from a file, as a reader opens
 * a saved report (and because handing Chromium 30 MB through setContent takes ten times longer).
 */
export async function openReport(
  browser: Browser,
  html: string,
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
  const opened: OpenedReport = { page, consoleErrors: [], pageErrors: [], requests: [], dialogs: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') opened.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => opened.pageErrors.push(String(err)));
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const dir = mkdtempSync(join(tmpdir(), 'koperator-audit-report-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    opened.requests.push(route.request().url());
    return route.abort();
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
  } finally {
    // Loaded pages keep their document; the file is not needed after, so nothing is left behind.
    rmSync(dir, { recursive: true, force: true });
  }
  return opened;
}

export interface ReportCounts {
  /** `.mark` circles drawn in the timeline: one per recreation, or one per bin where denser than the drawing. */
  marks: number;
  /** Recreations the marks stand for (a bin's data-count, else 1): always every recreation. */
  marked: number;
  /** `.loop-band` elements: one per loop. */
  loopBands: number;
  /** Rows of the loops section: one per broker with loops. */
  loopBrokers: number;
  /** Runs listed under those rows: one per loop. */
  loopRuns: number;
  /** Pieces of the loops' advice in "What to do": one per distinct recommendation. */
  advice: number;
  /** Pieces of the fights' advice in "What to do": one per cause (advice.ts, fightCause). */
  fightAdvice: number;
  /** Fight rows in the fights section, shown or paged away. */
  fightRows: number;
  /** Recreation rows on the current page of the list. */
  listedRows: number;
  /** The pager's text, e.g. `Page 1 of 25`. */
  pageInfo: string;
  /** Recreations marked, per `data-class`. */
  marksByClass: Record<string, number>;
}

export async function countReport(page: Page): Promise<ReportCounts> {
  return page.evaluate(() => {
    const marksByClass: Record<string, number> = {};
    let marked = 0;
    const marks = Array.from(document.querySelectorAll('svg.timeline .mark'));
    for (const m of marks) {
      const c = m.getAttribute('data-class') ?? '';
      const n = Number(m.getAttribute('data-count') ?? '1');
      marksByClass[c] = (marksByClass[c] ?? 0) + n;
      marked += n;
    }
    return {
      marks: marks.length,
      marked,
      loopBands: document.querySelectorAll('svg.timeline .loop-band').length,
      loopBrokers: document.querySelectorAll('#loops details.broker-loops').length,
      loopRuns: document.querySelectorAll('#loops tr.run').length,
      advice: document.querySelectorAll('#what-to-do .advice[data-class]').length,
      fightAdvice: document.querySelectorAll('#what-to-do .advice[data-kind]').length,
      fightRows: document.querySelectorAll('#fights details.fight').length,
      listedRows: document.querySelectorAll('#rec-list details.rec').length,
      pageInfo: document.getElementById('page-info')?.textContent ?? '',
      marksByClass,
    };
  });
}

export interface DomCensus {
  /** Every element: pagination keeps this near the timeline's size, not the list's. */
  elements: number;
  imgs: number;
  scripts: number;
  svgs: number;
  /** Elements carrying an `on*` attribute: the page itself uses none. */
  inlineHandlers: number;
  /** `href`s of links. */
  links: Array<string | null>;
}

/** What an injection would add to the DOM. */
export async function domCensus(page: Page): Promise<DomCensus> {
  return page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('*'));
    return {
      elements: all.length,
      imgs: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script').length,
      svgs: document.querySelectorAll('svg').length,
      inlineHandlers: all.filter((e) => Array.from(e.attributes).some((a) => a.name.startsWith('on'))).length,
      links: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href')),
    };
  });
}

/** Whether the list row of recreation `idx` (its index in the document) is shown and expanded. */
export async function isRecreationOpen(page: Page, idx: number): Promise<boolean> {
  return page.evaluate((i) => document.querySelector(`details.rec[data-idx="${i}"]`)?.open === true, idx);
}

/**
 * Clicks the timeline mark that stands for recreation `idx` (its own, or its bin's) by
 * event, as a mouse would; with thousands of marks a neighbour may overlap it, which a
 * pointer click would refuse. Returns the clicked mark's data-idx (the bin's first member).
 */
export async function clickMark(page: Page, idx: number): Promise<number> {
  return page.evaluate((i) => {
    const data = JSON.parse(document.getElementById('report-data')?.textContent ?? '{}') as {
      bins: number[][];
    };
    const bin = data.bins.findIndex((members) => members.includes(i));
    const mark = document.querySelector(
      bin < 0 ? `circle.mark[data-idx="${i}"]` : `circle.mark[data-bin="${bin}"]`,
    );
    mark?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return Number(mark?.getAttribute('data-idx'));
  }, idx);
}

export interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Pairs of boxes that intersect (touching edges do not count). */
export function collisions(boxes: readonly Box[]): Array<[Box, Box]> {
  const hits: Array<[Box, Box]> = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) hits.push([a, b]);
    }
  }
  return hits;
}

/**
 * The rendered boxes of the timeline's loop (and fight band) labels and row labels, of the
 * SVG itself, and the text each of its labels shows (hover titles left out).
 */
export async function timelineLabels(
  page: Page,
): Promise<{ loopLabels: Box[]; rowLabels: Box[]; svg: Box; texts: string[] }> {
  return page.evaluate(() => {
    const box = (
      e: DomElement,
    ): { text: string; left: number; right: number; top: number; bottom: number } => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const svg = document.querySelector('svg.timeline') as DomElement;
    return {
      loopLabels: Array.from(document.querySelectorAll('svg.timeline .loop-label')).map(box),
      rowLabels: Array.from(document.querySelectorAll('svg.timeline .row-label')).map(box),
      svg: box(svg),
      texts: Array.from(document.querySelectorAll('svg.timeline text')).map((t) =>
        Array.from(t.childNodes)
          .filter((n) => n.nodeName !== 'title')
          .map((n) => n.textContent ?? '')
          .join(''),
      ),
    };
  });
}

/**
 * Elements under `selector` whose content is cut: wider than their box (scrollWidth >
 * clientWidth) or reaching past the right edge of their section card.
 */
export async function clippedElements(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const e of Array.from(document.querySelectorAll(sel))) {
      const card = e.closest('.card');
      const right = card ? card.getBoundingClientRect().right : Infinity;
      const r = e.getBoundingClientRect();
      if (r.right - r.left === 0) continue; // not rendered (a closed <details>)
      if (e.scrollWidth > e.clientWidth + 1 || r.right > right + 0.5) {
        out.push(
          `${(e.textContent ?? '').slice(0, 60)} (scroll ${e.scrollWidth} > ${e.clientWidth} or right ${r.right} > ${right})`,
        );
      }
    }
    return out;
  }, selector);
}

/** The page's full height in CSS pixels. */
export async function pageHeight(page: Page): Promise<number> {
  return page.evaluate(
    () => (document as unknown as { documentElement: { scrollHeight: number } }).documentElement.scrollHeight,
  );
}

export interface ReportInspection extends ReportCounts {
  consoleErrors: string[];
  pageErrors: string[];
  requests: string[];
  dialogs: string[];
}

/**
 * One-shot check of a report: launch, load, count, optionally screenshot, close.
 * For a corpus run: `const r = await inspectReport(html); expect(r.marks).toBe(doc.recreations.length)`.
 */
export async function inspectReport(
  html: string,
  opts: { screenshotPath?: string } = {},
): Promise<ReportInspection> {
  const browser = await launchChromium();
  try {
    const opened = await openReport(browser, html);
    const counts = await countReport(opened.page);
    if (opts.screenshotPath) await opened.page.screenshot({ path: opts.screenshotPath });
    return {
      ...counts,
      consoleErrors: opened.consoleErrors,
      pageErrors: opened.pageErrors,
      requests: opened.requests,
      dialogs: opened.dialogs,
    };
  } finally {
    await browser.close();
  }
}
