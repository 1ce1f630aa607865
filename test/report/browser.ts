// Loads a rendered HTML report in real headless Chromium and reports what a reader
// would see: mark and band counts, rows, console errors and blocked network requests.
// Shared by the report tests and the corpus run through the CLI.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';

export { launchChromium };

// The project type-checks without the DOM lib (lib/ is Node code, and a global
// `/// <reference lib="dom" />` would let Node code use `document` unnoticed). The
// callbacks below run in the page; these module-local declarations cover what they use.
interface DomElement {
  textContent: string | null;
  attributes: ArrayLike<{ name: string }>;
  getAttribute(name: string): string | null;
  dispatchEvent(event: unknown): boolean;
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

/** Opens `html` in a fresh 1280x800 page of `browser`, with the network blocked and recorded. */
export async function openReport(browser: Browser, html: string): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const opened: OpenedReport = { page, consoleErrors: [], pageErrors: [], requests: [], dialogs: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') opened.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => opened.pageErrors.push(String(err)));
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.route('**/*', (route) => {
    opened.requests.push(route.request().url());
    return route.abort();
  });
  await page.setContent(html, { waitUntil: 'load' });
  return opened;
}

export interface ReportCounts {
  /** `.mark` elements in the timeline: one per recreation. */
  marks: number;
  /** `.loop-band` elements: one per loop. */
  loopBands: number;
  /** Rows in the loops table. */
  loopRows: number;
  /** Recreation rows on the current page of the list. */
  listedRows: number;
  /** The pager's text, e.g. `Page 1 of 25`. */
  pageInfo: string;
  /** Marks per `data-class`. */
  marksByClass: Record<string, number>;
}

export async function countReport(page: Page): Promise<ReportCounts> {
  return page.evaluate(() => {
    const marksByClass: Record<string, number> = {};
    for (const m of Array.from(document.querySelectorAll('.mark'))) {
      const c = m.getAttribute('data-class') ?? '';
      marksByClass[c] = (marksByClass[c] ?? 0) + 1;
    }
    return {
      marks: document.querySelectorAll('svg.timeline .mark').length,
      loopBands: document.querySelectorAll('svg.timeline .loop-band').length,
      loopRows: document.querySelectorAll('table.loops tbody tr').length,
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
 * Clicks the timeline mark of recreation `idx` by event, as a mouse would; with
 * thousands of marks a neighbour may overlap it, which a pointer click would refuse.
 */
export async function clickMark(page: Page, idx: number): Promise<void> {
  await page.evaluate((i) => {
    document
      .querySelector(`circle.mark[data-idx="${i}"]`)
      ?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  }, idx);
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
