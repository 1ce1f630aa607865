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
import { escapeHtml } from './escape';
import { layoutLabels } from './label-layout';
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
  axisHeight: 44,
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
  broker: { namespace: string; kafkaCluster: string; brokerId: string } | null;
  y: number;
  height: number;
  /** Vertical centre of the marks. */
  markY: number;
}

/** `kafka/` muted, the cluster plain, `#4` bold: the broker id is what a reader scans for. */
function rowLabel(r: Row): string {
  if (r.broker === null)
    return `<tspan class="ns">fight </tspan>${escapeHtml(truncate(r.label.replace(/^\S+ /, ''), 34))}`;
  const { namespace, kafkaCluster, brokerId } = r.broker;
  const ns = truncate(namespace, 12);
  const cluster = truncate(kafkaCluster, Math.max(8, 30 - [...ns].length - [...brokerId].length));
  // The pointer-events of tspans follow the text, so clicks still land on .row-label.
  return (
    `<tspan class="ns">${escapeHtml(ns)}/</tspan>${escapeHtml(cluster)} ` +
    `<tspan class="id">#${escapeHtml(truncate(brokerId, 8))}</tspan>`
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
  svg: string;
  /** Members of each binned mark, by its data-bin. */
  bins: number[][];
}

export function renderTimeline(doc: FindingsDocument): RenderedTimeline {
  const T = TIMELINE;
  const brokers = brokerRows(doc);
  const fights = fightRows(
    doc,
    brokers.length ? brokers[brokers.length - 1].y + brokers[brokers.length - 1].height : T.top,
  );
  const rows: Row[] = [...brokers, ...fights];
  const plotLeft = T.labelWidth;
  const plotRight = T.width - T.rightPad;
  const plotBottom = rows.length ? rows[rows.length - 1].y + rows[rows.length - 1].height : T.top;
  const height = plotBottom + T.axisHeight;
  const { start, end } = timeDomain(doc);
  const x = (ms: number): number => plotLeft + ((ms - start) / (end - start)) * (plotRight - plotLeft);
  const rowOf = new Map(rows.map((r) => [r.key, r]));

  const parts: string[] = [];
  parts.push(
    `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${T.width} ${height}" ` +
      `role="img" aria-label="Broker pod deletions over time, one row per broker">`,
  );

  // Rows first (zebra background and label), so bands and marks paint over them.
  parts.push('<g class="rows">');
  rows.forEach((r, i) => {
    parts.push(
      `<rect class="row-bg${i % 2 ? ' odd' : ''}" x="0" y="${r.y}" width="${T.width}" height="${r.height}"/>`,
      `<text class="row-label"${r.broker ? ` data-broker="${escapeHtml(r.key)}"` : ' data-fight="true"'} x="12" y="${num(r.markY + 4)}">` +
        `${rowLabel(r)}<title>${escapeHtml(r.label)}</title></text>`,
    );
  });
  parts.push('</g>');

  // Grid and axis.
  const { step, ticks } = niceTicks(start, end, 8);
  parts.push('<g class="axis">');
  parts.push(
    `<line class="axis-line" x1="${plotLeft}" y1="${plotBottom}" x2="${plotRight}" y2="${plotBottom}"/>`,
  );
  let lastDay = '';
  for (const t of ticks) {
    const tx = num(x(t));
    const iso = new Date(t).toISOString();
    const day = iso.slice(0, 10);
    const time = step < 60000 ? iso.slice(11, 19) : iso.slice(11, 16);
    parts.push(
      `<line class="grid" x1="${tx}" y1="${T.top}" x2="${tx}" y2="${plotBottom + 4}"/>`,
      `<text class="tick" x="${tx}" y="${plotBottom + 18}">${time}</text>`,
    );
    // The date only where it changes, as a second line: most incidents fit in one day.
    if (day !== lastDay) parts.push(`<text class="tick date" x="${tx}" y="${plotBottom + 33}">${day}</text>`);
    lastDay = day;
  }
  parts.push(`<text class="axis-caption" x="${plotLeft - 10}" y="${plotBottom + 18}">UTC</text>`);
  parts.push('</g>');

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
  const bins: number[][] = [];
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
  return { svg: parts.join('\n'), bins };
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

/** One row per fight (fights.md), after the brokers': its band spans its first to last cycle. */
function fightRows(doc: FindingsDocument, y0: number): Array<Row & { fight: Fight }> {
  let y = y0;
  return sortFights(doc.fights ?? []).map((fight) => {
    const height = TIMELINE.loopRowHeight;
    const row = {
      key: `fight:${fight.kind}:${fightLabel(fight)}`,
      label: `${fight.kind} ${fightLabel(fight)}`,
      broker: null,
      y,
      height,
      markY: y + height - TIMELINE.rowHeight / 2 - 2,
      fight,
    };
    y += height;
    return row;
  });
}

function brokerRows(doc: FindingsDocument): Row[] {
  const looping = new Set(doc.loops.map(brokerKey));
  const brokers = new Map<string, { namespace: string; kafkaCluster: string; brokerId: string }>();
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
