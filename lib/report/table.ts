// The terminal view: what someone on call reads first. Inputs that could not be read lead,
// so a partial report never passes for a whole one; then loops, because a loop is the
// restart storm they are chasing, with each distinct recommendation once; then the
// recreations per broker, so one broker's history reads top to bottom; the input summary
// closes so skipped files are noticed.
//
// Everything fits `width` columns (the terminal's): a table whose columns would not fit
// becomes one block per row, long paths are shortened in the middle at a segment
// boundary, and long text (fields, mutators, recommendations) goes on its own indented,
// wrapped lines instead of a column of its own.
import type { Drift, Fight, FindingsDocument, Loop, Recreation } from '../model/findings';
import { countStanding, driftChanges, driftPreFix, driftState, driftWrite, sortDrifts } from './drift-format';
import { SGR, classStyle, paint } from './colors';
import {
  brokerLabel,
  classesPresent,
  countByClass,
  deletionsPhrase,
  formatCount,
  formatDuration,
  formatRange,
  formatTimestamp,
  groupByBroker,
  headlineOf,
  plural,
  sortLoops,
  fightLabel,
  fightParties,
  sortFights,
  truncate,
  truncateMiddle,
  inputErrorsOf,
  nothingRead,
  NOTHING_READ_HEAD,
  recommendationGroups,
  dataEndOf,
  warningsOf,
  shortenPath,
  inputFacts,
  recreationCount,
  recreationsTitle,
  successorLabel,
  capitalized,
} from './format';
import {
  cell,
  layoutTextTable,
  sanitizeForTerminal,
  visibleWidth,
  wrap,
  type Cell,
  type Column,
  type TableOptions,
} from './text-table';
import { docFixImpact } from './fix-impact';
import { wordsOf } from '../operators/words-registry';
import { shows, type Section } from './sections';
import { changeLines } from './change-lines';

// The fix impact in the words of the operator replayed (the registry's default, koperator).
const { headline: fixImpactHeadline, basis: fixImpactBasis, tampers: fixImpactTampers } = wordsOf().fixImpact;

export interface TableRenderOptions {
  color: boolean;
  inputs?: string[];
  generatedAt?: string;
  reportUrl?: string;
  /** Columns to fit; default 100 (the CLI passes the terminal's width). */
  width?: number;
  /** Sections to print (`--only`); all when absent. */
  only?: readonly Section[];
}

export const DEFAULT_TABLE_WIDTH = 100;

export function renderTable(doc: FindingsDocument, opts: TableRenderOptions): string {
  const { color } = opts;
  const width = Math.max(40, opts.width ?? DEFAULT_TABLE_WIDTH);
  const out: string[] = [];
  const title = (text: string): void => {
    out.push(paint(text, SGR.bold, color));
  };

  out.push(...banner(doc, width, color));
  out.push(...fixImpactLines(doc, width, color));
  for (const l of hanging(headline(doc), '  ', width)) title(l);
  out.push(...legendLines(doc, width, color));
  out.push('');

  const show = (section: Section): boolean => shows(opts.only, section);
  if (show('loops')) {
    const loops = sortLoops(doc.loops);
    title(`Loops (${formatCount(loops.length)})`);
    if (loops.length === 0) out.push('  No broker was re-created in a loop.');
    else out.push(...loopLines(doc, loops, width, color));
    out.push('');
  }

  // Other controllers fighting (fights.md), beside koperator's loops: the same kind of storm.
  if (show('fights')) {
    const fights = sortFights(doc.fights ?? []);
    title(`Fights (${formatCount(fights.length)})`);
    if (fights.length === 0) out.push('  No controller fights a webhook, an autoscaler or another writer.');
    else out.push(...fightLines(fights, width, color));
    out.push('');
  }

  // Out-of-band writes to running broker pods (drift.md): what koperator's fix no longer undoes.
  if (show('drifts')) {
    const drifts = sortDrifts(doc.drifts ?? []);
    title(`Live drift (${formatCount(drifts.length)}, ${formatCount(countStanding(drifts))} standing)`);
    if (drifts.length === 0) out.push('  No one but the operator changed a running broker pod.');
    else out.push(...driftLines(drifts, width, color));
    out.push('');
  }

  if (show('recreations')) {
    title(recreationsTitle(doc.recreations));
    out.push(...recreationLines(doc.recreations, width, color), '');
  }

  if (show('inputs')) {
    title('Inputs');
    out.push(...summaryLines(doc, opts, width));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Failed inputs and warnings, above everything else. */
function banner(doc: FindingsDocument, width: number, color: boolean): string[] {
  const errors = inputErrorsOf(doc);
  const warnings = warningsOf(doc);
  const out: string[] = [];
  if (errors.length) {
    const none = Number(doc.summary.inputsOpened ?? 1) === 0;
    const head = none
      ? `NO INPUT COULD BE READ (${plural(errors.length, 'input')} failed): this is not an all-clear`
      : `${plural(errors.length, 'INPUT')} COULD NOT BE READ: this report covers only the rest`;
    out.push(paint(fit(`!! ${head}`, width), `${SGR.bold};${SGR.red}`, color));
    for (const e of errors) out.push(...hanging(`   ${e.input}: ${e.reason}`, '      ', width));
    out.push('');
  }
  if (nothingRead(doc))
    out.push(paint(fit(`!! ${NOTHING_READ_HEAD}`, width), `${SGR.bold};${SGR.red}`, color));
  for (const w of warnings)
    out.push(...hanging(`!  warning: ${w}`, '     ', width).map((l) => paint(l, '33', color)));
  if (warnings.length) out.push('');
  return out;
}

/** What the fix would have saved (summary.fixImpact), first: the line a team lead forwards. */
function fixImpactLines(doc: FindingsDocument, width: number, color: boolean): string[] {
  const fi = docFixImpact(doc);
  if (!fi) return [];
  const out = hanging(capitalized(fixImpactHeadline(fi)), '  ', width).map((l) =>
    paint(l, `${SGR.bold};${SGR.green}`, color),
  );
  const tampers = fixImpactTampers(fi);
  if (tampers) out.push(...hanging(`  ${capitalized(tampers)}.`, '  ', width));
  out.push(...hanging(`  (${fixImpactBasis(fi)}.)`, '  ', width).map((l) => paint(l, SGR.dim, color)));
  out.push('');
  return out;
}

function headline(doc: FindingsDocument): string {
  const head = headlineOf(doc);
  return (
    `koperator-audit: ${deletionsPhrase(head)}${head.removals ? ';' : ','} ` +
    `${plural(head.loops, 'loop')} (${head.activeLoops} active), ${plural(head.fights, 'fight')} (${head.activeFights} active)`
  );
}

/** Only the classes present, in legend order, with their counts, wrapped to the width. */
function legendLines(doc: FindingsDocument, width: number, color: boolean): string[] {
  const counts = countByClass(doc.recreations);
  const items = classesPresent(counts).map((c) => ({
    plain: `${sanitizeForTerminal(c)} ${counts.get(c)}`,
    painted: `${paint(sanitizeForTerminal(c), classStyle(c).ansi, color)} ${counts.get(c)}`,
  }));
  const lines: string[] = [];
  let plainLine = '';
  let paintedLine = '';
  for (const it of items) {
    const sep = plainLine ? '  ·  ' : '  ';
    if (plainLine && visibleWidth(plainLine + sep + it.plain) >= width) {
      lines.push(paintedLine);
      plainLine = '';
      paintedLine = '';
    }
    const s = plainLine ? '  ·  ' : '  ';
    plainLine += s + it.plain;
    paintedLine += s + it.painted;
  }
  if (plainLine) lines.push(paintedLine);
  return lines;
}

// --- loops ------------------------------------------------------------------------------

const LOOP_COLUMNS: Column[] = [
  { header: 'broker', maxWidth: 40 },
  { header: 'class' },
  { header: 'count', align: 'right' },
  { header: 'period', align: 'right' },
  { header: 'first → last (UTC)' },
  { header: 'state' },
];

function loopRow(l: Loop, note: string): Cell[] {
  return [
    cell(brokerLabel(l)),
    classCell(l.classification),
    cell(formatCount(l.count), SGR.bold),
    cell(formatDuration(l.periodSeconds)),
    cell(formatRange(l.firstAt, l.lastAt)),
    l.active ? cell(`ACTIVE${note}`, `${SGR.bold};${SGR.red}`) : cell(`ended${note}`, SGR.dim),
  ];
}

function loopLines(doc: FindingsDocument, loops: Loop[], width: number, color: boolean): string[] {
  const groups = recommendationGroups(loops);
  const refOf = new Map<Loop, string>();
  groups.forEach((g, i) => g.loops.forEach((l) => refOf.set(l, groups.length > 1 ? ` [${i + 1}]` : '')));
  const out: string[] = [];
  const end = dataEndOf(doc, loops);
  if (loops.some((l) => l.active) && end) {
    out.push(
      ...hanging(
        `  ACTIVE = still looping at the end of the logs, ${formatTimestamp(end)} UTC (the newest event read, not now)`,
        '    ',
        width,
      ).map((l) => paint(l, SGR.dim, color)),
    );
  }
  const layout = layoutTextTable(
    LOOP_COLUMNS,
    loops.map((l) => loopRow(l, refOf.get(l) ?? '')),
    tableOpts(color, '  '),
  );
  const fitsTable = layout.widest <= width;
  if (fitsTable) out.push(...layout.head);
  let previous: Loop | undefined;
  loops.forEach((l, i) => {
    if (fitsTable) out.push(...layout.rows[i]);
    else out.push(...loopBlock(l, refOf.get(l) ?? '', width, color));
    // A broker's loops usually share their fields and mutators: say them once per run of equals.
    const sameAsBefore =
      previous !== undefined &&
      brokerLabel(previous) === brokerLabel(l) &&
      previous.fields.join('\n') === l.fields.join('\n') &&
      previous.mutators.join('\n') === l.mutators.join('\n');
    if (!sameAsBefore) {
      if (l.fields.length) out.push(...labelled('fields', l.fields, width, color));
      if (l.mutators.length) out.push(...labelled('by', l.mutators, width, color));
    }
    previous = l;
  });
  out.push('', paint('  What to do', SGR.bold, color));
  groups.forEach((g, i) => {
    const ref = groups.length > 1 ? `[${i + 1}] ` : '';
    const who = g.loops.length === 1 ? brokerLabel(g.loops[0]) : brokerList(g.loops);
    out.push(...hanging(`  ${ref}${who}: ${g.recommendation}`, '      ', width));
  });
  return out;
}

/** `a, b and 3 more` by broker, for the loops one recommendation answers. */
function brokerList(loops: Loop[]): string {
  const brokers = [...new Set(loops.map(brokerLabel))];
  const head = brokers.slice(0, 4).join(', ');
  const runs = loops.length > brokers.length ? ` (${plural(loops.length, 'loop')})` : '';
  return brokers.length > 4 ? `${head} and ${brokers.length - 4} more brokers${runs}` : `${head}${runs}`;
}

/** A loop as two lines when the table is wider than the terminal. */
function loopBlock(l: Loop, note: string, width: number, color: boolean): string[] {
  const state = l.active
    ? paint(`ACTIVE${note}`, `${SGR.bold};${SGR.red}`, color)
    : paint(`ended${note}`, SGR.dim, color);
  const tail = `  ACTIVE${note}  ${l.classification}`;
  const label = truncate(sanitizeForTerminal(brokerLabel(l)), Math.max(10, width - 3 - visibleWidth(tail)));
  return [
    `  ${paint(label, SGR.bold, color)}  ${state}  ${paint(sanitizeForTerminal(l.classification), classStyle(l.classification).ansi, color)}`,
    fit(
      `    ${formatCount(l.count)} recreations every ${formatDuration(l.periodSeconds)}, ${formatRange(l.firstAt, l.lastAt)} UTC`,
      width,
    ),
  ];
}

/** `      fields  a` then further values aligned under the first, each shortened to fit. */
function labelled(label: string, values: string[], width: number, color: boolean): string[] {
  const indent = '      ';
  const head = `${indent}${label.padEnd(8)}`;
  const room = Math.max(10, width - visibleWidth(head) - 1);
  return values.map(
    (v, i) =>
      (i === 0 ? paint(head, SGR.dim, color) : ' '.repeat(visibleWidth(head))) +
      sanitizeForTerminal(label === 'fields' ? shortenPath(v, room) : truncateMiddle(v, room)),
  );
}

// --- fights ------------------------------------------------------------------------------

const FIGHT_COLUMNS: Column[] = [
  { header: 'kind' },
  { header: 'object', maxWidth: 48 },
  { header: 'count', align: 'right' },
  { header: 'period', align: 'right' },
  { header: 'first → last (UTC)' },
  { header: 'state' },
];

function fightRow(f: Fight): Cell[] {
  return [
    cell(f.kind, SGR.bold),
    cell(fightLabel(f)),
    cell(formatCount(f.count), SGR.bold),
    cell(formatDuration(f.periodSeconds)),
    cell(formatRange(f.firstAt, f.lastAt)),
    f.active ? cell('ACTIVE', `${SGR.bold};${SGR.red}`) : cell('ended', SGR.dim),
  ];
}

/** The fights as loops are shown: a row each, its fields and parties under it, then what to do. */
function fightLines(fights: Fight[], width: number, color: boolean): string[] {
  const out: string[] = [];
  const layout = layoutTextTable(FIGHT_COLUMNS, fights.map(fightRow), tableOpts(color, '  '));
  const fitsTable = layout.widest <= width;
  if (fitsTable) out.push(...layout.head);
  fights.forEach((f, i) => {
    if (fitsTable) out.push(...layout.rows[i]);
    else {
      const state = f.active
        ? paint('ACTIVE', `${SGR.bold};${SGR.red}`, color)
        : paint('ended', SGR.dim, color);
      const tail = `  ACTIVE  ${f.kind}`;
      const label = truncate(
        sanitizeForTerminal(fightLabel(f)),
        Math.max(10, width - 3 - visibleWidth(tail)),
      );
      out.push(
        `  ${paint(label, SGR.bold, color)}  ${state}  ${f.kind}`,
        fit(
          `    ${formatCount(f.count)} cycles every ${formatDuration(f.periodSeconds)}, ${formatRange(f.firstAt, f.lastAt)} UTC`,
          width,
        ),
      );
    }
    out.push(
      ...labelled('fields', f.fields.length ? f.fields : ['(Metadata level: not logged)'], width, color),
    );
    out.push(...labelled('by', fightParties(f), width, color));
  });
  out.push('', paint('  What to do', SGR.bold, color));
  for (const f of fights) out.push(...hanging(`  ${fightLabel(f)}: ${f.recommendation}`, '      ', width));
  return out;
}

// --- drifts -------------------------------------------------------------------------------

/** Longest line of a field change: an ephemeral container is a whole object; the JSON has it all. */
const DRIFT_VALUE_CHARS = 120;

/**
 * A block per drift: the pod, whether it stands, kind and severity; when, how and by whom;
 * then each field, declared → written, wrapped rather than cut (an image tag is the point).
 */
function driftLines(drifts: Drift[], width: number, color: boolean): string[] {
  const out: string[] = [];
  for (const d of drifts) {
    const state = d.ended
      ? paint(driftState(d), SGR.dim, color)
      : paint('STANDS', `${SGR.bold};${SGR.red}`, color);
    const name = truncate(sanitizeForTerminal(d.pod.name), Math.max(10, width - 40));
    out.push(`  ${paint(name, SGR.bold, color)}  ${state}`);
    out.push(
      ...hanging(
        `    ${d.kind} ${d.severity} on ${brokerLabel(d)}: ${formatTimestamp(d.at)} UTC, ${driftWrite(d)} by ${d.by}`,
        '      ',
        width,
      ),
    );
    const changes = d.fields.length
      ? d.fields.flatMap((f) => {
          const lines = changeLines({ path: f.path, from: f.declared, to: f.to }, { max: DRIFT_VALUE_CHARS });
          return lines.length === 1
            ? [`      ${f.path}: ${lines[0]}`]
            : [`      ${f.path}:`, ...lines.map((l) => `        ${l}`)];
        })
      : driftChanges(d).map((c) => `      ${c}`);
    for (const c of changes) out.push(...hanging(c, '          ', width));
    out.push(...hanging(`      ${driftPreFix(d)}`, '        ', width).map((l) => paint(l, SGR.dim, color)));
  }
  return out;
}

// --- recreations ------------------------------------------------------------------------

const RECREATION_COLUMNS: Column[] = [
  { header: 'time (UTC)' },
  { header: 'class' },
  { header: 'deleted pod → created pod' },
  { header: 'deleted by' },
];

function recreationRow(r: Recreation): Cell[] {
  return [
    cell(formatTimestamp(r.deletedPod.deletedAt)),
    classCell(r.classification),
    cell(`${r.deletedPod.name} → ${successorLabel(r)}`),
    cell(r.deletedPod.deletedBy ?? '?'),
  ];
}

/**
 * One table for all brokers, so columns line up down the whole listing, with a heading
 * line before each broker's rows and each field on its own line under its recreation.
 */
function recreationLines(recreations: readonly Recreation[], width: number, color: boolean): string[] {
  const groups = groupByBroker(recreations);
  if (groups.length === 0) return ['  No broker pod was deleted in the data read.'];
  const layout = layoutTextTable(
    RECREATION_COLUMNS,
    groups.flatMap((g) => g.recreations.map(recreationRow)),
    tableOpts(color, '    '),
  );
  const fitsTable = layout.widest <= width;
  const out = fitsTable ? [...layout.head] : [];
  let next = 0;
  for (const g of groups) {
    if (g !== groups[0]) out.push('');
    out.push(
      `  ${paint(sanitizeForTerminal(truncate(g.label, width - 20)), SGR.bold, color)}  ${paint(recreationCount(g.recreations), SGR.dim, color)}`,
    );
    for (const r of g.recreations) {
      if (fitsTable) out.push(...layout.rows[next]);
      else out.push(...recreationBlock(r, width, color));
      next++;
      out.push(...fieldLines(r, width, color));
    }
  }
  return out;
}

function recreationBlock(r: Recreation, width: number, color: boolean): string[] {
  const pods = `${r.deletedPod.name} → ${successorLabel(r)}`;
  return [
    `    ${formatTimestamp(r.deletedPod.deletedAt)}  ${paint(sanitizeForTerminal(r.classification), classStyle(r.classification).ansi, color)}`,
    ...besideOrUnder(
      `      ${sanitizeForTerminal(pods)}`,
      `by ${sanitizeForTerminal(r.deletedPod.deletedBy ?? '?')}`,
      '        ',
      width,
    ),
  ];
}

/**
 * `path  change  by who` on one line when the change is one short line; otherwise the path,
 * then each line of the change (change-lines.ts) and `by` under it, as wide as the width allows.
 */
function fieldLines(r: Recreation, width: number, color: boolean): string[] {
  const indent = '        ';
  const under = `${indent}  `;
  const out: string[] = [];
  for (const f of r.fields) {
    const by = f.by ? `by ${sanitizeForTerminal(f.by)}` : '';
    // Beside the path only when nothing of it is cut for that: the added element is the point.
    const lines = changeLines(f, { max: width - 1 - under.length });
    const full = `${indent}${sanitizeForTerminal(f.path)}  ${sanitizeForTerminal(lines[0])}`;
    if (lines.length === 1 && visibleWidth(full) < width) {
      if (!by) out.push(full);
      else if (visibleWidth(full) + 2 + visibleWidth(by) < width)
        out.push(`${full}  ${paint(by, SGR.dim, color)}`);
      else out.push(full, paint(fit(`${under}${by}`, width), SGR.dim, color));
      continue;
    }
    out.push(`${indent}${sanitizeForTerminal(shortenPath(f.path, width - 1 - indent.length))}`);
    for (const line of lines) out.push(fit(`${under}${sanitizeForTerminal(line)}`, width));
    if (by) out.push(paint(fit(`${under}${by}`, width), SGR.dim, color));
  }
  return out;
}

function tableOpts(color: boolean, indent: string): TableOptions {
  return { color, indent, headerSgr: SGR.bold };
}

function classCell(c: string): Cell {
  return cell(c, classStyle(c).ansi);
}

// --- inputs -----------------------------------------------------------------------------

function summaryLines(doc: FindingsDocument, opts: TableRenderOptions, width: number): string[] {
  const rows = inputFacts(doc, opts.inputs);
  if (rows.length === 0 && !opts.generatedAt) return ['  (no input summary)'];
  const keyWidth = Math.max(9, ...rows.map(([k]) => visibleWidth(k)));
  const lines: string[] = [];
  const kv = (k: string, v: string): void => {
    const head = `  ${k.padEnd(keyWidth)}  `;
    const body = proseWrap(sanitizeForTerminal(v), Math.max(10, width - 1 - visibleWidth(head)));
    lines.push(
      paint(head, SGR.dim, opts.color) + body[0],
      ...body.slice(1).map((l) => ' '.repeat(visibleWidth(head)) + l),
    );
  };
  for (const [k, v] of rows) kv(k, v);
  if (opts.generatedAt) kv('generated', opts.generatedAt);
  if (opts.reportUrl) kv('report', opts.reportUrl);
  return lines;
}

// --- text helpers -----------------------------------------------------------------------

/** One line, cut with an ellipsis to stay below the width (the last column makes some terminals wrap). */
function fit(text: string, width: number): string {
  return visibleWidth(text) < width ? text : truncate(text, width - 1);
}

/** `text  extra` on one line when it fits, else `extra` on the next line under `indent`. */
function besideOrUnder(text: string, extra: string, indent: string, width: number): string[] {
  if (visibleWidth(text) + 2 + visibleWidth(extra) < width) return [`${text}  ${extra}`];
  return [fit(text, width), fit(`${indent}${extra}`, width)];
}

/**
 * Wrapped to the width, lines after the first indented by `indent` (all lines wrap at the
 * narrower of the two, so a path broken at a dot is never glued back with a space).
 */
function hanging(text: string, indent: string, width: number): string[] {
  const firstIndent = /^\s*/.exec(text)![0];
  const body = sanitizeForTerminal(text.slice(firstIndent.length));
  const room = Math.max(10, width - 1 - Math.max(firstIndent.length, indent.length));
  return proseWrap(body, room).map((l, i) => (i === 0 ? firstIndent : indent) + l);
}

/** Breaks prose at spaces; only a word longer than the line (a long path) breaks inside, at its dots. */
function proseWrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const pieces = visibleWidth(word) > width ? wrap(word, width) : [word];
    for (const piece of pieces) {
      if (line && visibleWidth(line) + 1 + visibleWidth(piece) > width) {
        out.push(line);
        line = '';
      }
      line = line ? `${line} ${piece}` : piece;
    }
  }
  if (line || out.length === 0) out.push(line);
  return out;
}
