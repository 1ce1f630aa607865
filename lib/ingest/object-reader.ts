// Reads one object's plain bytes into LogRecords: receives frames from the Framer,
// recognises each container by its shape (never by the file name), unwraps it, keeps
// what the analysis needs and counts everything else. One instance per object: it also
// holds the object's partial-line state and decides, at the end, whether the object was
// empty or foreign.
import type { AuditEvent } from '../model/audit';
import type { FormatName, LogRecord } from '../model/record';
import type { DecompressEvents } from './decompress';
import { ByteVerdict, judgeAuditBytes, judgeEscapedAuditBytes, judgedResourceIsPods } from './byte-relevance';
import { laterTime } from '../analyze/newest-event';
import { utcMicros } from '../analyze/time';
import { irrelevantEvents, isRelevantAuditEvent, lacksRelevantWords, ONE_GKE_ENTRY } from './filter';
import { Framer, type FrameSink } from './framing';
import { decodeUtf8 } from './text';
import { isAuditShaped, toAuditEvent } from './formats/audit-event';
import { gkeEntryToAuditObject, isKubernetesEntry } from './formats/gke';
import { looksLikeCwlPayload, scanCwlPayload, type CwlPayloadScan } from './formats/firehose-cwl';
import { isObject, str, type JsonObject } from './formats/json';
import { PartialLines, type Joined } from './formats/partial-lines';
import { criHead, timestampEnd, type CriHead } from './formats/timestamped-line';
import { isZapShaped, toOperatorLine } from './formats/zap';
import {
  addDetail,
  MAX_DETAILS_PER_FILE,
  type FileIssue,
  type IngestStats,
  type SkipDetail,
  type SkipReason,
} from './stats';

export interface ReaderOptions {
  maxLineBytes: number;
  keep?: (rec: LogRecord) => boolean;
  /** False: keep every audit event, relevant or not (no byte pre-filter either). */
  relevantOnly: boolean;
}

/**
 * Where a JSON value was found; decides the format name of a bare event or zap line in it.
 * Containers (EventList, CloudWatch payload, GKE entry, AKS record, Fluent Bit record)
 * are recognised at every level, so wrappers of wrappers unwrap too.
 */
type Via = 'top' | 'array' | 'eks-export' | 'cri' | 'cwl' | 'aks' | 'fluent-bit';

const AUDIT_FORMAT: Record<Exclude<Via, 'top'>, FormatName> = {
  array: 'audit-eventlist',
  'eks-export': 'eks-cloudwatch-export',
  cri: 'cri',
  cwl: 'eks-firehose-cwl',
  aks: 'aks-diagnostic',
  'fluent-bit': 'fluent-bit',
};
const OPERATOR_FORMAT: Record<Exclude<Via, 'top'>, FormatName> = {
  array: 'zap-json',
  'eks-export': 'zap-json',
  cri: 'cri',
  cwl: 'eks-firehose-cwl',
  aks: 'aks-diagnostic',
  'fluent-bit': 'fluent-bit-operator',
};

/** Wrappers within wrappers (arrays, Fluent Bit, AKS, CloudWatch) unwrapped at most this deep. */
const MAX_UNWRAP = 8;

const LBRACE = 0x7b;
const LBRACK = 0x5b;
const PARTIAL_FLAG = '"_p":"P"';

const RECEIVED_KEY = '"requestReceivedTimestamp":"';
const RECEIVED_KEY_BYTES = Buffer.from(RECEIVED_KEY);
/** The same key inside a JSON string (a CloudWatch message): every quote is `\"`. */
const ESCAPED_RECEIVED_KEY = RECEIVED_KEY.replace(/"/g, '\\"');
const ESCAPED_RECEIVED_KEY_BYTES = Buffer.from(ESCAPED_RECEIVED_KEY);
/** A GKE LogEntry's own time, which stands for requestReceivedTimestamp (formats/gke.ts). */
const GKE_TIME_KEY = '"timestamp":"';
/** kube-apiserver writes requestReceivedTimestamp after the bodies: looked for from the end. */
const RECEIVED_TAIL_BYTES = 2048;

/**
 * An audit event about pods, as its text shows it plainly or escaped in a JSON string
 * (`\"resource\":\"pods\"`), or a GKE method name (`io.k8s.core.v1.pods.list`).
 */
const POD_EVENT_TEXT = /"resource\\*"\s*:\s*\\*"pods\\*"|\.v1\.pods\./;

/** Formats whose one record may hold many events (the byte pre-filter then counts them). */
const MULTI_EVENT: ReadonlySet<FormatName> = new Set(['audit-eventlist', 'eks-firehose-cwl']);

/** First bytes of a binary file: many control characters (NUL, ...) that text never has. */
function looksBinary(chunk: Buffer): boolean {
  let i = 0;
  // NUL padding before the first record (a crashed writer) is not a sign of binary data.
  while (i < chunk.length && (chunk[i] === 0 || chunk[i] === 0x0a || chunk[i] === 0x20)) i++;
  const end = Math.min(chunk.length, i + 4096);
  if (end - i < 16) return false;
  let control = 0;
  for (let j = i; j < end; j++) {
    const b = chunk[j];
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b) || b === 0x7f) control++;
  }
  return control / (end - i) > 0.1;
}

/**
 * What a skipped line was, without its content: the run summary leaves the process (JSON
 * report, S3) and a damaged line of an audit log can start in the middle of a Secret's
 * data. Source and line number say where to look.
 */
function excerpt(buf: Buffer, start: number, end: number): string {
  const slice = buf.subarray(start, Math.min(end, start + 80));
  for (const b of slice) if (b === 0) return 'NUL bytes';
  const first = buf[start];
  const shape = first === 0x7b || first === 0x5b ? 'damaged JSON' : 'text';
  return `${shape}, ${end - start} bytes`;
}

function describeKeys(v: JsonObject): string {
  const keys = Object.keys(v).slice(0, 6);
  return `JSON object with keys ${JSON.stringify(keys)}`;
}

export class ObjectReader implements FrameSink, DecompressEvents {
  /** Records ready for the caller; taken with takeOut(). */
  private out: LogRecord[] = [];
  private readonly framer: Framer;
  private readonly cri: PartialLines;
  private readonly fluent: PartialLines;
  /** Format of the last audit event parsed here; until one is, nothing is pre-filtered. */
  private lastAuditFormat: FormatName | null = null;
  /**
   * An event about pods was seen in this object: events dropped unparsed are looked at for
   * one only until then, so telling a stream that names no pod costs nothing on the rest.
   */
  private podSeen = false;
  /** The newest requestReceivedTimestamp read, as written, and its value for comparing. */
  private newest: string | null = null;
  private newestMs = -Infinity;
  /**
   * The log group of the CloudWatch payload being read, null outside one: its records carry
   * it (one shared Firehose stream delivers many clusters' log groups into one object).
   */
  private logGroup: string | null = null;
  private logRecords = 0;
  private controlSeen = 0;
  private skips = 0;
  private firstSkip: string | null = null;
  private decompressed = 0;
  private sniffed = false;
  private hadError = false;
  private foreignWhy: string | null = null;
  private readonly details: SkipDetail[] = [];
  private omitted = 0;
  /** Set when reading should stop: the object is binary or an unsupported archive. */
  abandoned = false;
  /** How many wrappers deep value() is (see MAX_UNWRAP). */
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly stats: IngestStats,
    private readonly opts: ReaderOptions,
  ) {
    this.framer = new Framer(this, opts.maxLineBytes);
    this.cri = new PartialLines(opts.maxLineBytes);
    this.fluent = new PartialLines(opts.maxLineBytes);
  }

  takeOut(): LogRecord[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  push(chunk: Buffer): void {
    this.decompressed += chunk.length;
    if (!this.sniffed) {
      this.sniffed = true;
      if (looksBinary(chunk)) {
        this.foreignWhy = 'binary data';
        this.abandoned = true;
        return;
      }
    }
    this.framer.push(chunk);
  }

  /** End of the object's bytes: flushes the last line and any unterminated partial lines. */
  end(): void {
    if (this.abandoned) return;
    this.framer.end();
    for (const j of this.cri.drain())
      this.joined(j, (b, line) => this.criPayload(b, 0, b.length, line, 'incomplete-record'));
    for (const j of this.fluent.drain())
      this.joined(j, (b, line) =>
        this.embedded(decodeUtf8(b, 0, b.length), line, 'fluent-bit', 'incomplete-record'),
      );
  }

  /** Adds this object's outcome to the stats: empty, foreign, and its skip details. */
  finish(): void {
    const s = this.stats;
    s.bytes.decompressed += this.decompressed;
    let foreign = this.foreignWhy;
    if (!foreign && this.logRecords === 0 && this.controlSeen === 0 && !this.hadError) {
      if (this.skips > 0) foreign = this.firstSkip;
      else if (this.framer.nulBytes > 0) foreign = 'only NUL bytes';
      else s.files.empty++;
    }
    if (foreign) {
      s.files.foreign++;
      addDetail(s, { source: this.source, line: 0, reason: 'foreign-file', note: foreign });
      return;
    }
    for (const d of this.details) addDetail(s, d);
    s.detailsOmitted += this.omitted;
  }

  // --- DecompressEvents ---

  onInput(bytes: number): void {
    this.stats.bytes.read += bytes;
  }

  onGzipError(kind: 'gzip-truncated' | 'gzip-corrupt', message: string): void {
    this.fileIssue(kind, message);
  }

  onUnsupported(what: string): void {
    this.foreignWhy = what;
    this.abandoned = true;
  }

  /** The object failed as a whole (at most one error counted per object). */
  fileIssue(reason: FileIssue, note: string): void {
    if (this.hadError) return;
    this.hadError = true;
    this.stats.files.errors++;
    addDetail(this.stats, { source: this.source, line: 0, reason, note });
  }

  // --- FrameSink ---

  json(buf: Buffer, start: number, end: number, line: number): void {
    this.jsonBytes(buf, start, end, line, 'top', 'corrupt-json');
  }

  text(buf: Buffer, start: number, end: number, line: number): void {
    const sp = timestampEnd(buf, start, end);
    if (sp >= 0) {
      const at = sp + 1;
      if (buf[at] === LBRACE) {
        this.jsonBytes(buf, at, end, line, 'eks-export', 'corrupt-json');
        return;
      }
      const head = criHead(buf, at, end);
      if (head) {
        this.criLine(buf, head, end, line);
        return;
      }
    }
    this.skip(line, 'not-a-log-line', excerpt(buf, start, end));
  }

  skip(line: number, reason: SkipReason, note?: string): void {
    const s = this.stats.skipped;
    s[reason] = (s[reason] ?? 0) + 1;
    this.skips++;
    if (this.firstSkip === null) this.firstSkip = note ? `${reason}: ${note}` : reason;
    if (this.details.length < MAX_DETAILS_PER_FILE) {
      this.details.push(
        note ? { source: this.source, line, reason, note } : { source: this.source, line, reason },
      );
    } else {
      this.omitted++;
    }
  }

  // --- containers ---

  private jsonBytes(
    buf: Buffer,
    start: number,
    end: number,
    line: number,
    via: Via,
    onFail: SkipReason,
  ): void {
    // Decoded once: the pre-filter and JSON.parse read the same string. (Measured: one
    // decode plus String/RegExp searches costs less than five Buffer.indexOf calls per
    // line, each of which crosses into C++; a latin1 view of the whole chunk was slower
    // still, as V8 copies large strings out of Buffers. ASCII lines decode as a copy:
    // see text.ts.)
    if (via === 'top' && looksLikeCwlPayload(buf, start)) {
      const scan = scanCwlPayload(buf, start, end);
      if (scan) {
        this.logGroup = scan.kind === 'data' ? scan.logGroup : null;
        try {
          this.cloudWatchScanned(buf, scan, line);
        } finally {
          this.logGroup = null;
        }
        return;
      }
    }
    const last = this.lastAuditFormat;
    let judged = false;
    if (this.opts.relevantOnly && last !== null && !this.fluent.active && !MULTI_EVENT.has(last)) {
      // Most lines are decided on their bytes, never decoded (byte-relevance.ts); the
      // rest, and every line of a Fluent Bit file (its partial records must reach the
      // joiner), go through the string pre-filter below.
      const verdict = last === 'fluent-bit' ? ByteVerdict.Unsure : judgeAuditBytes(buf, start, end);
      if (verdict === ByteVerdict.Irrelevant) {
        if (!this.podSeen && judgedResourceIsPods(buf, start, end)) this.sawPodEvent();
        this.noteTimeOfBytes(buf, start, end);
        this.prefiltered(
          1,
          via !== 'top' ? AUDIT_FORMAT[via] : last === 'gke-logentry' ? 'audit-jsonl' : last,
        );
        return;
      }
      judged = verdict === ByteVerdict.Parse;
    }
    const text = decodeUtf8(buf, start, end);
    if (this.opts.relevantOnly && last !== null && !this.fluent.active && !judged) {
      // A Fluent Bit partial record must reach the joiner whatever its words.
      const partial = last === 'fluent-bit' && text.includes(PARTIAL_FLAG);
      const n = partial ? 0 : irrelevantEvents(text, MULTI_EVENT.has(last));
      if (n !== 0 && !this.podSeen && POD_EVENT_TEXT.test(text)) this.sawPodEvent();
      if (n === ONE_GKE_ENTRY) {
        this.noteTimeOfText(text, GKE_TIME_KEY);
        this.prefiltered(1, 'gke-logentry');
        return;
      }
      if (n === 1) this.noteTimeOfText(text);
      if (n > 0) {
        // A bare event in a file of GKE entries is a plain audit line, not an entry.
        const format = via !== 'top' ? AUDIT_FORMAT[via] : last === 'gke-logentry' ? 'audit-jsonl' : last;
        this.prefiltered(n, format);
        return;
      }
    }
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      this.skip(line, onFail);
      return;
    }
    this.value(v, line, via);
  }

  /** A JSON document held in a string (CloudWatch message, Fluent Bit or AKS `log`). */
  private embedded(s: string, line: number, via: Exclude<Via, 'top'>, onFail: SkipReason): void {
    if (this.opts.relevantOnly && irrelevantEvents(s, false) === 1) {
      if (!this.podSeen && POD_EVENT_TEXT.test(s)) this.sawPodEvent();
      this.noteTimeOfText(s);
      this.prefiltered(1, AUDIT_FORMAT[via]);
      return;
    }
    this.parseEmbedded(s, line, via, onFail);
  }

  /** embedded() past the pre-filter: for a document already judged worth parsing. */
  private parseEmbedded(s: string, line: number, via: Exclude<Via, 'top'>, onFail: SkipReason): void {
    const t = s.trimStart();
    if (t.length === 0 || (t.charCodeAt(0) !== LBRACE && t.charCodeAt(0) !== LBRACK)) {
      this.skip(line, 'not-a-log-line', JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}...` : t));
      return;
    }
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      this.skip(
        line,
        onFail === 'corrupt-json' && s.trimEnd().endsWith('[Truncated...]') ? 'cloudwatch-truncated' : onFail,
      );
      return;
    }
    this.value(v, line, via);
  }

  private value(v: unknown, line: number, via: Via): void {
    // Real wrappers nest three or four deep (Firehose, Fluent Bit, a log string). A record
    // nested thousands deep is hostile: unwrapping it recursively would overflow the
    // stack and end the object as a read error, losing the records after it.
    if (this.depth >= MAX_UNWRAP) {
      this.skip(line, 'foreign-record', `wrapped more than ${MAX_UNWRAP} levels deep`);
      return;
    }
    this.depth++;
    try {
      this.unwrap(v, line, via);
    } finally {
      this.depth--;
    }
  }

  private unwrap(v: unknown, line: number, via: Via): void {
    if (Array.isArray(v)) {
      for (const el of v) this.value(el, line, 'array');
      return;
    }
    if (!isObject(v)) {
      this.skip(line, 'foreign-record', `JSON ${v === null ? 'null' : typeof v}`);
      return;
    }
    if (v.kind === 'EventList' && Array.isArray(v.items)) {
      for (const item of v.items) {
        if (isObject(item)) this.auditObject(item, 'audit-eventlist', line);
        else this.skip(line, 'foreign-record', 'EventList item is not an object');
      }
      return;
    }
    if (typeof v.messageType === 'string' && Array.isArray(v.logEvents)) {
      this.logGroup = typeof v.logGroup === 'string' && v.logGroup !== '' ? v.logGroup : null;
      try {
        this.cloudWatchPayload(v, line);
      } finally {
        this.logGroup = null;
      }
      return;
    }
    if (isObject(v.protoPayload)) {
      if (isKubernetesEntry(v)) this.auditObject(gkeEntryToAuditObject(v), 'gke-logentry', line);
      else this.skip(line, 'foreign-record', 'Cloud Logging entry of another service');
      return;
    }
    if (isObject(v.properties) && 'log' in v.properties) {
      const log = v.properties.log;
      if (typeof log === 'string') this.embedded(log, line, 'aks', 'corrupt-json');
      else this.value(log, line, 'aks');
      return;
    }
    if (typeof v.log === 'string' || isObject(v.log)) {
      this.fluentBitRecord(v, line);
      return;
    }
    if (isAuditShaped(v)) {
      let format = via === 'top' ? 'audit-jsonl' : AUDIT_FORMAT[via];
      if (via === 'top' && typeof v.date === 'string') {
        // Fluent Bit's `date` is the wrapper's, not the event's.
        format = 'fluent-bit';
        delete v.date;
      }
      this.auditObject(v, format, line);
      return;
    }
    if (isZapShaped(v)) {
      this.operatorObject(v, via === 'top' ? 'zap-json' : OPERATOR_FORMAT[via], line);
      return;
    }
    this.skip(line, 'foreign-record', describeKeys(v));
  }

  private cloudWatchPayload(v: JsonObject, line: number): void {
    if (v.messageType === 'CONTROL_MESSAGE') {
      this.controlSeen++;
      this.stats.controlMessages++;
      return;
    }
    if (v.messageType !== 'DATA_MESSAGE') {
      this.skip(line, 'foreign-record', `CloudWatch messageType ${JSON.stringify(v.messageType)}`);
      return;
    }
    for (const le of v.logEvents as unknown[]) {
      const msg = isObject(le) ? le.message : undefined;
      if (typeof msg === 'string') this.embedded(msg, line, 'cwl', 'corrupt-json');
      else this.skip(line, 'foreign-record', 'CloudWatch log event without a message');
    }
  }

  /** A CloudWatch payload whose messages were found in the bytes (see scanCwlPayload). */
  private cloudWatchScanned(buf: Buffer, scan: CwlPayloadScan, line: number): void {
    if (scan.kind === 'control') {
      this.controlSeen++;
      this.stats.controlMessages++;
      return;
    }
    for (const [from, to] of scan.messages) {
      // Most messages are judged on their escaped bytes, never decoded (byte-relevance.ts);
      // the rest by the words, which survive escaping, and then the string pre-filter.
      const verdict = this.opts.relevantOnly ? judgeEscapedAuditBytes(buf, from, to) : ByteVerdict.Unsure;
      if (verdict === ByteVerdict.Irrelevant) {
        if (!this.podSeen && judgedResourceIsPods(buf, from, to)) this.sawPodEvent();
        this.noteTimeOfBytes(buf, from, to, true);
        this.prefiltered(1, 'eks-firehose-cwl');
        continue;
      }
      // Decoded with its quotes, so the parse that unescapes it needs no second copy.
      const literal = decodeUtf8(buf, from - 1, to + 1);
      if (this.opts.relevantOnly && verdict === ByteVerdict.Unsure && lacksRelevantWords(literal)) {
        this.prefiltered(1, 'eks-firehose-cwl');
        continue;
      }
      let message: string;
      try {
        message = JSON.parse(literal) as string;
      } catch {
        this.skip(line, 'corrupt-json');
        continue;
      }
      if (verdict === ByteVerdict.Parse) this.parseEmbedded(message, line, 'cwl', 'corrupt-json');
      else this.embedded(message, line, 'cwl', 'corrupt-json');
    }
  }

  private fluentBitRecord(v: JsonObject, line: number): void {
    const log = v.log;
    if (typeof log !== 'string') {
      this.value(log, line, 'fluent-bit');
      return;
    }
    const k8s = isObject(v.kubernetes) ? v.kubernetes : {};
    const key = `${str(v.stream) ?? ''}|${str(k8s.pod_id) ?? str(k8s.pod_name) ?? ''}|${str(k8s.container_name) ?? ''}`;
    if (v._p === 'P') {
      this.fluent.add(key, Buffer.from(log, 'utf8'), line);
      return;
    }
    const j = this.fluent.finish(key, Buffer.from(log, 'utf8'));
    if (j)
      this.joined(j, (b, first) =>
        this.embedded(decodeUtf8(b, 0, b.length), first, 'fluent-bit', 'corrupt-json'),
      );
    else this.embedded(log, line, 'fluent-bit', 'corrupt-json');
  }

  private criLine(buf: Buffer, head: CriHead, end: number, line: number): void {
    const text = buf.subarray(head.text, end);
    if (head.partial) {
      this.cri.add(head.stream, text, line);
      return;
    }
    const j = this.cri.finish(head.stream, text);
    if (j) this.joined(j, (b, first) => this.criPayload(b, 0, b.length, first, 'corrupt-json'));
    else this.criPayload(buf, head.text, end, line, 'corrupt-json');
  }

  private criPayload(buf: Buffer, start: number, end: number, line: number, onFail: SkipReason): void {
    let s = start;
    while (s < end && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
    let e = end;
    while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x0d || buf[e - 1] === 0x0a)) e--;
    if (s < e && (buf[s] === LBRACE || buf[s] === LBRACK)) this.jsonBytes(buf, s, e, line, 'cri', onFail);
    else this.skip(line, 'not-a-log-line', excerpt(buf, start, end));
  }

  private joined(j: Joined, then: (bytes: Buffer, line: number) => void): void {
    if (j.kind === 'too-long') this.skip(j.line, 'line-too-long');
    else then(j.bytes, j.line);
  }

  // --- records ---

  /** An event's requestReceivedTimestamp: the newest becomes the object's end of data. */
  private noteTime(t: string): void {
    if (this.logGroup !== null) this.noteGroupTime(this.logGroup, t);
    const cur = this.newest;
    // Whole seconds compare as text; a tie is rare enough to parse (fractions may differ in length).
    const head = cur === null ? '' : cur.slice(0, 19);
    const cand = t.slice(0, 19);
    if (cand < head) return;
    if (cand === head && cur !== null && sameShapeFraction(t, cur)) {
      // Nearly every event is in the newest second, written by one writer: its fraction is
      // the only news, and as text of one length it orders as the microseconds do. So the
      // stats' newest, when it is this reader's, is overtaken without parsing either time.
      if (t <= cur) return;
      this.newest = t;
      this.newestMs = NaN;
      const s = this.stats;
      s.newestEventAt = s.newestEventAt === cur ? t : laterTime(s.newestEventAt, t);
      return;
    }
    // Read digit by digit, the usual shape (UTC, `Z`) gives Date.parse's milliseconds in a
    // third less time (measured).
    const ms = msOf(t);
    if (cur !== null && cand === head) {
      const curMs = Number.isNaN(this.newestMs) ? msOf(cur) : this.newestMs;
      if (Number.isNaN(ms) || !(ms > curMs || (ms === curMs && t > cur))) return;
    } else if (Number.isNaN(ms)) return;
    this.newest = t;
    this.newestMs = ms;
    this.stats.newestEventAt = laterTime(this.stats.newestEventAt, t);
  }

  /**
   * The newest time of each log group (IngestStats.newestByLogGroup). Whole seconds compare
   * as text, and so do times of one length (one writer's format): only a new second, or
   * fractions of different lengths, are parsed, so the CloudWatch path costs no parse per event.
   */
  private noteGroupTime(group: string, t: string): void {
    const by = (this.stats.newestByLogGroup ??= {});
    const cur = by[group];
    if (cur === undefined) {
      if (!Number.isNaN(Date.parse(t))) by[group] = t;
      return;
    }
    const cand = t.slice(0, 19);
    const head = cur.slice(0, 19);
    if (cand < head || t === cur) return;
    if (cand > head) {
      if (!Number.isNaN(Date.parse(t))) by[group] = t;
    } else if (t.length === cur.length ? t > cur : laterTime(cur, t) === t) by[group] = t;
  }

  /** noteTime for an event dropped unparsed, from its bytes [start, end) (plain JSON only). */
  private noteTimeOfBytes(buf: Buffer, start: number, end: number, escaped = false): void {
    const key = escaped ? ESCAPED_RECEIVED_KEY_BYTES : RECEIVED_KEY_BYTES;
    const from = Math.max(start, end - RECEIVED_TAIL_BYTES);
    const at = buf.subarray(from, end).lastIndexOf(key);
    if (at < 0) return;
    const v = from + at + key.length;
    // The value ends at its quote (`\"` when escaped: the backslash comes first).
    const q = buf.indexOf(escaped ? 0x5c : 0x22, v);
    if (q > v && q - v <= 40) this.noteTime(buf.toString('latin1', v, q));
  }

  /** noteTime for an event dropped unparsed, from its text (plain JSON only). */
  private noteTimeOfText(text: string, key = RECEIVED_KEY): void {
    let at = text.lastIndexOf(key);
    // Escaped inside a wrapper's string (Fluent Bit's or AKS's `log`): every quote is `\"`.
    const escaped = at < 0 && key === RECEIVED_KEY;
    if (escaped) at = text.lastIndexOf(ESCAPED_RECEIVED_KEY);
    if (at < 0) return;
    const v = at + (escaped ? ESCAPED_RECEIVED_KEY.length : key.length);
    const q = text.indexOf(escaped ? '\\' : '"', v);
    if (q > v && q - v <= 40) this.noteTime(text.slice(v, q));
  }

  private sawPodEvent(): void {
    this.podSeen = true;
    this.stats.audit.aboutPods++;
  }

  private prefiltered(n: number, format: FormatName): void {
    const s = this.stats;
    this.logRecords += n;
    s.audit.read += n;
    s.audit.irrelevant += n;
    s.records[format] = (s.records[format] ?? 0) + n;
  }

  private auditObject(v: JsonObject, format: FormatName, line: number): void {
    const ev: AuditEvent | SkipReason = toAuditEvent(v);
    if (typeof ev === 'string') {
      this.skip(line, ev);
      return;
    }
    const s = this.stats;
    this.logRecords++;
    this.lastAuditFormat = format;
    s.audit.read++;
    s.records[format] = (s.records[format] ?? 0) + 1;
    if (ev.objectRef?.resource === 'pods') this.sawPodEvent();
    this.noteTime(ev.requestReceivedTimestamp);
    if (this.opts.relevantOnly && !isRelevantAuditEvent(ev)) {
      s.audit.irrelevant++;
      return;
    }
    const rec: LogRecord = {
      kind: 'audit',
      event: ev,
      format,
      at: { source: this.source, line },
      ...(this.logGroup !== null ? { logGroup: this.logGroup } : {}),
    };
    if (this.opts.keep && !this.opts.keep(rec)) {
      s.audit.excluded++;
      return;
    }
    s.audit.kept++;
    this.out.push(rec);
  }

  private operatorObject(v: JsonObject, format: FormatName, line: number): void {
    const ol = toOperatorLine(v);
    if (typeof ol === 'string') {
      this.skip(line, ol);
      return;
    }
    const s = this.stats;
    this.logRecords++;
    s.operator.read++;
    s.records[format] = (s.records[format] ?? 0) + 1;
    const rec: LogRecord = {
      kind: 'operator',
      line: ol,
      format,
      at: { source: this.source, line },
      ...(this.logGroup !== null ? { logGroup: this.logGroup } : {}),
    };
    if (this.opts.keep && !this.opts.keep(rec)) {
      s.operator.excluded++;
      return;
    }
    s.operator.kept++;
    this.out.push(rec);
  }
}

/** Milliseconds of an RFC 3339 time (NaN when it is not one): the usual shape read digit by digit. */
function msOf(t: string): number {
  const us = utcMicros(t);
  return us !== null ? Math.floor(us / 1000) : Date.parse(t);
}

/**
 * Whether `t`, whose whole second is that of `cur` (a time already taken), differs from it only
 * in a fraction of the same length of one to six digits before `Z`: then `t` is a valid time
 * exactly when `cur` is, and the two order as text as they do in microseconds.
 */
function sameShapeFraction(t: string, cur: string): boolean {
  const n = t.length;
  if (n !== cur.length || n < 22 || n > 27 || t.charCodeAt(n - 1) !== 90 /* Z */) return false;
  if (t.charCodeAt(19) !== 46 /* . */ || cur.charCodeAt(19) !== 46 || cur.charCodeAt(n - 1) !== 90)
    return false;
  for (let i = 20; i < n - 1; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
  }
  return true;
}
