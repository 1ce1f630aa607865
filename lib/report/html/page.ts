// The HTML report: one self-contained file (inline CSS, inline script, SVG drawn here),
// so it can be attached to a ticket or opened from S3 with no network at view time.
// Everything static is rendered server-side and escaped; the recreation list is drawn
// by the page script from embedded JSON, one page at a time (see client.ts).
import type { FindingsDocument, Recreation } from '../../model/findings';
import { createHash } from 'crypto';
import { changeLines } from '../change-lines';
import { isBrokerRemoval } from '../../analyze/removal';
import { CLASS_ORDER, CLASS_STYLES } from '../colors';
import {
  brokerKey,
  brokerLabel,
  classesPresent,
  compareByDeletion,
  countByClass,
  deletionsPhrase,
  formatCount,
  formatTimestamp,
  formatValueBlock,
  groupByBroker,
  headlineOf,
  recreatedOnly,
  recreationsTitle,
  summaryRows,
  truncate,
  verdictOf,
  versionVerdicts,
} from '../format';
import { CLIENT_SCRIPT, PAGE_SIZE } from './client';
import { escapeHtml as h, jsonForScript, safeHref } from './escape';
import { planAdvice, whatToDoSection } from './advice';
import { inputNotes } from './input-notes';
import { fightsSection } from './fights';
import { fixImpactSection } from './fix-impact';
import { driftsSection } from './drifts';
import { countStanding } from '../drift-format';
import { loopsSection } from './loops';
import { reportCss } from './styles';
import { renderTimeline } from './timeline';

export interface HtmlRenderOptions {
  inputs?: string[];
  generatedAt?: string;
  reportUrl?: string;
}

/** A value this long is a whole object dumped by a webhook; the rest is in the JSON output. */
const MAX_VALUE_CHARS = 20000;
/** A change line wraps in its cell; past this its content ends in `…` (the whole value is folded below). */
const CHANGE_LINE_CHARS = 160;

/**
 * Defence in depth behind the escaping: nothing loads from the network, and only the
 * page's own script runs (pinned by hash), so even a missed escape could neither run
 * an inline handler such as `onerror=` nor call home.
 */
const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(CLIENT_SCRIPT).digest('base64')}'`,
].join('; ');

/**
 * Repeated strings (brokers, classes, users, field paths and values) stored once and
 * referred to by index: 100,000 recreations embed as ~35 MB instead of ~85 MB.
 */
class StringTable {
  readonly strings: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
  idOrNull(s: string | null): number | null {
    return s === null ? null : this.id(s);
  }
}

/**
 * One recreation as the page script reads it (client.ts decodes it), formatted here so
 * the browser does no formatting. Numbers are indices into the string table:
 * [time, broker key#, broker label#, deleted pod, deleted uid, created pod, class#,
 *  deleted by#, created at, [[path#, from#, to#, by#, [change line#…]]…], verdict before#, after#,
 *  evidence, 1 for a broker removed by a downscale (isBrokerRemoval) else 0]. The change lines
 *  (change-lines.ts) are what the page shows; from/to fold behind them.
 */
export type ClientRecreation = [
  string,
  number,
  number,
  string,
  string | null,
  string | null,
  number,
  number | null,
  string | null,
  Array<[number, number, number, number | null, number[]]>,
  number,
  number,
  string[],
  0 | 1,
];

export function toClientRecreation(r: Recreation, t: StringTable): ClientRecreation {
  // Another operator's finding: its answers by version, and no second verdict.
  const verdict = r.operator ? { before: versionVerdicts(r), after: '' } : verdictOf(r.wouldRestart);
  return [
    formatTimestamp(r.deletedPod.deletedAt),
    t.id(brokerKey(r)),
    t.id(brokerLabel(r)),
    r.deletedPod.name,
    r.deletedPod.uid,
    r.createdPod ? r.createdPod.name : null,
    t.id(r.classification),
    t.idOrNull(r.deletedPod.deletedBy),
    r.createdPod ? formatTimestamp(r.createdPod.createdAt) : null,
    r.fields.map((f) => [
      t.id(f.path),
      t.id(truncate(formatValueBlock(f.from), MAX_VALUE_CHARS)),
      t.id(truncate(formatValueBlock(f.to), MAX_VALUE_CHARS)),
      t.idOrNull(f.by),
      changeLines(f, { max: CHANGE_LINE_CHARS }).map((l) => t.id(l)),
    ]),
    t.id(verdict.before),
    t.id(verdict.after),
    r.evidence,
    isBrokerRemoval(r) ? 1 : 0,
  ];
}

export function renderHtml(doc: FindingsDocument, opts: HtmlRenderOptions): string {
  const indexed = doc.recreations.map((r, idx) => ({ r, idx }));
  // Chronological display order, as indices into doc.recreations (which data-idx uses).
  const order = [...indexed].sort((a, b) => compareByDeletion(a.r, b.r)).map((x) => x.idx);
  const timeline = renderTimeline(doc);
  const advice = planAdvice(doc);
  const strings = new StringTable();
  const recreations = doc.recreations.map((r) => toClientRecreation(r, strings));
  const data = { strings: strings.strings, recreations, order, bins: timeline.bins };
  const title = `koperator-audit: ${deletionsPhrase(headlineOf(doc))}`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${h(title)}</title>
<style>
${reportCss()}
</style>
</head>
<body data-page-size="${PAGE_SIZE}">
<main>
${header(doc, opts)}
${fixImpactSection(doc)}
${whatToDoSection(advice)}
<section class="card" id="timeline">
<h2>Timeline</h2>
${legend(doc)}
${timeline.svg}
</section>
${loopsSection(doc, advice.loops)}
${fightsSection(doc.fights ?? [], advice)}
${driftsSection(doc.drifts ?? [])}
${recreationsSection(doc)}
${countsSection(doc)}
<footer>Generated by koperator-audit${opts.generatedAt ? ` at ${h(opts.generatedAt)}` : ''}. Times are UTC.</footer>
</main>
<div class="tip" id="tip" role="tooltip"></div>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

function header(doc: FindingsDocument, opts: HtmlRenderOptions): string {
  const {
    recreations,
    removals,
    brokers,
    loops,
    activeLoops: active,
    fights,
    activeFights,
    range: span,
  } = headlineOf(doc);
  const range = span ? `${span} UTC` : 'no deletions';
  const href = safeHref(opts.reportUrl);
  const meta: string[] = [];
  if (opts.inputs?.length) {
    meta.push(`<span>Inputs: ${opts.inputs.map((i) => `<code>${h(i)}</code>`).join(', ')}</span>`);
  }
  if (opts.generatedAt) meta.push(`<span>Generated ${h(opts.generatedAt)}</span>`);
  if (href) meta.push(`<span><a href="${h(href)}" rel="noopener noreferrer">Permalink</a></span>`);
  const stat = (n: number, label: string, alert = false): string =>
    `<div class="stat${alert ? ' alert' : ''}"><b>${formatCount(n)}</b><span>${h(label)}</span></div>`;
  return `<header class="card">
<div><h1>Broker pod recreations</h1><div class="sub">${h(range)}</div></div>
<div class="stats">
${stat(recreations, 'recreations')}
${stat(brokers, brokers === 1 ? 'broker' : 'brokers')}${removals ? `\n${stat(removals, removals === 1 ? 'broker removed (downscale)' : 'brokers removed (downscale)')}` : ''}
${stat(loops, loops === 1 ? 'loop' : 'loops', loops > 0)}
${stat(active, 'active loops', active > 0)}
${stat(fights, fights === 1 ? 'fight' : 'fights', fights > 0)}
${stat(activeFights, 'active fights', activeFights > 0)}
${stat(countStanding(doc.drifts ?? []), 'drifts standing', countStanding(doc.drifts ?? []) > 0)}
</div>
${meta.length ? `<div class="meta">${meta.join('')}</div>` : ''}
${inputNotes(doc)}
</header>`;
}

/** Every class with its count (absent ones dimmed), so the colour key is complete. */
function legend(doc: FindingsDocument): string {
  const counts = countByClass(doc.recreations);
  const chips = CLASS_ORDER.map((c) => {
    const n = counts.get(c) ?? 0;
    return (
      `<button type="button" class="chip${n ? '' : ' zero'}" data-class="${c}" aria-pressed="false" ` +
      `title="${h(CLASS_STYLES[c].description)}"><span class="dot"></span>${h(c)} <span class="n">${formatCount(n)}</span></button>`
    );
  });
  const loopKey =
    `<span class="chip"><svg width="22" height="12" aria-hidden="true"><rect x="1" y="1" width="20" height="10" rx="3" ` +
    `fill="#6b72801f" stroke="#6b7280"/></svg>loop (dashed: still active)</span>`;
  // The diamonds timeline.ts draws for drifts (drift.md), keyed only where there are some.
  const driftKey = doc.drifts?.length
    ? `<span class="chip" id="legend-drift"><svg width="14" height="14" aria-hidden="true"><path class="drift-mark legend-mark" ` +
      `d="M7 1l6 6l-6 6l-6 -6z"/></svg>live drift (red: tamper; faded: ended)</span>`
    : '';
  return `<div class="legend">${chips.join('')}${loopKey}${driftKey}</div>`;
}

function recreationsSection(doc: FindingsDocument): string {
  const counts = countByClass(doc.recreations);
  const classOptions = classesPresent(counts)
    .map((c) => `<option value="${h(c)}">${h(c)} (${formatCount(counts.get(c) ?? 0)})</option>`)
    .join('');
  // The value client.ts filters removals on (REMOVED): they are in no class's count.
  const removals = doc.recreations.length - recreatedOnly(doc.recreations).length;
  const removalOption = removals
    ? `<option value="broker-removed">broker removed (downscale) (${formatCount(removals)})</option>`
    : '';
  const brokerOptions = groupByBroker(doc.recreations)
    .map((g) => `<option value="${h(g.key)}">${h(g.label)} (${formatCount(g.recreations.length)})</option>`)
    .join('');
  return `<section class="card" id="recreations">
<h2>${h(recreationsTitle(doc.recreations))}</h2>
<div class="rec-tools">
<select id="filter-class" aria-label="Filter by class"><option value="">all classes</option>${classOptions}${removalOption}</select>
<select id="filter-broker" aria-label="Filter by broker"><option value="">all brokers</option>${brokerOptions}</select>
<input id="filter-text" type="search" placeholder="pod, field path, user, webhook…" aria-label="Search">
<span id="rec-count" class="muted"></span>
<div class="pager"><button type="button" id="page-prev">‹ Prev</button><span id="page-info"></span><button type="button" id="page-next">Next ›</button></div>
</div>
<div class="rec-head"><span>time (UTC)</span><span>broker</span><span>deleted pod → created pod</span><span>class</span><span>fields</span></div>
<div id="rec-list"><noscript>The recreation list needs JavaScript; the JSON output has every recreation.</noscript></div>
</section>`;
}

/** Keys the header already says in words, or that are shown elsewhere. */
const SAID_IN_WORDS = new Set(['inputs', 'inputErrors', 'details', 'warnings', 'notes']);

/**
 * Every count of the summary, collapsed: the header says what matters in words; this is
 * for the reader who wants the numbers the JSON output holds.
 */
function countsSection(doc: FindingsDocument): string {
  const rest = Object.fromEntries(Object.entries(doc.summary ?? {}).filter(([k]) => !SAID_IN_WORDS.has(k)));
  const rows = summaryRows(rest, 500);
  if (rows.length === 0) return '';
  return `<details class="card counts" id="summary">
<summary><h2>Every count</h2> <span class="muted">as in the JSON summary</span></summary>
<dl class="summary">${rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('\n')}</dl>
</details>`;
}
