// What ingestion read, kept and skipped, as plain JSON so the CLI can print it, the
// Lambda can log it and two runs (or two Lambda invocations) can be added together.
// Every record that is not emitted is counted somewhere here: nothing is dropped silently.
import type { FormatName } from '../model/record';
import { laterTime } from '../analyze/newest-event';

/** Why a line or record was not turned into a LogRecord. */
export type SkipReason =
  /** JSON.parse rejected it (damaged line, stray bytes). */
  | 'corrupt-json'
  /** Cut short: a raw newline inside a JSON string, a new record starting mid-record, or end of file. */
  | 'incomplete-record'
  /** Longer than `maxLineBytes`; skipped without being buffered. */
  | 'line-too-long'
  /** A text line in none of the known line formats (includes NUL/binary junk). */
  | 'not-a-log-line'
  /** Valid JSON, but neither an audit event, a wrapper of one, nor a zap line. */
  | 'foreign-record'
  | 'missing-auditID'
  | 'missing-stage'
  | 'missing-verb'
  | 'missing-timestamp'
  /** A zap line whose `ts` is neither ISO 8601 nor an epoch number. */
  | 'bad-ts'
  /** A CloudWatch message cut by CloudWatch itself (`[Truncated...]` suffix). */
  | 'cloudwatch-truncated';

/** Why a whole file was set aside or only partly read. */
export type FileIssue =
  'open-error' | 'read-error' | 'gzip-truncated' | 'gzip-corrupt' | 'foreign-file' | 'list-error';

export interface SkipDetail {
  source: string;
  /** 1-based line of the record (0 when the issue concerns the whole file). */
  line: number;
  reason: SkipReason | FileIssue;
  /** Free text: the error message, or what a foreign file looked like. */
  note?: string;
}

export interface IngestStats {
  files: {
    /** Objects opened (one that could not be opened is an input error, not a file read). */
    read: number;
    /** No bytes, or only whitespace, after decompression. */
    empty: number;
    /** Not empty, yet not one audit event or operator line in it (binary, text, other JSON). */
    foreign: number;
    /** Could not be opened, or failed part way (truncated or corrupt gzip, I/O error). */
    errors: number;
  };
  bytes: {
    /** As stored (compressed). */
    read: number;
    /** After decompression: what the framer scanned. */
    decompressed: number;
  };
  /**
   * Audit events and operator lines read, per container format, before relevance filtering.
   * Events the byte pre-filter dropped unparsed are attributed to the format of the last
   * audit event parsed from the same file.
   */
  records: Partial<Record<FormatName, number>>;
  audit: {
    /** Every audit event seen, including duplicates and those dropped unparsed by the byte pre-filter. */
    read: number;
    /** Emitted by readObject (before de-duplication). */
    kept: number;
    /** Not about pods, KafkaCluster or ConfigMap writes. */
    irrelevant: number;
    /** Relevant, but rejected by the caller's `keep`. */
    excluded: number;
    /**
     * Events about pods (any verb, any subresource): every one parsed, and of those dropped
     * unparsed only the first of each object, so a lower bound. Zero means the logs never
     * name a pod: the wrong log stream, or an audit policy that leaves pods out.
     */
    aboutPods: number;
  };
  operator: { read: number; kept: number; excluded: number };
  /**
   * The newest requestReceivedTimestamp of any audit event read, of any stage, kept or not
   * (null before the first): the end of the data that "active" is judged against.
   */
  newestEventAt: string | null;
  /**
   * newestEventAt per CloudWatch Logs log group, for events read from subscription payloads
   * that name one (absent otherwise): an object of a shared delivery stream holds many
   * clusters, and each cluster's end of data is its own.
   */
  newestByLogGroup?: Record<string, string>;
  /** CloudWatch Logs CONTROL_MESSAGE payloads (Firehose health checks), dropped. */
  controlMessages: number;
  dedupe: {
    /** Exact (auditID, stage) repeats, across files and formats. */
    duplicates: number;
    /** RequestReceived events not emitted because their request's ResponseComplete was seen. */
    requestReceivedSuperseded: number;
    /** RequestReceived events emitted because no ResponseComplete of their auditID was ever seen. */
    requestReceivedEmitted: number;
  };
  /** Records and lines skipped, by reason (inside foreign files too). */
  skipped: Partial<Record<SkipReason, number>>;
  /** Where things were skipped or failed, capped per file and overall; see `detailsOmitted`. */
  details: SkipDetail[];
  detailsOmitted: number;
}

/** At most this many details overall... */
export const MAX_DETAILS = 1000;
/** ...and this many per file, so one damaged file cannot hide the others. */
export const MAX_DETAILS_PER_FILE = 20;

export function createIngestStats(): IngestStats {
  return {
    files: { read: 0, empty: 0, foreign: 0, errors: 0 },
    bytes: { read: 0, decompressed: 0 },
    records: {},
    audit: { read: 0, kept: 0, irrelevant: 0, excluded: 0, aboutPods: 0 },
    operator: { read: 0, kept: 0, excluded: 0 },
    newestEventAt: null,
    controlMessages: 0,
    dedupe: { duplicates: 0, requestReceivedSuperseded: 0, requestReceivedEmitted: 0 },
    skipped: {},
    details: [],
    detailsOmitted: 0,
  };
}

function addCounts<K extends string>(
  into: Partial<Record<K, number>>,
  from: Partial<Record<K, number>>,
): void {
  for (const key of Object.keys(from) as K[]) {
    into[key] = (into[key] ?? 0) + (from[key] ?? 0);
  }
}

function addFields<T extends object>(into: T, from: T): void {
  for (const key of Object.keys(from) as (keyof T)[]) {
    (into[key] as number) += from[key] as number;
  }
}

/** Adds `from` into `into` (details stay capped at MAX_DETAILS). */
export function mergeIngestStats(into: IngestStats, from: IngestStats): void {
  addFields(into.files, from.files);
  addFields(into.bytes, from.bytes);
  addCounts(into.records, from.records);
  addFields(into.audit, from.audit);
  addFields(into.operator, from.operator);
  into.newestEventAt = laterTime(into.newestEventAt, from.newestEventAt);
  if (from.newestByLogGroup) {
    const by = (into.newestByLogGroup ??= {});
    for (const [g, t] of Object.entries(from.newestByLogGroup)) by[g] = laterTime(by[g] ?? null, t)!;
  }
  into.controlMessages += from.controlMessages;
  addFields(into.dedupe, from.dedupe);
  addCounts(into.skipped, from.skipped);
  into.detailsOmitted += from.detailsOmitted;
  for (const d of from.details) addDetail(into, d);
}

/** Records a detail, or counts it as omitted once the cap is reached. */
export function addDetail(stats: IngestStats, detail: SkipDetail): void {
  if (stats.details.length < MAX_DETAILS) stats.details.push(detail);
  else stats.detailsOmitted++;
}
