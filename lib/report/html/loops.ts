// The loops section: one row per broker whose runs open on demand, each referring to its
// advice in "What to do" (advice.ts) by number. A broker that looped 23 times in a day is
// one row, not 23 rows each repeating the same advice.
import type { FindingsDocument, Loop, Recreation } from '../../model/findings';
import { changeLines } from '../change-lines';
import {
  brokerKey,
  brokerLabel,
  compareByDeletion,
  dataEndOf,
  formatCount,
  formatDuration,
  formatRange,
  formatTimestamp,
  plural,
  recommendationGroups,
  sortLoops,
} from '../format';
import { escapeBreakable, escapeHtml as h } from './escape';

export interface Advice {
  n: number;
  classes: string[];
  recommendation: string;
  brokers: string[];
  loops: number;
}

interface BrokerLoops {
  key: string;
  label: string;
  loops: Loop[];
  advice: Advice[];
}

/** A change line wraps in the facts column; past this its content ends in `…`. */
const CHANGE_LINE_CHARS = 160;

function classChip(c: string): string {
  // data-class carries the colour; an off-contract value gets the neutral default.
  return `<span class="chip" data-class="${h(c)}"><span class="dot"></span>${h(c)}</span>`;
}

function distinct<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** Loops by broker (broker order, each chronological) and the advice, numbered in order of first use. */
export function groupLoops(loops: readonly Loop[]): { brokers: BrokerLoops[]; advice: Advice[] } {
  const sorted = sortLoops(loops);
  const adviceOf = new Map<Loop, Advice>();
  const advice = recommendationGroups(sorted)
    .filter((g) => g.loops[0].recommendation)
    .map((g, i) => {
      const a: Advice = {
        n: i + 1,
        classes: distinct(g.loops.map((l) => l.classification)),
        recommendation: g.recommendation,
        brokers: distinct(g.loops.map(brokerLabel)),
        loops: g.loops.length,
      };
      for (const l of g.loops) adviceOf.set(l, a);
      return a;
    });
  const brokers = new Map<string, BrokerLoops>();
  for (const l of sorted) {
    const key = brokerKey(l);
    let b = brokers.get(key);
    if (!b) {
      b = { key, label: brokerLabel(l), loops: [], advice: [] };
      brokers.set(key, b);
    }
    b.loops.push(l);
    const a = adviceOf.get(l);
    if (a && !b.advice.includes(a)) b.advice.push(a);
  }
  return { brokers: [...brokers.values()], advice };
}

/** Least and greatest of `values` (a loop, not a spread: rows can hold tens of thousands). */
export function extent(values: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** `9s`, or `8.7s–9.2s` when the loops' periods differ; `?` when none is known. */
export function periodRange(loops: readonly Loop[]): string {
  const p = loops.map((l) => l.periodSeconds).filter(Number.isFinite);
  if (p.length === 0) return '?';
  const { min, max } = extent(p);
  const lo = formatDuration(min);
  const hi = formatDuration(max);
  return lo === hi ? lo : `${lo}–${hi}`;
}

function span(loops: readonly Loop[]): { first: string; last: string } {
  // Loops are chronological by firstAt; the last to end need not be the last to start.
  const byEnd = [...loops].sort((a, b) => (Date.parse(a.lastAt) || 0) - (Date.parse(b.lastAt) || 0));
  return { first: loops[0].firstAt, last: byEnd[byEnd.length - 1].lastAt };
}

function stateCell(loops: readonly Loop[], dataEnd: string | null): string {
  if (!loops.some((l) => l.active)) return `<span class="badge ended">ended</span>`;
  // "Active" is relative to the logs read, not to now: an old bundle must not look like a live outage.
  return (
    `<span class="badge active">active</span>` +
    `<small>at the end of the logs${dataEnd ? `, ${h(formatTimestamp(dataEnd))} UTC` : ''}</small>`
  );
}

/** `00:00:06 → 09:21:21` over `2026-11-02` (or both days when it crosses midnight). */
function whenCell(first: string, last: string): string {
  const a = formatTimestamp(first);
  const b = formatTimestamp(last);
  const timed = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
  if (!timed.test(a) || !timed.test(b)) return h(formatRange(first, last));
  const days = a.slice(0, 10) === b.slice(0, 10) ? a.slice(0, 10) : `${a.slice(0, 10)} → ${b.slice(0, 10)}`;
  return `${h(a.slice(11))} → ${h(b.slice(11))}<small>${h(days)}</small>`;
}

function codeList(items: readonly string[]): string {
  return items.length
    ? items.map((f) => `<code>${escapeBreakable(f)}</code>`).join('')
    : '<span class="muted">—</span>';
}

/** The runs of one broker; class, fields and mutators only when they differ between runs. */
function runsTable(loops: readonly Loop[]): string {
  const sig = (l: Loop): string => JSON.stringify([l.classification, l.fields, l.mutators]);
  const varied = new Set(loops.map(sig)).size > 1;
  const head = [
    '#',
    'first → last (UTC)',
    'recreations',
    'period',
    'state',
    ...(varied ? ['class', 'fields', 'mutators'] : []),
  ];
  const rows = loops.map(
    (l, i) => `<tr class="run" data-class="${h(l.classification)}"><td class="num">${i + 1}</td>
<td class="nowrap">${h(formatRange(l.firstAt, l.lastAt))}</td>
<td class="num">${formatCount(l.count)}</td>
<td class="num">${h(formatDuration(l.periodSeconds))}</td>
<td>${l.active ? '<span class="badge active">active</span>' : '<span class="badge ended">ended</span>'}</td>${
      varied
        ? `<td>${classChip(l.classification)}</td><td>${codeList(l.fields)}</td><td>${codeList(l.mutators)}</td>`
        : ''
    }</tr>`,
  );
  return `<table class="runs"><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}

/**
 * Per broker and field path, the change lines of its latest recreation that names the field:
 * what the webhook added or changed, shown in the loop's first screen.
 */
export function latestChanges(recreations: readonly Recreation[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const r of [...recreations].sort(compareByDeletion)) {
    if (r.fields.length === 0) continue;
    let byPath = out.get(brokerKey(r));
    if (!byPath) out.set(brokerKey(r), (byPath = new Map()));
    for (const f of r.fields) byPath.set(f.path, changeLines(f, { max: CHANGE_LINE_CHARS }));
  }
  return out;
}

/** Each field with its latest change highlighted under it; a path alone where none was recorded. */
function fieldChanges(paths: readonly string[], changes: Map<string, string[]> | undefined): string {
  if (paths.length === 0) return '<span class="muted">—</span>';
  return paths
    .map((p) => {
      const lines = changes?.get(p) ?? [];
      return `<code>${escapeBreakable(p)}</code>${lines.map((l) => `<code class="chg${opClass(l)}">${h(l)}</code>`).join('')}`;
    })
    .join('');
}

function opClass(line: string): string {
  return line.startsWith('+ ')
    ? ' add'
    : line.startsWith('- ')
      ? ' remove'
      : line.startsWith('~ ')
        ? ' mod'
        : '';
}

function brokerRow(b: BrokerLoops, dataEnd: string | null, changes?: Map<string, string[]>): string {
  const { first, last } = span(b.loops);
  const classes = distinct(b.loops.map((l) => l.classification));
  const total = b.loops.reduce((n, l) => n + l.count, 0);
  const adviceRefs = b.advice.length
    ? b.advice.map((a) => `<a class="advice-ref" href="#advice-${a.n}">${a.n}</a>`).join(' ')
    : '<span class="muted">—</span>';
  return `<details class="broker-loops" data-broker="${h(b.key)}">
<summary>
<span class="bl-broker">${h(b.label)}</span>
<span class="bl-class">${classes.map(classChip).join('')}</span>
<span class="bl-count"><b>${h(plural(b.loops.length, 'loop'))}</b><small>${h(plural(total, 'recreation'))} · every ${h(periodRange(b.loops))}</small></span>
<span class="bl-when">${whenCell(first, last)}</span>
<span class="bl-state">${stateCell(b.loops, dataEnd)}</span>
<span class="bl-advice" title="What to do: the advice at the top">advice ${adviceRefs}</span>
</summary>
<div class="bl-body">
<div class="bl-facts"><div class="bl-fields"><span class="muted">fields</span>${fieldChanges(distinct(b.loops.flatMap((l) => l.fields)), changes)}</div>
<div><span class="muted">mutators</span>${codeList(distinct(b.loops.flatMap((l) => l.mutators)))}</div></div>
${runsTable(b.loops)}
</div>
</details>`;
}

/** The loops by broker; their advice is in "What to do" (advice.ts), referred to by number. */
export function loopsSection(doc: FindingsDocument, grouped = groupLoops(doc.loops)): string {
  const loops = doc.loops;
  if (loops.length === 0) {
    return `<section class="card" id="loops"><h2>Loops</h2><p class="muted">No broker was re-created in a loop.</p></section>`;
  }
  const { brokers } = grouped;
  const dataEnd = dataEndOf(doc);
  const changes = latestChanges(doc.recreations);
  return `<section class="card" id="loops">
<h2>Loops (${formatCount(loops.length)} on ${h(plural(brokers.length, 'broker'))})</h2>
<h3>By broker <span class="muted">(open a broker for its runs)</span></h3>
<div class="broker-list">
${brokers.map((b) => brokerRow(b, dataEnd, changes.get(b.key))).join('\n')}
</div>
</section>`;
}
