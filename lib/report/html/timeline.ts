// The timeline: one SVG, one row per broker, x = time. Deletions are plain <circle>
// marks and loops plain <rect> bands, because a browser draws thousands of simple SVG
// elements without trouble while per-mark <title>s, filters or nested groups slow it
// down; hover text for marks is therefore supplied by the page script from the data.
// Marks denser than the drawing are binned (mark-bins.ts) and loop labels that would
// collide are merged (label-layout.ts), so the picture stays readable at any scale.
import type { Drift, Fight, FindingsDocument, Loop } from '../../model/findings';
import { driftChanges, driftState } from '../drift-format';
import {
  brokerKey,
  brokerLabel,
  compareBrokers,
  fightLabel,
  sortFights,
  formatCount,
  formatDuration,
  formatRange,
  formatTimestamp,
  parseTime,
  timeSpan,
  truncate,
} from '../format';
import { wordsOf } from '../../operators/words-registry';
import { escapeHtml } from './escape';
import { layoutLabels } from './label-layout';
import { wrapLabel } from './wrap-label';
import { extent, periodRange } from './loops';
import { binMarks, type MarkInput } from './mark-bins';

export const TIMELINE = {
  width: 1200,
  labelWidth: 230,
  rightPad: 24,
  top: 10,
  rowHeight: 32,
  /** Rows with a loop are taller: the loop's label gets its own line above the marks. */
  loopRowHeight: 48,
  /** The axis drawing above the rows: dates, then times, then the axis line. */
  axisHeight: 40,
  /** Room under the last row. */
  bottomPad: 8,
  markRadius: 5.5,
  /** Recreations of one class closer than this (about two screen pixels) share one mark. */
  binWidth: 2,
  /** Loop labels: font size 10.5 px bold; a conservative width per character (digits are 7.3). */
  labelCharWidth: 7.4,
  labelGap: 10,
} as const;

interface Row {
  key: string;
  label: string;
  /** Null for a fight's row. */
  broker: { namespace: string; operator?: string; kafkaCluster: string; brokerId: string } | null;
  y: number;
  height: number;
  /** Vertical centre of the marks. */
  markY: number;
  /** A fight's label, one entry per line: it shows in full, never cut. */
  labelLines?: LabelLine[];
}

/** `kafka/` muted, the cluster plain, `#4` bold: the broker id is what a reader scans for. */
function rowLabel(r: Row): string {
  if (r.broker === null)
    return (r.labelLines ?? [])
      .map(
        (line, i) =>
          `<tspan x="12"${i ? ` dy="${FIGHT_LABEL.lineHeight}"` : ''}${line.muted ? ' class="ns"' : ''}>${escapeHtml(line.text)}</tspan>`,
      )
      .join('');
  const { namespace, operator, kafkaCluster, brokerId } = r.broker;
  // Another operator's member: its name muted before the namespace, its unit's word before the id.
  const words = operator ? wordsOf(operator) : null;
  const prefix = words ? `${words.operator} ` : '';
  const id = words ? `${words.unit} ${truncate(brokerId, 8)}` : `#${truncate(brokerId, 8)}`;
  const ns = truncate(namespace, 12);
  const taken =
    [...ns].length + [...brokerId].length + (words ? [...prefix].length + [...words.unit].length : 0);
  const cluster = truncate(kafkaCluster, Math.max(8, 30 - taken));
  // The pointer-events of tspans follow the text, so clicks still land on .row-label.
  return (
    `<tspan class="ns">${escapeHtml(prefix + ns)}/</tspan>${escapeHtml(cluster)} ` +
    `<tspan class="id">${escapeHtml(id)}</tspan>`
  );
}

/** Tick steps a reader counts in, from one second to one week. */
const STEPS_MS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
].map((s) => s * 1000);

/** Evenly spaced round instants covering [start, end], at most about `maxTicks` of them. */
export function niceTicks(start: number, end: number, maxTicks: number): { step: number; ticks: number[] } {
  const span = Math.max(end - start, 1);
  const step = STEPS_MS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / 86400000) * 86400000;
  const ticks: number[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) ticks.push(t);
  return { step, ticks };
}

/** The drawn time domain: the findings' span padded so edge marks are not cut in half. */
export function timeDomain(doc: FindingsDocument): { start: number; end: number } {
  const span = timeSpan(doc);
  if (!span) return { start: 0, end: 60000 };
  const pad = Math.max((span.end - span.start) * 0.03, 30000);
  return { start: span.start - pad, end: span.end + pad };
}

export interface RenderedTimeline {
  /**
   * The drawing: a sticky time axis on top (none when the findings hold no time), the
   * brokers' and the first fights' rows, and the other fights' rows in a closed group.
   */
  svg: string;
  /** Members of each binned mark, by its data-bin. */
  bins: number[][];
}

/** Fight rows drawn open; beyond them the fights' rows fold into one expandable group. */
export const OPEN_FIGHT_ROWS = 10;

/** The x scale shared by the axis and every plot, so their ticks and grid lines meet. */
interface Scale {
  x(ms: number): number;
  start: number;
  end: number;
  plotLeft: number;
  plotRight: number;
  ticks: number[];
  step: number;
}

function scaleFor(doc: FindingsDocument): Scale | null {
  if (!timeSpan(doc)) return null;
  const T = TIMELINE;
  const { start, end } = timeDomain(doc);
  const plotLeft = T.labelWidth;
  const plotRight = T.width - T.rightPad;
  const { step, ticks } = niceTicks(start, end, 8);
  return {
    x: (ms) => plotLeft + ((ms - start) / (end - start)) * (plotRight - plotLeft),
    start,
    end,
    plotLeft,
    plotRight,
    ticks,
    step,
  };
}

/** The time axis in a drawing of its own, so it can stay on screen above a tall timeline. */
function axisSvg(s: Scale): string {
  const T = TIMELINE;
  const h = T.axisHeight;
  const parts = [
    `<svg class="timeline-axis" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${T.width} ${h}" aria-hidden="true">`,
    `<rect class="axis-bg" x="0" y="0" width="${T.width}" height="${h}"/>`,
    `<line class="axis-line" x1="${s.plotLeft}" y1="${h - 1}" x2="${s.plotRight}" y2="${h - 1}"/>`,
    `<text class="axis-caption" x="${s.plotLeft - 10}" y="${h - 10}">UTC</text>`,
  ];
  let lastDay = '';
  for (const t of s.ticks) {
    const tx = num(s.x(t));
    const iso = new Date(t).toISOString();
    const day = iso.slice(0, 10);
    const time = s.step < 60000 ? iso.slice(11, 19) : iso.slice(11, 16);
    parts.push(
      `<line class="grid" x1="${tx}" y1="${h - 5}" x2="${tx}" y2="${h}"/>`,
      `<text class="tick" x="${tx}" y="${h - 10}">${time}</text>`,
    );
    // The date only where it changes, on the line above: most incidents fit in one day.
    if (day !== lastDay) parts.push(`<text class="tick date" x="${tx}" y="${h - 25}">${day}</text>`);
    lastDay = day;
  }
  parts.push('</svg>');
  return parts.join('\n');
}

export function renderTimeline(doc: FindingsDocument): RenderedTimeline {
  const scale = scaleFor(doc);
  const brokers = brokerRows(doc);
  const sortedFights = sortFights(doc.fights ?? []);
  // A fight row per fight: the first ones beside the brokers, the rest folded (a 300 MB day
  // held 81 fights: 4,400 px of rows pushed everything else out of sight).
  const shown = sortedFights.length > OPEN_FIGHT_ROWS + 1 ? OPEN_FIGHT_ROWS : sortedFights.length;
  const fightsOpen = fightRows(sortedFights.slice(0, shown), bottomOf(brokers));
  const fightsFolded = fightRows(sortedFights.slice(shown), TIMELINE.top);
  const bins: number[][] = [];
  const main = plotSvg(doc, [...brokers, ...fightsOpen], fightsOpen, scale, bins, 'timeline');
  const parts = [`<div class="tl">`];
  if (scale) parts.push(`<div class="tl-axis">${axisSvg(scale)}</div>`);
  parts.push(main);
  if (fightsFolded.length) {
    parts.push(
      `<details class="more-fights"><summary>${formatCount(fightsFolded.length)} more fights ` +
        `<span class="muted">(every fight is listed under Fights)</span></summary>`,
      plotSvg(doc, fightsFolded, fightsFolded, scale, bins, 'timeline-more'),
      `</details>`,
    );
  }
  parts.push('</div>');
  return { svg: parts.join('\n'), bins };
}

function bottomOf(rows: readonly Row[]): number {
  return rows.length ? rows[rows.length - 1].y + rows[rows.length - 1].height : TIMELINE.top;
}

/** One drawing of rows: zebra rows and labels, grid, loop and fight bands, loop labels, marks. */
function plotSvg(
  doc: FindingsDocument,
  rows: Row[],
  fights: Array<Row & { fight: Fight }>,
  scale: Scale | null,
  bins: number[][],
  cls: 'timeline' | 'timeline-more',
): string {
  const T = TIMELINE;
  const plotBottom = bottomOf(rows);
  // An empty drawing keeps room for its one line of text.
  const height = rows.length ? plotBottom + T.bottomPad : T.top + 40;
  const start = scale?.start ?? 0;
  const x = scale ? scale.x : () => T.labelWidth;
  const plotLeft = T.labelWidth;
  const rowOf = new Map(rows.map((r) => [r.key, r]));

  const parts: string[] = [];
  parts.push(
    `<svg class="${cls}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${T.width} ${height}" ` +
      `role="img" aria-label="${cls === 'timeline' ? 'Broker pod deletions over time, one row per broker' : 'More fights over time'}">`,
  );

  // Rows first (zebra background and label), so bands and marks paint over them.
  parts.push('<g class="rows">');
  rows.forEach((r, i) => {
    parts.push(
      `<rect class="row-bg${i % 2 ? ' odd' : ''}" x="0" y="${r.y}" width="${T.width}" height="${r.height}"/>`,
      `<text class="row-label"${r.broker ? ` data-broker="${escapeHtml(r.key)}"` : ' data-fight="true"'} x="12" y="${num(labelBaseline(r))}">` +
        `${rowLabel(r)}<title>${escapeHtml(r.label)}</title></text>`,
    );
  });
  parts.push('</g>');

  // Grid lines under the rows; the ticks' text is in the axis drawing above.
  if (scale && rows.length) {
    parts.push('<g class="grid-lines">');
    for (const t of scale.ticks) {
      const tx = num(x(t));
      parts.push(`<line class="grid" x1="${tx}" y1="${T.top}" x2="${tx}" y2="${plotBottom}"/>`);
    }
    parts.push('</g>');
  }

  // Loop bands: one <rect class="loop-band"> per loop; labels laid out per row after.
  parts.push('<g class="bands">');
  const loopsByRow = new Map<string, Array<{ loop: Loop; x0: number; x1: number }>>();
  for (const loop of doc.loops) {
    const row = rowOf.get(brokerKey(loop));
    if (!row) continue;
    const first = parseTime(loop.firstAt) ?? start;
    const last = parseTime(loop.lastAt) ?? first;
    const bx = x(Math.min(first, last)) - T.markRadius - 3;
    const bw = Math.max(x(Math.max(first, last)) - x(Math.min(first, last)) + 2 * (T.markRadius + 3), 12);
    const tip = `${loop.classification} loop: ${loop.count} recreations, every ${formatDuration(loop.periodSeconds)}, ${formatRange(loop.firstAt, loop.lastAt)} UTC${loop.active ? ', still active at the end of the logs' : ''}`;
    parts.push(
      `<rect class="loop-band" data-class="${escapeHtml(loop.classification)}" data-active="${loop.active}" ` +
        `data-broker="${escapeHtml(row.key)}" x="${num(bx)}" y="${row.y + 3}" width="${num(bw)}" ` +
        `height="${row.height - 6}" rx="6"><title>${escapeHtml(tip)}</title></rect>`,
    );
    const list = loopsByRow.get(row.key) ?? [];
    list.push({ loop, x0: bx, x1: bx + bw });
    loopsByRow.set(row.key, list);
  }
  parts.push('</g>');

  // Fight bands: one <rect class="fight-band"> per fight, in its own row, with its label.
  parts.push('<g class="fights">');
  for (const row of fights) {
    const f = row.fight;
    const first = parseTime(f.firstAt) ?? start;
    const last = parseTime(f.lastAt) ?? first;
    const bx = x(Math.min(first, last)) - T.markRadius - 3;
    const bw = Math.max(x(Math.max(first, last)) - x(Math.min(first, last)) + 2 * (T.markRadius + 3), 12);
    const label = `${f.kind} ×${f.count} · every ${formatDuration(f.periodSeconds)}${f.active ? ' · active' : ''}`;
    const tip = `${f.kind} over ${fightLabel(f)}: ${f.count} cycles, every ${formatDuration(f.periodSeconds)}, ${formatRange(f.firstAt, f.lastAt)} UTC${f.active ? ', still active' : ''}. ${f.recommendation}`;
    parts.push(
      `<rect class="fight-band" data-kind="${escapeHtml(f.kind)}" data-active="${f.active}" ` +
        `x="${num(bx)}" y="${row.y + 3}" width="${num(bw)}" height="${row.height - 6}" rx="6"><title>${escapeHtml(tip)}</title></rect>`,
      `<text class="loop-label" x="${num(Math.min(bx + 6, T.width - label.length * 6.4 - 4))}" y="${row.y + 16}">${escapeHtml(label)}</text>`,
    );
  }
  parts.push('</g>');

  // Labels run along the row's top line, above the marks, so they cover none of them;
  // where two would collide they become one label for the loops of both.
  parts.push('<g class="loop-labels">');
  for (const [key, list] of loopsByRow) {
    const row = rowOf.get(key) as Row;
    const placed = layoutLabels(
      list,
      (members) => loopLabel(members.map((i) => list[i].loop)),
      (text) => [...text].length * T.labelCharWidth,
      { left: plotLeft + 2, right: T.width - 4, gap: T.labelGap },
    );
    for (const p of placed) {
      // A merged label gets a rule under it across its loops, so a reader sees which bands it counts.
      if (p.members.length > 1) {
        const x0 = extent(p.members.map((i) => list[i].x0)).min;
        const x1 = extent(p.members.map((i) => list[i].x1)).max;
        parts.push(`<path class="loop-span" d="M${num(x0 + 2)} ${row.y + 23}v-3H${num(x1 - 2)}v3"/>`);
      }
      parts.push(
        `<text class="loop-label" data-loops="${p.members.length}" x="${num(p.x)}" y="${row.y + 16}">` +
          `${escapeHtml(p.text)}</text>`,
      );
    }
  }
  parts.push('</g>');

  // Marks: one per recreation, or one per bin where they are denser than the drawing.
  // data-idx is the (first) recreation's index in doc.recreations; a bin's members are
  // in the page data under its data-bin.
  const marksByRow = new Map<string, MarkInput[]>();
  doc.recreations.forEach((r, idx) => {
    const row = rowOf.get(brokerKey(r));
    if (!row) return;
    const t = parseTime(r.deletedPod.deletedAt);
    // An unparseable time still gets its mark, at the left edge, so counts add up.
    const list = marksByRow.get(row.key) ?? [];
    list.push({ idx, x: t === null ? plotLeft : x(t), classification: r.classification, time: t });
    marksByRow.set(row.key, list);
  });
  parts.push('<g class="marks">');
  for (const row of rows) {
    for (const b of binMarks(marksByRow.get(row.key) ?? [], T.binWidth)) {
      const first = doc.recreations[b.members[0]];
      const many = b.members.length > 1;
      const binAttrs = many ? ` data-bin="${bins.length}" data-count="${b.members.length}"` : '';
      if (many) bins.push(b.members);
      parts.push(
        `<circle class="mark${many ? ' bin' : ''}" data-class="${escapeHtml(b.classification)}" ` +
          `data-uid="${escapeHtml(many ? '' : (first.deletedPod.uid ?? ''))}" data-idx="${b.members[0]}"${binAttrs}` +
          `${b.undated ? ' data-undated="true"' : ''} cx="${num(b.x)}" cy="${row.markY}" r="${T.markRadius}"/>`,
      );
    }
  }
  parts.push('</g>');

  parts.push(...driftMarks(doc.drifts ?? [], rowOf, x));

  if (rows.length === 0) {
    parts.push(`<text class="empty" x="${T.width / 2}" y="${T.top + 24}">No broker pod deletions</text>`);
  }
  parts.push('</svg>');
  return parts.join('\n');
}

/**
 * A diamond per drift (drift.md) on its broker's row, above the deletion marks: a drift is
 * rare and is the one thing here a person did by hand, so each gets its own hover text.
 */
function driftMarks(drifts: readonly Drift[], rowOf: Map<string, Row>, x: (ms: number) => number): string[] {
  if (drifts.length === 0) return [];
  const r = TIMELINE.markRadius + 1;
  const out = ['<g class="drifts">'];
  for (const d of drifts) {
    const row = rowOf.get(brokerKey(d));
    const t = parseTime(d.at);
    if (!row || t === null) continue;
    const cx = x(t);
    const cy = row.markY - TIMELINE.markRadius - 3;
    const tip = `${d.kind} drift (${d.severity}) of ${d.pod.name} by ${d.by} at ${formatTimestamp(d.at)} UTC: ${driftChanges(d).join('; ')}; ${driftState(d)}`;
    out.push(
      `<path class="drift-mark" data-severity="${escapeHtml(d.severity)}" data-stands="${d.ended === null}" ` +
        `d="M${num(cx)} ${num(cy - r)}l${r} ${r}l${-r} ${r}l${-r} ${-r}z"><title>${escapeHtml(truncate(tip, 600))}</title></path>`,
    );
  }
  out.push('</g>');
  return out;
}

/** `×25 · every 9s`, or for several loops `23 loops · ×575 · every 8.7s–9.2s · 1 active`. */
export function loopLabel(loops: readonly Loop[]): string {
  const period = periodRange(loops);
  const every = period === '?' ? '' : ` · every ${period}`;
  const active = loops.filter((l) => l.active).length;
  const total = loops.reduce((n, l) => n + l.count, 0);
  if (loops.length === 1) return `×${formatCount(total)}${every}${active ? ' · active' : ''}`;
  return `${formatCount(loops.length)} loops · ×${formatCount(total)}${every}${active ? ` · ${formatCount(active)} active` : ''}`;
}

/**
 * A fight's row label: `fight · resource` muted on the first line, then the object as
 * `namespace/name` (a recreate loop's slot after it), wrapped to the label column.
 */
const FIGHT_LABEL = {
  lineHeight: 14,
  /** Characters per line of the label column at 12.5 px (checked against real boxes in Chromium). */
  maxChars: 30,
  /** Room above the first line and below the last. */
  pad: 8,
} as const;

export interface LabelLine {
  text: string;
  /** What kind of object: muted, so the eye lands on the object's own name. */
  muted: boolean;
}

export function fightLabelLines(f: Pick<Fight, 'namespace' | 'target'>): LabelLine[] {
  const slot = f.target.slot !== undefined && f.target.slot !== f.target.name ? ` [${f.target.slot}]` : '';
  const object = `${f.namespace ? `${f.namespace}/` : ''}${f.target.name}${slot}`;
  return [
    ...wrapLabel(`fight · ${f.target.resource}`, FIGHT_LABEL.maxChars).map((text) => ({ text, muted: true })),
    ...wrapLabel(object, FIGHT_LABEL.maxChars).map((text) => ({ text, muted: false })),
  ];
}

/** The first line's baseline: a broker's label beside its marks, a fight's lines centred in its row. */
function labelBaseline(r: Row): number {
  if (!r.labelLines) return r.markY + 4;
  const block = r.labelLines.length * FIGHT_LABEL.lineHeight;
  return r.y + (r.height - block) / 2 + FIGHT_LABEL.lineHeight - 3;
}

/** One row per fight (fights.md), in the order given, from y0: its band spans its first to last cycle. */
function fightRows(fights: readonly Fight[], y0: number): Array<Row & { fight: Fight }> {
  let y = y0;
  return fights.map((fight) => {
    const labelLines = fightLabelLines(fight);
    const height = Math.max(
      TIMELINE.loopRowHeight,
      labelLines.length * FIGHT_LABEL.lineHeight + 2 * FIGHT_LABEL.pad,
    );
    const row = {
      key: `fight:${fight.kind}:${fightLabel(fight)}`,
      label: `${fight.kind} ${fightLabel(fight)}`,
      broker: null,
      y,
      height,
      markY: y + height - TIMELINE.rowHeight / 2 - 2,
      labelLines,
      fight,
    };
    y += height;
    return row;
  });
}

function brokerRows(doc: FindingsDocument): Row[] {
  const looping = new Set(doc.loops.map(brokerKey));
  const brokers = new Map<string, NonNullable<Row['broker']>>();
  for (const b of [...doc.recreations, ...doc.loops, ...(doc.drifts ?? [])]) {
    if (!brokers.has(brokerKey(b))) brokers.set(brokerKey(b), b);
  }
  const rows: Row[] = [];
  let y: number = TIMELINE.top;
  for (const [key, b] of [...brokers.entries()].sort((a, c) => compareBrokers(a[1], c[1]))) {
    const hasLoop = looping.has(key);
    const height = hasLoop ? TIMELINE.loopRowHeight : TIMELINE.rowHeight;
    // In a loop row the marks sit in the lower part, under the label line.
    const markY = hasLoop ? y + height - TIMELINE.rowHeight / 2 - 2 : y + height / 2;
    rows.push({ key, label: brokerLabel(b), broker: b, y, height, markY });
    y += height;
  }
  return rows;
}

/** Coordinates to one decimal: enough for a 1200-unit canvas, and it keeps big files small. */
function num(n: number): string {
  return String(Math.round(n * 10) / 10);
}
