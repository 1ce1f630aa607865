// Aligned plain-text columns for the terminal view. Cells may span several lines (one
// field path per line, a wrapped recommendation), so a row is as tall as its tallest
// cell. Widths are measured on the raw text and colour is applied after padding: an
// SGR sequence takes no room on screen, and measuring painted text would misalign.
import { paint } from './colors';

export interface Cell {
  lines: string[];
  /** SGR parameters for every line of the cell. */
  sgr?: string;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Lines longer than this wrap (see {@link wrap}). */
  maxWidth?: number;
}

export function cell(text: string | string[], sgr?: string): Cell {
  return { lines: typeof text === 'string' ? [text] : text.length ? text : [''], sgr };
}

/** Width on screen: code points, which is right for the text these reports print. */
export function visibleWidth(text: string): number {
  return [...text].length;
}

/**
 * Control characters from the logs would move the cursor or recolour the terminal
 * (an ESC in a pod annotation is enough); they are shown as `\u001b`-style escapes.
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Breaks a line at spaces or after `.`, `,`, `/` so paths wrap between segments; a
 * segment longer than `width` is cut hard.
 */
export function wrap(text: string, width: number): string[] {
  if (width < 1 || visibleWidth(text) <= width) return [text];
  const tokens = text.match(/[^\s.,/]*[.,/]|[^\s.,/]+|\s+/g) ?? [text];
  const out: string[] = [];
  let line = '';
  const flush = (): void => {
    if (line.trim() !== '') out.push(line.trimEnd());
    line = '';
  };
  for (const token of tokens) {
    if (/^\s+$/.test(token)) {
      if (line !== '') line += ' ';
      continue;
    }
    if (visibleWidth(line) + visibleWidth(token) > width) flush();
    let rest = token;
    while (visibleWidth(rest) > width) {
      const chars = [...rest];
      out.push(chars.slice(0, width).join(''));
      rest = chars.slice(width).join('');
    }
    line += rest;
  }
  flush();
  return out.length ? out : [''];
}

export interface TableOptions {
  color: boolean;
  /** Prefix of every line, for tables nested under a heading. */
  indent?: string;
  /** SGR parameters for the header row. */
  headerSgr?: string;
}

/** Header lines and each row's lines, laid out on shared widths, for callers that interleave headings. */
export interface TableLayout {
  head: string[];
  rows: string[][];
  /** The longest line on screen, so a caller can tell whether the table fits its width. */
  widest: number;
}

export function renderTextTable(
  columns: readonly Column[],
  rows: readonly Cell[][],
  opts: TableOptions,
): string[] {
  const layout = layoutTextTable(columns, rows, opts);
  return [...layout.head, ...layout.rows.flat()];
}

export function layoutTextTable(
  columns: readonly Column[],
  rows: readonly Cell[][],
  opts: TableOptions,
): TableLayout {
  const indent = opts.indent ?? '';
  const gap = '  ';
  const wrapped = rows.map((row) =>
    columns.map((col, i) => {
      const c = row[i] ?? cell('');
      const lines = c.lines
        .map(sanitizeForTerminal)
        .flatMap((l) => (col.maxWidth ? wrap(l, col.maxWidth) : [l]));
      return { lines, sgr: c.sgr };
    }),
  );
  // A reduce, not Math.max(...spread): a broker with tens of thousands of rows would
  // overflow the argument limit.
  const widths = columns.map((col, i) =>
    wrapped.reduce(
      (w, row) => row[i].lines.reduce((m, l) => Math.max(m, visibleWidth(l)), w),
      visibleWidth(col.header),
    ),
  );
  // Paint only the text, never the padding, so trailing spaces can be trimmed and a
  // coloured cell does not bleed into the gap.
  const padPaint = (text: string, i: number, sgr: string | undefined): string => {
    const isLast = i === columns.length - 1;
    const fill = ' '.repeat(widths[i] - visibleWidth(text));
    const painted = paint(text, sgr, opts.color);
    if (columns[i].align === 'right') return fill + painted;
    return isLast ? painted : painted + fill;
  };
  const join = (parts: string[]): string => (indent + parts.join(gap)).trimEnd();
  const head = [
    join(columns.map((col, i) => padPaint(col.header, i, opts.headerSgr))),
    join(columns.map((_, i) => padPaint('─'.repeat(widths[i]), i, '2'))),
  ];
  const out = wrapped.map((row) => {
    const height = row.reduce((h, c) => Math.max(h, c.lines.length), 1);
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      lines.push(join(row.map((c, i) => padPaint(c.lines[line] ?? '', i, c.sgr))));
    }
    return lines;
  });
  const widest = widths.reduce((a, w) => a + w, 0) + gap.length * (widths.length - 1) + visibleWidth(indent);
  return { head, rows: out, widest };
}
