// The Markdown view, for an incident ticket or a pull request (GitHub-flavoured).
// Untrusted text goes through one of three doors, each safe for where it lands:
// `mdText` for table cells and headings, `mdCode` for code spans, `html` inside
// <details>/<summary> (an HTML block, where Markdown escapes are not processed), and
// fenced blocks, whose content is literal as long as the fence is longer than any
// backtick run inside.
import type { Drift, Fight, FindingsDocument, Loop, Recreation } from '../model/findings';
import { countStanding, driftPreFix, driftState, driftWrite, sortDrifts } from './drift-format';
import { changeLines } from './change-lines';
import { classStyle } from './colors';
import {
  brokerLabel,
  classesPresent,
  countByClass,
  formatDuration,
  formatRange,
  formatTimestamp,
  groupByBroker,
  headlineOf,
  membersPhrase,
  plural,
  sortLoops,
  fightLabel,
  fightParties,
  sortFights,
  verdictOf,
  versionVerdicts,
  dataEndOf,
  inputErrorsOf,
  nothingRead,
  inputFacts,
  recommendationGroups,
  warningsOf,
  type RecommendationGroup,
  recreationCount,
  recreationsTitle,
  successorLabel,
  capitalized,
} from './format';
import { escapeHtml } from './html/escape';
import { docFixImpact } from './fix-impact';
import { wordsOf } from '../operators/words-registry';
import { shows, type Section } from './sections';

// The fix impact in the words of the operator replayed (the registry's default, koperator).
const { headline: fixImpactHeadline, basis: fixImpactBasis, tampers: fixImpactTampers } = wordsOf().fixImpact;

export interface MarkdownRenderOptions {
  inputs?: string[];
  generatedAt?: string;
  reportUrl?: string;
  /** Sections to print (`--only`); all when absent. */
  only?: readonly Section[];
}

const SUMMARY_ROWS = 60;
/** A change line in a diff fence: a reader scrolls sideways past this; the JSON has the whole value. */
const CHANGE_LINE_CHARS = 160;

export function renderMarkdown(doc: FindingsDocument, opts: MarkdownRenderOptions): string {
  const out: string[] = [];
  out.push('# Broker pod recreations', '');
  // Failed inputs first: a report of part of the logs must not read as one of all of them.
  out.push(...banner(doc));
  out.push(...fixImpactSection(doc));
  out.push(overview(doc), '');
  const meta = metaLine(opts);
  if (meta) out.push(meta, '');
  const legend = legendLine(doc);
  if (legend) out.push(legend, '');

  const show = (section: Section): boolean => shows(opts.only, section);
  if (show('loops')) out.push(...loopsSection(doc));
  if (show('fights')) {
    const fights = sortFights(doc.fights ?? []);
    out.push(`## Fights (${fights.length})`, '');
    if (fights.length === 0) out.push('No controller fights a webhook, an autoscaler or another writer.', '');
    else out.push(...fightTable(fights), '');
  }
  if (show('drifts')) {
    const drifts = sortDrifts(doc.drifts ?? []);
    out.push(`## Live drift (${drifts.length}, ${countStanding(drifts)} standing)`, '');
    if (drifts.length === 0) out.push('No one but the operator changed a running broker pod.', '');
    else out.push(...driftTable(drifts), '');
  }
  if (show('recreations')) {
    const groups = groupByBroker(doc.recreations);
    out.push(`## ${recreationsTitle(doc.recreations)}`, '');
    if (groups.length === 0) out.push('No broker pod was deleted in the data read.', '');
    for (const g of groups) {
      out.push(`### ${mdText(g.label)} — ${recreationCount(g.recreations)}`, '');
      out.push(...recreationTable(g.recreations), '');
      for (const r of g.recreations) out.push(...recreationDetails(r), '');
    }
  }
  if (show('inputs')) out.push('## Inputs', '', ...summaryTable(doc, opts), '');
  return `${out.join('\n').trimEnd()}\n`;
}

function loopsSection(doc: FindingsDocument): string[] {
  const out: string[] = [];
  const loops = sortLoops(doc.loops);
  out.push(`## Loops (${loops.length})`, '');
  if (loops.length === 0) return [...out, 'No broker was re-created in a loop.', ''];
  const end = dataEndOf(doc, loops);
  if (loops.some((l) => l.active) && end)
    out.push(
      `**active** = still looping at the end of the logs, ${mdText(formatTimestamp(end))} UTC (the newest event read, not now).`,
      '',
    );
  const groups = recommendationGroups(loops);
  out.push(...loopTable(loops, groups), '');
  out.push('### What to do', '');
  groups.forEach((g, i) => {
    const brokers = [...new Set(g.loops.map(brokerLabel))];
    out.push(`${i + 1}. **${brokers.map(mdText).join(', ')}**: ${mdText(g.recommendation)}`);
  });
  out.push('');
  return out;
}

function banner(doc: FindingsDocument): string[] {
  const errors = inputErrorsOf(doc);
  const out: string[] = [];
  if (errors.length) {
    const none = Number(doc.summary.inputsOpened ?? 1) === 0;
    out.push(
      none
        ? `> [!CAUTION]\n> **No input could be read** (${plural(errors.length, 'input')} failed): this is not an all-clear.`
        : `> [!WARNING]\n> **${plural(errors.length, 'input')} could not be read**: this report covers only the rest.`,
    );
    for (const e of errors) out.push(`> - ${mdCode(e.input)}: ${mdText(e.reason)}`);
    out.push('');
  }
  if (nothingRead(doc))
    out.push(
      '> [!CAUTION]\n> **No audit event could be read** from any input: this is not an all-clear.',
      '',
    );
  const warnings = warningsOf(doc);
  if (warnings.length) {
    out.push('> [!NOTE]');
    for (const w of warnings) out.push(`> - ${mdText(w)}`);
    out.push('');
  }
  return out;
}

/** What the fix would have saved (summary.fixImpact), first: the line a team lead forwards. */
function fixImpactSection(doc: FindingsDocument): string[] {
  const fi = docFixImpact(doc);
  if (!fi) return [];
  const out = [`> **${mdText(capitalized(fixImpactHeadline(fi)))}.**`];
  const tampers = fixImpactTampers(fi);
  if (tampers) out.push('>', `> ${mdText(capitalized(tampers))}.`);
  out.push('>', `> <sub>${mdText(capitalized(fixImpactBasis(fi)))}.</sub>`, '');
  return out;
}

function overview(doc: FindingsDocument): string {
  const head = headlineOf(doc);
  const range = head.range ? ` · ${mdText(head.range)} UTC` : '';
  // As deletionsPhrase says it: the deletions first, split into recreations and removals.
  const deletions = head.removals ? `**${plural(head.deletions, 'deletion')}**: ` : '';
  const removed = head.removals ? `, **${membersPhrase(head, 'removed')} removed** (downscale)` : '';
  return (
    `${deletions}**${plural(head.recreations, 'recreation')}** of **${membersPhrase(head, 'recreated')}**${removed}${range} · ` +
    `**${plural(head.loops, 'loop')}** (${head.activeLoops} active) · ` +
    `**${plural(head.fights, 'fight')}** of other controllers (${head.activeFights} active)`
  );
}

function fightTable(fights: Fight[]): string[] {
  const rows = fights.map((f) =>
    row([
      mdText(f.kind),
      mdText(fightLabel(f)),
      fightParties(f).map(mdCode).join('<br>'),
      String(f.count),
      formatDuration(f.periodSeconds),
      mdText(formatRange(f.firstAt, f.lastAt)),
      f.active ? '**active**' : 'ended',
      f.fields.length ? f.fields.map(mdCode).join('<br>') : '(Metadata level: not logged)',
      f.recommendation ? mdText(f.recommendation) : '—',
    ]),
  );
  return [
    row([
      'kind',
      'object',
      'writers / webhooks',
      'count',
      'period',
      'first → last (UTC)',
      'active',
      'fields',
      'recommendation',
    ]),
    '|---|---|---|--:|--:|---|---|---|---|',
    ...rows,
  ];
}

/** Each out-of-band write to a running broker pod: who, what (declared → written), and whether it stands. */
function driftTable(drifts: Drift[]): string[] {
  const rows = drifts.map((d) =>
    row([
      mdText(formatTimestamp(d.at)),
      mdText(brokerLabel(d)),
      mdCode(d.pod.name),
      mdText(d.by),
      mdText(driftWrite(d)),
      mdText(d.kind),
      d.severity === 'tamper' ? '**tamper**' : mdText(d.severity),
      d.fields.length
        ? d.fields
            .map(
              (f) =>
                `${mdCode(f.path)}: ${changeLines({ path: f.path, from: f.declared, to: f.to }, { max: 200 })
                  .map(mdText)
                  .join('<br>')}`,
            )
            .join('<br>')
        : '(Metadata level: not logged)',
      d.ended ? mdText(driftState(d)) : '**stands**',
      mdText(driftPreFix(d)),
    ]),
  );
  return [
    row([
      'time (UTC)',
      'broker',
      'pod',
      'by',
      'write',
      'kind',
      'severity',
      'declared → written',
      'state',
      'before the fix',
    ]),
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
}

function metaLine(opts: MarkdownRenderOptions): string {
  const parts: string[] = [];
  if (opts.inputs?.length) parts.push(`Inputs: ${opts.inputs.map(mdCode).join(', ')}`);
  if (opts.generatedAt) parts.push(`generated ${mdText(opts.generatedAt)}`);
  // Only http(s) links: a `javascript:` URL in a ticket is a trap for whoever clicks it.
  if (opts.reportUrl && /^https?:\/\//i.test(opts.reportUrl))
    parts.push(`[full HTML report](<${opts.reportUrl.replace(/[<>\s]/g, encodeURIComponent)}>)`);
  return parts.join(' · ');
}

function legendLine(doc: FindingsDocument): string {
  const counts = countByClass(doc.recreations);
  return classesPresent(counts)
    .map((c) => `${classStyle(c).emoji} ${mdText(c)} ${counts.get(c)}`)
    .join(' · ');
}

function classLabel(c: string): string {
  return `${classStyle(c).emoji} ${mdText(c)}`;
}

function loopTable(loops: Loop[], groups: RecommendationGroup[]): string[] {
  const rows = loops.map((l) =>
    row([
      mdText(brokerLabel(l)),
      classLabel(l.classification),
      String(l.count),
      formatDuration(l.periodSeconds),
      mdText(formatRange(l.firstAt, l.lastAt)),
      l.active ? '**active**' : 'ended',
      l.fields.length ? l.fields.map(mdCode).join('<br>') : '—',
      l.mutators.length ? l.mutators.map(mdCode).join('<br>') : '—',
      // Each distinct recommendation is written once, under the table.
      String(groups.findIndex((g) => g.loops.includes(l)) + 1),
    ]),
  );
  return [
    row([
      'broker',
      'class',
      'count',
      'period',
      'first → last (UTC)',
      'active',
      'fields',
      'mutators',
      'what to do',
    ]),
    '|---|---|--:|--:|---|---|---|---|---|',
    ...rows,
  ];
}

function recreationTable(recreations: Recreation[]): string[] {
  return [
    row(['time (UTC)', 'deleted pod → created pod', 'class', 'fields', 'by', 'deleted by']),
    '|---|---|---|---|---|---|',
    ...recreations.map((r) =>
      row([
        mdText(formatTimestamp(r.deletedPod.deletedAt)),
        `${mdCode(r.deletedPod.name)} → ${r.createdPod ? mdCode(r.createdPod.name) : successorLabel(r)}`,
        classLabel(r.classification),
        r.fields.length ? r.fields.map((f) => mdCode(f.path)).join('<br>') : '—',
        r.fields.length ? r.fields.map((f) => (f.by ? mdText(f.by) : '?')).join('<br>') : '',
        r.deletedPod.deletedBy ? mdText(r.deletedPod.deletedBy) : '?',
      ]),
    ),
  ];
}

/** A collapsed block per recreation: the verdicts, the field diff and the evidence. */
function recreationDetails(r: Recreation): string[] {
  const style = classStyle(r.classification);
  const created = escapeHtml(successorLabel(r));
  const summary =
    `${escapeHtml(formatTimestamp(r.deletedPod.deletedAt))} · ${escapeHtml(r.deletedPod.name)} → ${created} · ` +
    `${style.emoji} ${escapeHtml(r.classification)} · ${plural(r.fields.length, 'field')}`;
  const v = verdictOf(r.wouldRestart);
  const out = [
    `<details><summary>${summary}</summary>`,
    '',
    r.operator
      ? `Would restart — by version: **${mdText(versionVerdicts(r))}**`
      : `Would restart — before the koperator fix (three-way merge): **${v.before}** · after the fix (intent diff): **${v.after}**`,
    '',
  ];
  if (r.fields.length) out.push(...fence(fieldDiff(r), 'diff'), '');
  out.push(
    r.evidence.length ? `Evidence: ${r.evidence.map(mdCode).join(', ')}` : 'Evidence: none recorded',
    '',
    '</details>',
  );
  return out;
}

/**
 * Each field's change as its lines (change-lines.ts) under a `@@ path @@` header: in a diff
 * fence GitHub colours an element added (`+`) or removed (`-`); whole values are in the JSON.
 */
function fieldDiff(r: Recreation): string {
  const lines: string[] = [];
  for (const f of r.fields) {
    lines.push(`@@ ${oneLine(f.path)}${f.by ? `  (by ${oneLine(f.by)})` : ''} @@`);
    for (const l of changeLines(f, { max: CHANGE_LINE_CHARS })) lines.push(oneLine(l));
  }
  return lines.join('\n');
}

function summaryTable(doc: FindingsDocument, opts: MarkdownRenderOptions): string[] {
  const out = [row(['', '']), '|---|---|'];
  if (opts.inputs?.length) out.push(row(['inputs', opts.inputs.map(mdCode).join('<br>')]));
  for (const [k, v] of inputFacts(doc).slice(0, SUMMARY_ROWS)) {
    if (k === 'inputs' && opts.inputs?.length) continue;
    out.push(row([mdText(k), mdText(v)]));
  }
  return out.length > 2 ? out : ['No input summary.'];
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * Plain text in a table cell or heading: HTML-significant characters become entities
 * (no tags, no injected HTML), Markdown punctuation is backslash-escaped (no links,
 * emphasis or cell breaks), newlines become spaces (a row is one line).
 */
export function mdText(text: string): string {
  return oneLine(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~!]/g, (ch) => `\\${ch}`);
}

/**
 * A code span holding any text: the delimiter is one backtick longer than the longest
 * run inside, and `|` is escaped, which GFM honours even inside code spans in tables.
 */
export function mdCode(text: string): string {
  const body = oneLine(text).replace(/\|/g, '\\|');
  const longest = (body.match(/`+/g) ?? []).reduce((m, run) => Math.max(m, run.length), 0);
  const ticks = '`'.repeat(longest + 1);
  const padded = body.startsWith('`') || body.endsWith('`') || body === '' ? ` ${body} ` : body;
  return `${ticks}${padded}${ticks}`;
}

function fence(body: string, lang: string): string[] {
  const longest = (body.match(/`{3,}/g) ?? []).reduce((m, run) => Math.max(m, run.length), 2);
  const ticks = '`'.repeat(longest + 1);
  return [`${ticks}${lang}`, body, ticks];
}
