// Entry point of the report sinks: one pure function from the findings to the text of
// a report, so the CLI, the Lambda and the tests all render the same way.
import type { FindingsDocument } from '../model/findings';
import { renderHtml } from './html/page';
import { renderJson } from './json';
import { renderMarkdown } from './markdown';
import type { Section } from './sections';
import { renderTable } from './table';

export type ReportFormat = 'json' | 'table' | 'markdown' | 'html';

export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'table', 'markdown', 'html'];

export interface RenderOptions {
  /** ANSI colours in the table view; the CLI passes stdout.isTTY && !NO_COLOR. Other formats ignore it. */
  color: boolean;
  /** The input paths as given, shown in the report header and summary. */
  inputs?: string[];
  /** When the report was made; passed in (not read from the clock) so output is reproducible. */
  generatedAt?: string;
  /** Where the HTML report will live, linked from the Markdown (http/https only). */
  reportUrl?: string;
  /** Columns the table view fits (the terminal's width); others ignore it. */
  width?: number;
  /** The table's and Markdown's sections to print (`--only`); all when absent. JSON and HTML ignore it. */
  only?: readonly Section[];
}

export function isReportFormat(value: string): value is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(value);
}

export function renderReport(doc: FindingsDocument, format: ReportFormat, opts: RenderOptions): string {
  switch (format) {
    case 'json':
      return renderJson(doc);
    case 'table':
      return renderTable(doc, opts);
    case 'markdown':
      return renderMarkdown(doc, opts);
    case 'html':
      return renderHtml(doc, opts);
    default: {
      const never: never = format;
      throw new Error(`unknown report format: ${String(never)}`);
    }
  }
}
