// Data lost inside a file that opened (a gzip cut short, a line cut or damaged, a record over
// the size limit) is no input error (exit 0, findings-contract.md), yet findings may be
// missing: it is said as a warning on top of every format, on stderr even under --quiet, and
// `--fail-on partial` fails on it.
import type { IngestStats } from '../ingest/stats';
import { formatCount, plural } from '../report/format';

/** Whole-file faults after which what came before was still used. */
const FILE_FAULTS = new Set(['gzip-truncated', 'gzip-corrupt', 'read-error']);

/** Records skipped because their bytes were lost or cut, not because they are not logs. */
const LOST_RECORDS: Record<string, string> = {
  'incomplete-record': 'cut short',
  'corrupt-json': 'damaged',
  'line-too-long': 'over the size limit (--max-line-bytes)',
  'cloudwatch-truncated': 'cut by CloudWatch',
};

/** The text every warning of a partial read starts with, so a reader can find it. */
export const PARTIAL_READ = 'read in part';

/** The warning, or null when every file that opened was read whole. */
export function partialReadWarning(stats: Pick<IngestStats, 'skipped' | 'details'>): string | null {
  const files = [
    ...new Set(stats.details.filter((d) => d.line === 0 && FILE_FAULTS.has(d.reason)).map((d) => d.source)),
  ];
  const skipped = (stats.skipped ?? {}) as Record<string, number>;
  const records = Object.entries(LOST_RECORDS)
    .filter(([reason]) => (skipped[reason] ?? 0) > 0)
    .map(([reason, words]) => `${formatCount(skipped[reason])} ${words}`);
  if (files.length === 0 && records.length === 0) return null;
  const parts: string[] = [];
  if (files.length)
    parts.push(
      `${plural(files.length, 'file')} stopped part way (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`,
    );
  if (records.length) parts.push(`records skipped: ${records.join(', ')}`);
  return `${PARTIAL_READ}: ${parts.join('; ')}; findings in the lost data are missing (see summary.details)`;
}
