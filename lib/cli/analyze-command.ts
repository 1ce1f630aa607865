// `koperator-audit analyze`: flags and config file → AnalysisOptions → the pipeline →
// a report on stdout (or --out). stdout carries only the report; everything else goes
// to stderr. Exit 0 whenever the analysis ran; 2 when it could not start.
import { promises as fs } from 'fs';
import { parseArgs } from 'util';
import { defaultAnalysisOptions, type AnalysisOptions } from '../analyze/options';
import { parseConfigFile, type FileConfig } from '../config/config-file';
import { parseDurationSeconds } from '../config/duration';
import { analyzeByCluster } from '../pipeline/analyze-inputs';
import { renderReport, type ReportFormat } from '../report';
import { UsageError, type CliIo } from './io';
import { createProgress } from './progress';

export const ANALYZE_HELP = `Usage: koperator-audit analyze --input PATH [--input PATH ...] [options]

Reads Kubernetes audit logs and koperator logs, rebuilds every Kafka broker pod's
states, replays koperator's diffs and explains each broker pod recreation.

Inputs
  --input PATH           a file, a folder (read recursively) or s3://bucket/prefix;
                         repeat for several. Formats are detected from the bytes.
Output
  --format FORMAT        table (default on a terminal), json (default otherwise; the
                         findings contract), markdown, or html
  --out FILE             write the report to FILE instead of stdout
Scope
  --since TIME           only recreations deleted at or after TIME (RFC 3339)
  --until TIME           only recreations deleted at or before TIME (RFC 3339)
  --namespace NS         only this namespace (repeatable)
  --cluster NAME         only this KafkaCluster (repeatable)
Rules
  --loop-min-count N     recreations that make a loop (default 3)
  --loop-max-gap DUR     longest gap inside a loop, e.g. 10m, 90s (default 10m)
  --operator-user USER   the operator's user name (repeatable; default: learned from
                         the logs as the creator of pods owned by a KafkaCluster)
  --tainted-selector K=V a label of spec.taintedBrokersSelector (repeatable)
  --config FILE          YAML file with any of: operatorUsers, taintedBrokersSelector,
                         loopMinCount, loopMaxGap, namespaces, kafkaClusters,
                         clusters ([{prefix, name}]: inputs of different
                         Kubernetes clusters are analysed apart), maxLineBytes.
                         Flags win.
Input limits
  --max-line-bytes N     longest record read; longer ones are skipped and counted
                         (default 8388608)
  --no-progress          no progress bar (it is drawn on stderr only on a terminal)
  -h, --help             this text
`;

export async function runAnalyze(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: 'string', multiple: true },
      format: { type: 'string' },
      out: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      namespace: { type: 'string', multiple: true },
      cluster: { type: 'string', multiple: true },
      'loop-min-count': { type: 'string' },
      'loop-max-gap': { type: 'string' },
      'operator-user': { type: 'string', multiple: true },
      'tainted-selector': { type: 'string', multiple: true },
      config: { type: 'string' },
      'max-line-bytes': { type: 'string' },
      'no-progress': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    io.stdout.write(ANALYZE_HELP);
    return 0;
  }
  const inputs = values.input ?? [];
  if (inputs.length === 0) throw new UsageError('analyze needs at least one --input PATH');
  const format = (values.format ?? (io.stdout.isTTY ? 'table' : 'json')) as ReportFormat;
  if (!['table', 'json', 'markdown', 'html'].includes(format)) {
    throw new UsageError(`--format must be table, json, markdown or html (got "${format}")`);
  }
  const file: FileConfig = values.config
    ? parseConfigFile(await fs.readFile(values.config, 'utf8'), values.config)
    : {};
  const opts: AnalysisOptions = { ...defaultAnalysisOptions() };
  if (file.loopMinCount) opts.loopMinCount = file.loopMinCount;
  if (file.loopMaxGapSeconds !== undefined) opts.loopMaxGapSeconds = file.loopMaxGapSeconds;
  if (file.operatorUsers) opts.operatorUsers = file.operatorUsers;
  if (file.taintedBrokersSelector) opts.taintedBrokersSelector = file.taintedBrokersSelector;
  if (file.namespaces) opts.namespaces = file.namespaces;
  if (file.kafkaClusters) opts.kafkaClusters = file.kafkaClusters;
  if (values['loop-min-count'] !== undefined) {
    const n = Number(values['loop-min-count']);
    if (!Number.isInteger(n) || n < 1) throw new UsageError('--loop-min-count must be a positive integer');
    opts.loopMinCount = n;
  }
  if (values['loop-max-gap'] !== undefined) {
    const s = parseDurationSeconds(values['loop-max-gap']);
    if (s === null)
      throw new UsageError(`--loop-max-gap "${values['loop-max-gap']}" is not a duration like 10m`);
    opts.loopMaxGapSeconds = s;
  }
  for (const t of [values.since, values.until]) {
    if (t !== undefined && Number.isNaN(Date.parse(t)))
      throw new UsageError(`"${t}" is not an RFC 3339 time`);
  }
  if (values.since) opts.since = values.since;
  if (values.until) opts.until = values.until;
  if (values.namespace) opts.namespaces = values.namespace;
  if (values.cluster) opts.kafkaClusters = values.cluster;
  if (values['operator-user']) opts.operatorUsers = values['operator-user'];
  if (values['tainted-selector']) {
    opts.taintedBrokersSelector = Object.fromEntries(
      values['tainted-selector'].map((kv) => {
        const i = kv.indexOf('=');
        if (i <= 0) throw new UsageError(`--tainted-selector "${kv}" must be KEY=VALUE`);
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
    );
  }
  let maxLineBytes = file.maxLineBytes;
  if (values['max-line-bytes'] !== undefined) {
    maxLineBytes = Number(values['max-line-bytes']);
    if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1024)
      throw new UsageError('--max-line-bytes must be an integer ≥ 1024');
  }

  const progress =
    io.stderr.isTTY && !values['no-progress']
      ? (total: number) => createProgress(io.stderr as NodeJS.WriteStream, total)
      : undefined;
  const doc = await analyzeByCluster(
    inputs,
    file.clusters,
    opts,
    { maxLineBytes },
    { s3Client: io.s3Client, progress },
  );
  const report = renderReport(doc, format, {
    color: format === 'table' && !values.out && Boolean(io.stdout.isTTY) && !process.env.NO_COLOR,
    inputs,
    generatedAt: new Date().toISOString(),
  });
  if (values.out) await fs.writeFile(values.out, report);
  else io.stdout.write(report);
  io.stderr.write(
    summaryLine(doc.summary, doc.recreations.length, doc.loops.length, doc.fights?.length ?? 0),
  );
  return 0;
}

function summaryLine(
  summary: Record<string, unknown>,
  recreations: number,
  loops: number,
  fights: number,
): string {
  const n = (k: string) => (typeof summary[k] === 'number' ? (summary[k] as number) : undefined);
  const parts = [`${recreations} recreation(s)`, `${loops} loop(s)`, `${fights} fight(s)`];
  if (n('facts') !== undefined) parts.push(`${n('facts')} fact(s)`);
  const skipped = summary.skipped;
  if (skipped && typeof skipped === 'object') {
    const total = Object.values(skipped as Record<string, unknown>).reduce<number>(
      (a, v) => a + (typeof v === 'number' ? v : 0),
      0,
    );
    if (total) parts.push(`${total} record(s) skipped (see summary.skipped)`);
  }
  // An input that could not be read at all (a listing refused, a file gone, a broken gzip) or
  // held no logs is said here too: an empty report must not look like a quiet cluster.
  const files = summary.files as Record<string, unknown> | undefined;
  const count = (k: string) => (typeof files?.[k] === 'number' ? (files[k] as number) : 0);
  if (count('errors')) parts.push(`${count('errors')} input(s) failed: ${firstFailure(summary)}`);
  if (count('foreign')) parts.push(`${count('foreign')} file(s) not logs (see summary.details)`);
  return `koperator-audit: ${parts.join(', ')}\n`;
}

/** The first whole-input failure, as `source: reason (note)`, from the summary's details. */
function firstFailure(summary: Record<string, unknown>): string {
  const details = Array.isArray(summary.details) ? (summary.details as Array<Record<string, unknown>>) : [];
  const d = details.find((x) => x.line === 0 && x.reason !== 'foreign-file');
  if (!d) return 'see summary.details';
  const note = typeof d.note === 'string' && d.note ? ` (${d.note.slice(0, 200)})` : '';
  return `${String(d.source)}: ${String(d.reason)}${note}; see summary.details`;
}
