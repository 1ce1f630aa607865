// What the report's header says about its inputs, in words: inputs that could not be read
// (summary.inputErrors), files that were not logs, files read only in part, records skipped
// inside readable files, and one line of what was read. The summary is free-form in the
// contract, so every value is read defensively; what is not understood here is still
// listed under "Every count" (page.ts), never dropped.
import type { FindingsDocument } from '../../model/findings';
import {
  dataEndOf,
  formatBytes,
  formatCount,
  formatTimestamp,
  inputErrorsOf,
  nothingRead,
  notesOf,
  plural,
  warningsOf,
} from '../format';
import { escapeHtml as h } from './escape';

/** At most this many files or places are named per note; the JSON output has them all. */
const MAX_LISTED = 12;

interface Detail {
  source: string;
  line: number;
  reason: string;
  note: string;
}

/** Words for the skip reasons and file issues of lib/ingest/stats.ts. */
const REASON_WORDS: Record<string, [one: string, many: string]> = {
  'corrupt-json': ['damaged JSON record', 'damaged JSON records'],
  'incomplete-record': ['incomplete record', 'incomplete records'],
  'line-too-long': ['line over the size limit', 'lines over the size limit'],
  'not-a-log-line': ['line in no log format', 'lines in no log format'],
  'foreign-record': [
    'JSON record that is no audit event or operator line',
    'JSON records that are no audit event or operator line',
  ],
  'missing-auditID': ['audit event without auditID', 'audit events without auditID'],
  'missing-stage': ['audit event without stage', 'audit events without stage'],
  'missing-verb': ['audit event without verb', 'audit events without verb'],
  'missing-timestamp': ['audit event without timestamp', 'audit events without timestamp'],
  'bad-ts': ['operator line with an unreadable time', 'operator lines with an unreadable time'],
  'cloudwatch-truncated': ['message CloudWatch cut short', 'messages CloudWatch cut short'],
  'open-error': ['could not be opened', 'could not be opened'],
  'read-error': ['failed while reading', 'failed while reading'],
  'gzip-truncated': ['gzip data cut short', 'gzip data cut short'],
  'gzip-corrupt': ['gzip data damaged', 'gzip data damaged'],
  'list-error': ['listing failed', 'listing failed'],
};

function reasonWords(reason: string, n: number): string {
  const w = REASON_WORDS[reason];
  return w ? w[n === 1 ? 0 : 1] : reason.replace(/-/g, ' ');
}

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function detailsOf(summary: Record<string, unknown>): Detail[] {
  const list = summary.details;
  if (!Array.isArray(list)) return [];
  return list.map((d) => {
    const o = obj(d);
    return { source: str(o.source), line: count(o.line), reason: str(o.reason), note: str(o.note) };
  });
}

function listed(items: string[], total: number): string {
  const more = total - items.length;
  return `<ul>${items.map((i) => `<li>${i}</li>`).join('')}${more > 0 ? `<li class="muted">and ${formatCount(more)} more (the JSON output lists up to 1,000)</li>` : ''}</ul>`;
}

function placeOf(d: Detail): string {
  return `<code>${h(d.source)}</code>${d.line > 0 ? `, line ${formatCount(d.line)}` : ''}`;
}

/** Whole-file faults after which what came before was still used. */
const READ_IN_PART = new Set(['gzip-truncated', 'gzip-corrupt', 'read-error']);

/** The banners and the read line of the header; empty notes are left out. */
export function inputNotes(doc: FindingsDocument): string {
  const summary = (doc.summary ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const failed = inputErrorsOf(doc);
  if (failed.length) {
    parts.push(
      `<div class="banner bad" id="input-errors" role="alert"><b>${h(plural(failed.length, 'input'))} could not be read</b>; ` +
        `this report covers only what could.` +
        listed(
          failed.slice(0, MAX_LISTED).map((e) => `<code>${h(e.input)}</code>: ${h(e.reason)}`),
          failed.length,
        ) +
        `</div>`,
    );
  }
  if (nothingRead(doc)) {
    parts.push(
      `<div class="banner bad" id="nothing-read" role="alert"><b>No audit event could be read</b> from any input: ` +
        `this is not an all-clear. The counts below are zero because nothing was seen, not because nothing happened.</div>`,
    );
  }
  const warnings = warningsOf(doc);
  if (warnings.length) {
    parts.push(
      `<div class="banner warn" id="input-warnings"><b>Warnings:</b>` +
        listed(
          warnings.slice(0, MAX_LISTED).map((w) => h(w)),
          warnings.length,
        ) +
        `</div>`,
    );
  }
  const files = obj(summary.files);
  const details = detailsOf(summary);
  // Files that could not be opened at all are input errors (above); these were cut short.
  const partial = details.filter((d) => d.line === 0 && READ_IN_PART.has(d.reason));
  if (partial.length) {
    parts.push(
      `<div class="banner warn" id="input-partial"><b>${h(plural(partial.length, 'file'))} could not be read in full</b>; what came before the fault was used.` +
        listed(
          partial
            .slice(0, MAX_LISTED)
            .map((d) => `${placeOf(d)}: ${h(reasonWords(d.reason, 1))}${d.note ? ` (${h(d.note)})` : ''}`),
          partial.length,
        ) +
        `</div>`,
    );
  }
  const foreign = details.filter((d) => d.reason === 'foreign-file');
  const notLogs = Math.max(count(files.foreign), foreign.length);
  if (notLogs) {
    parts.push(
      `<div class="banner note" id="input-foreign"><b>${h(plural(notLogs, 'file was', 'files were'))} not logs</b> and ${notLogs === 1 ? 'was' : 'were'} set aside.` +
        listed(
          foreign
            .slice(0, MAX_LISTED)
            .map((d) => `${placeOf(d)}${d.note ? `: ${h(noteWords(d.note))}` : ''}`),
          notLogs,
        ) +
        `</div>`,
    );
  }
  const skipped = Object.entries(obj(summary.skipped))
    .map(([reason, n]) => [reason, count(n)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const skippedTotal = skipped.reduce((t, [, n]) => t + n, 0);
  const places = details.filter((d) => d.line > 0);
  if (skippedTotal) {
    parts.push(
      `<div class="banner note" id="input-skipped"><b>${h(plural(skippedTotal, 'record'))} skipped</b> ` +
        `(counted, not used): ${h(skipped.map(([r, n]) => `${formatCount(n)} ${reasonWords(r, n)}`).join(', '))}.` +
        (places.length
          ? `<details><summary>Where</summary>${listed(
              places
                .slice(0, 100)
                .map(
                  (d) => `${placeOf(d)}: ${h(reasonWords(d.reason, 1))}${d.note ? ` (${h(d.note)})` : ''}`,
                ),
              places.length,
            )}</details>`
          : '') +
        `</div>`,
    );
  }
  const notes = notesOf(doc);
  if (notes.length)
    parts.push(
      `<div class="banner note" id="input-notes"><b>Notes:</b>${listed(
        notes.slice(0, MAX_LISTED).map((n) => h(n)),
        notes.length,
      )}</div>`,
    );
  const read = readLine(doc);
  if (read) parts.push(`<div class="read muted" id="input-read">${h(read)}</div>`);
  return parts.join('\n');
}

/** `not-a-log-line: text, 10 bytes` → `text, 10 bytes (line in no log format)`. */
function noteWords(note: string): string {
  const m = /^([a-z-]+): (.*)$/.exec(note);
  return m && REASON_WORDS[m[1]] ? `${m[2]} (${reasonWords(m[1], 1)})` : note;
}

/** `Read 11 files (629 KiB, 5.41 MiB uncompressed): 2,544 audit events (532 relevant), …`. */
export function readLine(doc: FindingsDocument): string {
  const summary = (doc.summary ?? {}) as Record<string, unknown>;
  const files = obj(summary.files);
  const bytes = obj(summary.bytes);
  const audit = obj(summary.audit);
  const operator = obj(summary.operator);
  const dedupe = obj(summary.dedupe);
  if (!('read' in files)) return '';
  const size = count(bytes.read)
    ? ` (${formatBytes(count(bytes.read))}${count(bytes.decompressed) > count(bytes.read) ? `, ${formatBytes(count(bytes.decompressed))} uncompressed` : ''})`
    : '';
  const what = [
    `${plural(count(audit.read), 'audit event')} (${formatCount(count(audit.kept))} relevant)`,
    plural(count(operator.read), 'operator line'),
  ];
  if (count(dedupe.duplicates)) what.push(`${plural(count(dedupe.duplicates), 'duplicate')} dropped`);
  const seconds = typeof summary.seconds === 'number' ? `, in ${summary.seconds} s` : '';
  // "Active" below is relative to this instant, not to now.
  const end = typeof summary.dataEndsAt === 'string' ? dataEndOf(doc) : null;
  const ends = end ? ` The logs end at ${formatTimestamp(end)} UTC.` : '';
  return `Read ${plural(count(files.read), 'file')}${size}: ${what.join(', ')}${seconds}.${ends}`;
}
