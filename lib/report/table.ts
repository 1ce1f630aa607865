// The terminal view: what someone on call reads first. Loops lead because a loop is
// the restart storm they are chasing; recreations follow per broker so one broker's
// history reads top to bottom; the input summary closes so skipped files are noticed.
import type { Fight, FindingsDocument, Loop, Recreation } from '../model/findings';
import { SGR, classStyle, paint } from './colors';
import {
  classesPresent,
  countByClass,
  flattenSummary,
  formatDuration,
  formatRange,
  formatTimestamp,
  formatValue,
  groupByBroker,
  headlineOf,
  plural,
  sortLoops,
  fightLabel,
  fightParties,
  sortFights,
  brokerLabel,
  truncate,
  truncateMiddle,
} from './format';
import {
  cell,
  layoutTextTable,
  renderTextTable,
  sanitizeForTerminal,
  type Cell,
  type Column,
  type TableOptions,
} from './text-table';

export interface TableRenderOptions {
  color: boolean;
  inputs?: string[];
  generatedAt?: string;
  reportUrl?: string;
}

/** Field values are often whole affinity blocks; the terminal gets a glimpse, the HTML the rest. */
const VALUE_WIDTH = 24;
const PATH_WIDTH = 56;
const SUMMARY_ROWS = 40;

export function renderTable(doc: FindingsDocument, opts: TableRenderOptions): string {
  const { color } = opts;
  const out: string[] = [];
  const title = (text: string): void => {
    out.push(paint(text, SGR.bold, color));
  };

  title(headline(doc));
  const legend = legendLine(doc, color);
  if (legend) out.push(legend);
  out.push('');

  const loops = sortLoops(doc.loops);
  title(`Loops (${loops.length})`);
  if (loops.length === 0) out.push('  No broker was re-created in a loop.');
  else
    out.push(
      ...renderTextTable(
        LOOP_COLUMNS,
        loops.map((l) => loopRow(l)),
        tableOpts(color, '  '),
      ),
    );
  out.push('');

  // Other controllers fighting (fights.md), beside koperator's loops: the same kind of storm.
  const fights = sortFights(doc.fights ?? []);
  title(`Fights (${fights.length})`);
  if (fights.length === 0) out.push('  No controller fights a webhook, an autoscaler or another writer.');
  else
    out.push(
      ...renderTextTable(
        FIGHT_COLUMNS,
        fights.map((f) => fightRow(f)),
        tableOpts(color, '  '),
      ),
    );
  out.push('');

  title(`Recreations (${doc.recreations.length})`);
  out.push(...recreationLines(doc.recreations, color), '');

  title('Inputs');
  out.push(...summaryLines(doc, opts));
  return `${out.join('\n')}\n`;
}

/**
 * One table for all brokers, so columns line up down the whole listing, with a heading
 * line before each broker's rows.
 */
function recreationLines(recreations: readonly Recreation[], color: boolean): string[] {
  const groups = groupByBroker(recreations);
  if (groups.length === 0) return ['  No broker pod was deleted in the data read.'];
  const layout = layoutTextTable(
    RECREATION_COLUMNS,
    groups.flatMap((g) => g.recreations.map(recreationRow)),
    tableOpts(color, '    '),
  );
  const out = [...layout.head];
  let next = 0;
  for (const g of groups) {
    if (g !== groups[0]) out.push('');
    out.push(
      `  ${paint(sanitizeForTerminal(g.label), SGR.bold, color)}  ${paint(plural(g.recreations.length, 'recreation'), SGR.dim, color)}`,
    );
    for (const _ of g.recreations) out.push(...layout.rows[next++]);
  }
  return out;
}

function tableOpts(color: boolean, indent: string): TableOptions {
  return { color, indent, headerSgr: SGR.bold };
}

function headline(doc: FindingsDocument): string {
  const head = headlineOf(doc);
  return (
    `koperator-audit: ${plural(head.recreations, 'broker pod recreation')} across ${plural(head.brokers, 'broker')}, ` +
    `${plural(head.loops, 'loop')} (${head.activeLoops} active), ${plural(head.fights, 'fight')} (${head.activeFights} active)`
  );
}

/** Only the classes present, in legend order, with their counts: the colour key for the rows below. */
function legendLine(doc: FindingsDocument, color: boolean): string {
  const counts = countByClass(doc.recreations);
  const parts = classesPresent(counts).map(
    (c) => `${paint(sanitizeForTerminal(c), classStyle(c).ansi, color)} ${counts.get(c)}`,
  );
  return parts.length ? `  ${parts.join('  ·  ')}` : '';
}

const LOOP_COLUMNS: Column[] = [
  { header: 'broker', maxWidth: 36 },
  { header: 'class' },
  { header: 'count', align: 'right' },
  { header: 'period', align: 'right' },
  { header: 'first → last (UTC)' },
  { header: 'active' },
  { header: 'fields', maxWidth: PATH_WIDTH },
  { header: 'mutators', maxWidth: 40 },
  { header: 'recommendation', maxWidth: 44 },
];

function loopRow(l: Loop): Cell[] {
  return [
    cell(brokerLabel(l)),
    classCell(l.classification),
    cell(String(l.count), SGR.bold),
    cell(formatDuration(l.periodSeconds)),
    cell(formatRange(l.firstAt, l.lastAt)),
    l.active ? cell('ACTIVE', `${SGR.bold};${SGR.red}`) : cell('ended', SGR.dim),
    cell(l.fields.length ? l.fields : ['—']),
    cell(l.mutators.length ? l.mutators : ['—']),
    cell(l.recommendation || '—'),
  ];
}

const FIGHT_COLUMNS: Column[] = [
  { header: 'kind' },
  { header: 'object', maxWidth: 48 },
  { header: 'writers / webhooks', maxWidth: 48 },
  { header: 'count', align: 'right' },
  { header: 'period', align: 'right' },
  { header: 'first → last (UTC)' },
  { header: 'active' },
  { header: 'fields', maxWidth: PATH_WIDTH },
  { header: 'recommendation', maxWidth: 44 },
];

function fightRow(f: Fight): Cell[] {
  return [
    cell(f.kind, SGR.bold),
    cell(fightLabel(f)),
    cell(fightParties(f)),
    cell(String(f.count), SGR.bold),
    cell(formatDuration(f.periodSeconds)),
    cell(formatRange(f.firstAt, f.lastAt)),
    f.active ? cell('ACTIVE', `${SGR.bold};${SGR.red}`) : cell('ended', SGR.dim),
    cell(
      f.fields.length ? f.fields.map((p) => truncateMiddle(p, PATH_WIDTH)) : ['(Metadata level: not logged)'],
    ),
    cell(f.recommendation || '—'),
  ];
}

const RECREATION_COLUMNS: Column[] = [
  { header: 'time (UTC)' },
  { header: 'deleted pod → created pod' },
  { header: 'class' },
  { header: 'field' },
  { header: 'from → to' },
  { header: 'by' },
  { header: 'deleted by' },
];

function recreationRow(r: Recreation): Cell[] {
  const created = r.createdPod ? r.createdPod.name : '(none)';
  // One line per field in both the fields and the by column, so each `by` sits beside its field.
  const paths = r.fields.map((f) => truncateMiddle(f.path, PATH_WIDTH));
  const changes = r.fields.map(
    (f) => `${truncate(formatValue(f.from), VALUE_WIDTH)} → ${truncate(formatValue(f.to), VALUE_WIDTH)}`,
  );
  return [
    cell(formatTimestamp(r.deletedPod.deletedAt)),
    cell(`${r.deletedPod.name} → ${created}`),
    classCell(r.classification),
    paths.length ? cell(paths) : cell('—', SGR.dim),
    cell(changes),
    cell(r.fields.length ? r.fields.map((f) => f.by ?? '?') : ['']),
    cell(r.deletedPod.deletedBy ?? '?'),
  ];
}

function classCell(c: string): Cell {
  return cell(c, classStyle(c).ansi);
}

function summaryLines(doc: FindingsDocument, opts: TableRenderOptions): string[] {
  const { rows, omitted } = flattenSummary(doc.summary, SUMMARY_ROWS);
  const keyWidth = Math.max(9, ...rows.map(([k]) => [...k].length));
  const lines: string[] = [];
  const kv = (k: string, v: string): void => {
    lines.push(
      `  ${paint(sanitizeForTerminal(k.padEnd(keyWidth)), SGR.dim, opts.color)}  ${sanitizeForTerminal(v)}`,
    );
  };
  if (opts.inputs?.length) kv('inputs', opts.inputs.join(', '));
  for (const [k, v] of rows) kv(k, v);
  if (omitted > 0)
    lines.push(`  … ${plural(omitted, 'more summary entry', 'more summary entries')} (see --format json)`);
  if (!opts.inputs?.length && rows.length === 0) lines.push('  (no input summary)');
  if (opts.generatedAt) kv('generated', opts.generatedAt);
  if (opts.reportUrl) kv('report', opts.reportUrl);
  return lines;
}
