// `koperator-audit analyze` (or `analyse`): flags and config file → options → the
// pipeline → a report on stdout (or --out). stdout carries only the report; everything
// else goes to stderr: one line per input that could not be read, warnings, and a last
// line of counts. The exit status says whether every input was read (EXIT in exit-codes.ts).
import { parseNifikopVersion } from '../nifikop/versions';
import { createWriteStream, promises as fs } from 'fs';
import { once } from 'events';
import { availableParallelism } from 'os';
import { defaultAnalysisOptions } from '../analyze/options';
import { ConfigError, parseConfigFile, type FileConfig } from '../config/config-file';
import { parseDurationSeconds, parsePositiveDuration } from '../config/duration';
import { RecreationSpool, SpoolError } from '../analyze/recreation-spool';
import { spoolByCluster, type PipelineOptions, type SpooledFindings } from '../pipeline/analyze-inputs';
import { renderReport, type ReportFormat } from '../report';
import { parseSections, SECTIONS, type Section } from '../report/sections';
import { writeJson } from '../report/json-stream';
import { formatCount, nothingRead, plural } from '../report/format';
import { describeInputError, inputErrorLine } from '../sources/input-errors';
import { PARTIAL_READ } from '../pipeline/partial-read';
import { EXIT, EXIT_CODES_HELP } from './exit-codes';
import { parseFlags } from './flags';
import { CommandError, UsageError, type CliIo } from './io';
import { cpuQuota } from './cpu-quota';
import { createProgress } from './progress';
import { reportWidth } from './terminal';

export const ANALYZE_HELP = `Usage: koperator-audit analyze -f PATH [-f PATH ...] [options]
       koperator-audit analyse ...   (the same command)

Reads Kubernetes audit logs and koperator logs, rebuilds every Kafka broker pod's
states, replays koperator's diffs and explains each broker pod recreation.

Inputs
  -f, --input PATH       a file, a folder (read recursively), s3://bucket/prefix, or -
                         for standard input; repeat for several. Formats are detected
                         from the bytes. (-f as in kubectl's -f/--filename)
  --region REGION        AWS region of the s3:// inputs (default: AWS_REGION)
Output
  -o, --format FORMAT    table (default on a terminal), json (default otherwise; the
                         findings contract), markdown, or html
  --only SECTIONS        table and markdown: print only these sections, comma-separated:
                         ${SECTIONS.join(', ')} (failed inputs and warnings always show)
  --out FILE             write the report to FILE instead of stdout
  --fail-on WHAT         exit 1 when the findings hold WHAT: active-loop, loop,
                         revert (an external-mutation revert), any (any recreation),
                         or blind (audit events were read, but none about pods, or
                         pod writes only at Metadata level), or partial (data
                         lost inside a file: a gzip cut short, a cut or damaged
                         line, a record over --max-line-bytes); repeatable or
                         comma-separated. The condition matched is named on
                         stderr, also under --quiet
  -q, --quiet            no progress, warnings or counts on stderr; input errors,
                         data lost inside a file and a --fail-on match are still
                         printed
Scope
  --since TIME           only recreations deleted at or after TIME: RFC 3339, or a
                         duration (2h, 30m) back from the end of the logs (the newest
                         event read, not the clock)
  --until TIME           only recreations deleted at or before TIME (RFC 3339)
  -n, --namespace NS     only this namespace (repeatable)
  --cluster NAME         only this KafkaCluster (repeatable)
Rules
  --loop-min-count N     recreations that make a loop (default 3)
  --loop-max-gap DUR     longest gap inside a loop, with a unit: 10m, 90s (default 10m)
  --operator-user USER   the operator's user name (repeatable; default: learned from
                         the logs as the creator of pods owned by a KafkaCluster)
  --tainted-selector K=V a label of spec.taintedBrokersSelector (repeatable)
  --nifikop-version V    NiFiKop's version (1.14.0): its node pods are replayed with
                         that version's steps (default: its Deployment's image tag
                         in the audit log, else its newest; findings say which)
  --autoscaler-user USER a user whose in-place resizes of broker pods are an
                         autoscaler's: live drift severity autoscaler, not alerted
                         (repeatable; the VPA updater's service account always is)
  --config FILE          YAML file with any of: operatorUsers, autoscalerUsers,
                         taintedBrokersSelector,
                         loopMinCount, loopMaxGap, namespaces, kafkaClusters,
                         clusters ([{prefix, name}]: inputs of different
                         Kubernetes clusters are analysed apart), maxLineBytes.
                         Flags win.
Input limits
  --max-line-bytes N     longest record read; longer ones are skipped and counted
                         (default 8388608)
  --workers N            threads reading inputs at once, one file each: this one
                         and N - 1 workers (default: the cores available, no more
                         than a container's CPU quota, at most 8; 1 when reading
                         standard input). The findings do not depend on it
  --no-progress          no progress bar (it is drawn on stderr only on a terminal)
  --debug                print the stack of an unexpected error
  -h, --help             this text

The table fits the terminal's width (COLUMNS when stdout is not a terminal, else 100).

${EXIT_CODES_HELP}`;

const FAIL_ON = ['active-loop', 'loop', 'revert', 'any', 'blind', 'partial'] as const;
type FailOn = (typeof FAIL_ON)[number];

export async function runAnalyze(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    options: {
      input: { type: 'string', multiple: true, short: 'f' },
      region: { type: 'string' },
      format: { type: 'string', short: 'o' },
      only: { type: 'string', multiple: true },
      out: { type: 'string' },
      'fail-on': { type: 'string', multiple: true },
      quiet: { type: 'boolean', short: 'q' },
      since: { type: 'string' },
      until: { type: 'string' },
      namespace: { type: 'string', multiple: true, short: 'n' },
      cluster: { type: 'string', multiple: true },
      'loop-min-count': { type: 'string' },
      'loop-max-gap': { type: 'string' },
      'operator-user': { type: 'string', multiple: true },
      'nifikop-version': { type: 'string' },
      'tainted-selector': { type: 'string', multiple: true },
      'autoscaler-user': { type: 'string', multiple: true },
      config: { type: 'string' },
      'max-line-bytes': { type: 'string' },
      'no-progress': { type: 'boolean' },
      workers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout.write(ANALYZE_HELP);
    return EXIT.ok;
  }
  const inputs = values.input ?? [];
  if (inputs.length === 0) throw new UsageError('analyze needs at least one -f/--input PATH');
  if (inputs.filter((i) => i === '-').length > 1)
    throw new UsageError('--input - (standard input) can be given once');
  const format = (values.format ?? (io.stdout.isTTY ? 'table' : 'json')) as ReportFormat;
  if (!['table', 'json', 'markdown', 'html'].includes(format)) {
    throw new UsageError(`--format must be table, json, markdown or html (got "${format}")`);
  }
  const only = onlySections(values.only, format);
  const failOn = parseFailOn(values['fail-on'] ?? []);
  const file = values.config ? await readConfig(values.config) : {};
  const opts = analysisOptions(values, file);
  let maxLineBytes = file.maxLineBytes;
  if (values['max-line-bytes'] !== undefined) {
    maxLineBytes = Number(values['max-line-bytes']);
    if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1024)
      throw new UsageError('--max-line-bytes must be an integer ≥ 1024');
  }

  const workers = workerCount(values.workers, inputs);
  const quiet = Boolean(values.quiet);
  // `--input -` typed at a prompt would otherwise wait in silence.
  if (inputs.includes('-') && (io.stdin as { isTTY?: boolean }).isTTY)
    io.stderr.write('koperator-audit: reading logs from standard input (end with Ctrl-D)\n');
  const progress =
    io.stderr.isTTY && !values['no-progress'] && !quiet
      ? (total: number) => createProgress(io.stderr as NodeJS.WriteStream, total)
      : undefined;
  const region = values.region;
  // Recreations go to a temporary file as they are found and are read back one at a time.
  const spool = openSpool();
  try {
    const doc = await spoolByCluster(
      inputs,
      file.clusters,
      opts,
      { maxLineBytes },
      {
        s3Client: io.s3Client ? () => io.s3Client!({ region }) : undefined,
        progress,
        stdin: io.stdin,
        parallel: io.ingestWorker ? { workers, script: io.ingestWorker } : undefined,
      },
      spool,
    );
    await writeReport(doc, format, { out: values.out, inputs, only }, io);
    const errors = doc.summary.inputErrors ?? [];
    for (const e of errors) io.stderr.write(`koperator-audit: cannot read ${inputErrorLine(e)}\n`);
    // Like an input error, said even under --quiet: a run that saw nothing is no all-clear.
    if (quiet && nothingRead(doc))
      io.stderr.write(
        'koperator-audit: no audit event could be read from any input: this is not an all-clear\n',
      );
    for (const w of (doc.summary.warnings as string[] | undefined) ?? [])
      // Lost data is said like an input error: findings may be missing.
      if (!quiet || w.includes(PARTIAL_READ)) io.stderr.write(`koperator-audit: warning: ${w}\n`);
    if (!quiet) io.stderr.write(summaryLine(doc));
    const matched = failOn.filter((f) => matches(doc, f));
    if (matched.length)
      io.stderr.write(
        `koperator-audit: --fail-on ${matched.join(',')} matched: ${matched.map(failOnWords).join('; ')}\n`,
      );
    return exitStatus(doc, failOn);
  } catch (e) {
    throw e instanceof SpoolError ? spoolFailed(e) : e;
  } finally {
    spool.close();
  }
}

/**
 * Reading is split by file, so more threads than cores only compete; standard input is one
 * stream, which one thread reads as fast as several. Each worker holds ~60-80 MB and the one
 * main thread merges what they all read: past a few workers the merge is the limit, so a
 * large machine's every core would cost memory for nothing.
 */
const DEFAULT_MAX_WORKERS = 8;

/**
 * Readers by default: the cores available, no more than a CPU quota's whole CPUs (a fraction
 * of one more would be shared by every reader: cpu-quota.ts), at most DEFAULT_MAX_WORKERS.
 */
export function defaultWorkers(cores: number, quota: number | null): number {
  const allowed = quota === null ? cores : Math.min(cores, Math.floor(quota));
  return Math.max(1, Math.min(DEFAULT_MAX_WORKERS, allowed));
}

function workerCount(flag: string | undefined, inputs: readonly string[]): number {
  if (flag === undefined)
    return inputs.includes('-') ? 1 : defaultWorkers(availableParallelism(), cpuQuota());
  const n = Number(flag);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(`--workers must be an integer from 1 to 256 (got "${flag}")`);
  return n;
}

function openSpool(): RecreationSpool {
  try {
    return new RecreationSpool();
  } catch (e) {
    throw e instanceof SpoolError ? spoolFailed(e) : e;
  }
}

function spoolFailed(e: SpoolError): CommandError {
  const hint = e.message.includes('TMPDIR') ? '' : ' (set TMPDIR to a folder with room)';
  return new CommandError(`${e.message}${hint}`, EXIT.internal);
}

/**
 * JSON is written as the spool is read (the contract's bytes, a recreation at a time). The
 * other views group recreations by broker and measure columns over all of them, so they
 * are given the recreations read back into an array.
 */
async function writeReport(
  doc: SpooledFindings,
  format: ReportFormat,
  { out, inputs, only }: { out?: string; inputs: string[]; only?: Section[] },
  io: CliIo,
): Promise<void> {
  if (format === 'json') {
    if (!out) return writeJson(doc, io.stdout);
    const file = createWriteStream(out);
    // A failed write is reported once, as the callback's error; the stream's own later
    // 'error' event must not end the process on top of it.
    file.on('error', () => undefined);
    try {
      await once(file, 'open');
      await writeJson(doc, file);
      file.end();
      await once(file, 'finish');
    } catch (e) {
      file.destroy();
      throw new UsageError(`--out ${out}: ${describeInputError(e)}`);
    }
    return;
  }
  const toTerminal = !out && Boolean(io.stdout.isTTY);
  const report = renderReport({ ...doc, recreations: doc.recreations.toArray() }, format, {
    color: format === 'table' && toTerminal && !process.env.NO_COLOR,
    inputs,
    generatedAt: new Date().toISOString(),
    width: reportWidth(toTerminal ? io.stdout : undefined, process.env),
    only,
  });
  if (out) {
    try {
      await fs.writeFile(out, report);
    } catch (e) {
      throw new UsageError(`--out ${out}: ${describeInputError(e)}`);
    }
  } else io.stdout.write(report);
}

/**
 * 1 when --fail-on matched (a finding in what was read is certain), else 4 when no input or
 * no audit event could be read, 3 when some inputs failed, else 0.
 */
export function exitStatus(doc: SpooledFindings, failOn: FailOn[]): number {
  if (failOn.some((f) => matches(doc, f))) return EXIT.matched;
  if (doc.summary.blind === 'no-audit-events') return EXIT.noInputRead;
  const errors = doc.summary.inputErrors ?? [];
  if (errors.length === 0) return EXIT.ok;
  return Number(doc.summary.inputsOpened ?? 0) === 0 ? EXIT.noInputRead : EXIT.someInputsFailed;
}

function matches(doc: SpooledFindings, what: FailOn): boolean {
  switch (what) {
    case 'active-loop':
      return doc.loops.some((l) => l.active);
    case 'loop':
      return doc.loops.length > 0;
    case 'revert':
      return doc.recreations.count('external-mutation-revert') > 0;
    case 'any':
      return doc.recreations.length > 0 || doc.loops.length > 0 || (doc.fights?.length ?? 0) > 0;
    case 'blind':
      return doc.summary.blind === 'no-pod-events' || doc.summary.blind === 'metadata-only';
    case 'partial':
      return doc.summary.partial === true;
  }
}

/** What a matched --fail-on condition found, for the stderr line that names it. */
function failOnWords(what: FailOn): string {
  switch (what) {
    case 'active-loop':
      return 'a loop still active at the end of the logs';
    case 'loop':
      return 'a recreation loop';
    case 'revert':
      return 'an external-mutation revert';
    case 'any':
      return 'a recreation, loop or fight';
    case 'blind':
      return 'the logs cannot show a recreation (summary.blind)';
    case 'partial':
      return 'data lost inside a file (summary.warnings)';
  }
}

/** --only: the table's and the Markdown's sections; the other formats are whole documents. */
function onlySections(values: string[] | undefined, format: ReportFormat): Section[] | undefined {
  if (!values) return undefined;
  if (format !== 'table' && format !== 'markdown')
    throw new UsageError(
      `--only applies to -o table and -o markdown (the ${format} report is one whole document)`,
    );
  const parsed = parseSections(values);
  if ('error' in parsed) throw new UsageError(`--only ${parsed.error}`);
  return parsed.sections;
}

function parseFailOn(values: string[]): FailOn[] {
  const out: FailOn[] = [];
  for (const v of values.flatMap((x) => x.split(','))) {
    const t = v.trim();
    if (!(FAIL_ON as readonly string[]).includes(t))
      throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')} (got "${t}")`);
    out.push(t as FailOn);
  }
  return out;
}

async function readConfig(file: string): Promise<FileConfig> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UsageError(`--config ${file}: ${why}`);
  }
  try {
    return parseConfigFile(text, file);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

type Flags = Record<string, string | string[] | boolean | undefined>;

function analysisOptions(values: Flags, file: FileConfig): PipelineOptions {
  const str = (k: string) => values[k] as string | undefined;
  const list = (k: string) => values[k] as string[] | undefined;
  const opts: PipelineOptions = { ...defaultAnalysisOptions() };
  if (file.loopMinCount) opts.loopMinCount = file.loopMinCount;
  if (file.loopMaxGapSeconds !== undefined) opts.loopMaxGapSeconds = file.loopMaxGapSeconds;
  if (file.operatorUsers) opts.operatorUsers = file.operatorUsers;
  if (file.autoscalerUsers) opts.autoscalerUsers = file.autoscalerUsers;
  if (file.taintedBrokersSelector) opts.taintedBrokersSelector = file.taintedBrokersSelector;
  if (file.namespaces) opts.namespaces = file.namespaces;
  if (file.kafkaClusters) opts.kafkaClusters = file.kafkaClusters;
  const minCount = str('loop-min-count');
  if (minCount !== undefined) {
    const n = Number(minCount);
    if (!Number.isInteger(n) || n < 1) throw new UsageError('--loop-min-count must be a positive integer');
    opts.loopMinCount = n;
  }
  const maxGap = str('loop-max-gap');
  if (maxGap !== undefined) {
    const gap = parsePositiveDuration(maxGap);
    if ('error' in gap) throw new UsageError(`--loop-max-gap "${maxGap}" ${gap.error}`);
    opts.loopMaxGapSeconds = gap.seconds;
  }
  const since = str('since');
  if (since !== undefined) {
    const back = parseDurationSeconds(since);
    if (back !== null) opts.sinceSeconds = back;
    else if (Number.isNaN(Date.parse(since)))
      throw new UsageError(`--since "${since}" is neither an RFC 3339 time nor a duration like 2h or 30m`);
    else opts.since = since;
  }
  const until = str('until');
  if (until !== undefined) {
    if (Number.isNaN(Date.parse(until))) throw new UsageError(`--until "${until}" is not an RFC 3339 time`);
    opts.until = until;
  }
  if (list('namespace')) opts.namespaces = list('namespace');
  if (list('cluster')) opts.kafkaClusters = list('cluster');
  if (list('operator-user')) opts.operatorUsers = list('operator-user');
  if (list('autoscaler-user')) opts.autoscalerUsers = list('autoscaler-user');
  const nifikop = str('nifikop-version');
  if (nifikop !== undefined) {
    if (parseNifikopVersion(nifikop) === null)
      throw new UsageError(`--nifikop-version "${nifikop}" is not a version like 1.15.0`);
    opts.operatorVersions = { ...opts.operatorVersions, nifikop };
  }
  const tainted = list('tainted-selector');
  if (tainted) {
    opts.taintedBrokersSelector = Object.fromEntries(
      tainted.map((kv) => {
        const i = kv.indexOf('=');
        if (i <= 0) throw new UsageError(`--tainted-selector "${kv}" must be KEY=VALUE`);
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
    );
  }
  return opts;
}

/**
 * The last stderr line, e.g. `2,983 recreations, 115 loops (1 active) in 4.7 s; 748,838
 * events read; 0 inputs failed`, then what was skipped, so a partial read is never quiet.
 */
export function summaryLine(doc: SpooledFindings): string {
  const s = doc.summary;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  const audit = s.audit as { read?: number } | undefined;
  const operator = s.operator as { read?: number } | undefined;
  const events = num(audit?.read) + num(operator?.read);
  const active = doc.loops.filter((l) => l.active).length;
  const fights = doc.fights ?? [];
  const failed = (s.inputErrors ?? []).length;
  // A downscale's deletion is in `recreations` (the contract) but re-created nothing.
  const removed = doc.recreations.removals();
  const recreated = plural(doc.recreations.length - removed, 'recreation');
  const deletions = removed
    ? `${plural(doc.recreations.length, 'deletion')}: ${recreated}, ${plural(removed, 'broker')} removed (downscale);`
    : `${recreated},`;
  const parts = [
    `${deletions} ${plural(doc.loops.length, 'loop')} (${formatCount(active)} active), ` +
      `${plural(fights.length, 'fight')} (${formatCount(fights.filter((f) => f.active).length)} active) in ${num(s.seconds).toFixed(1)} s`,
    `${plural(events, 'event')} read`,
    `${plural(failed, 'input')} failed`,
  ];
  const skipped = Object.values((s.skipped as Record<string, unknown> | undefined) ?? {}).reduce<number>(
    (a, v) => a + num(v),
    0,
  );
  const files = (s.files as Record<string, unknown> | undefined) ?? {};
  // Files that opened but broke part way (a truncated gzip): read, counted, not input errors.
  const damaged = num(files.errors) - num(s.inputsFailedToOpen);
  const extra: string[] = [];
  if (skipped) extra.push(`${plural(skipped, 'record')} skipped (see summary.skipped)`);
  if (damaged > 0) extra.push(`${plural(damaged, 'file')} read only in part (see summary.details)`);
  if (num(files.foreign)) extra.push(`${plural(num(files.foreign), 'file')} not logs (see summary.details)`);
  return `koperator-audit: ${[...parts, ...extra].join('; ')}\n`;
}
