// Text helpers shared by the table, Markdown and HTML views, so the three agree on how a
// time, a period, a broker or a field value is written.
import { isBrokerRemoval } from '../analyze/removal';
import type { Fight, FindingsDocument, InputError, Loop, Recreation } from '../model/findings';
import { byOperatorOrder, wordsOf } from '../operators/words-registry';
import { CLASS_ORDER } from './colors';
export { fightKey, fightLabel } from '../fights/key';

/** Milliseconds since the epoch, or null: timestamps come from untrusted logs. */
export function parseTime(value: string): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** `2026-11-02 10:37:39` in UTC (audit timestamps are UTC); the raw text when unparseable. */
export function formatTimestamp(value: string): string {
  const ms = parseTime(value);
  if (ms === null) return value;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `first → last`, dropping the date from `last` when both fall on the same day. */
export function formatRange(first: string, last: string): string {
  const a = formatTimestamp(first);
  const b = formatTimestamp(last);
  const sameDay = parseTime(first) !== null && parseTime(last) !== null && a.slice(0, 10) === b.slice(0, 10);
  return `${a} → ${sameDay ? b.slice(11) : b}`;
}

/** `9.6s`, `2m05s`, `1h30m`: a period a reader can compare at a glance. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${trimZero(seconds.toFixed(1))}s`;
  const total = Math.round(seconds);
  if (total < 3600) return `${Math.floor(total / 60)}m${pad2(total % 60)}s`;
  const minutes = Math.round(total / 60);
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h${pad2(minutes % 60)}m`;
  const hours = Math.round(minutes / 60);
  return `${Math.floor(hours / 24)}d${pad2(hours % 24)}h`;
}

function trimZero(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `12,345`, independent of the machine's locale so snapshots are stable. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The sentence with its first letter upper-case, to start a line. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

type BrokerRef = Pick<Recreation, 'namespace' | 'operator' | 'kafkaCluster' | 'brokerId'>;

/** Identity of a broker (or another operator's member) across recreations and loops. */
export function brokerKey(b: BrokerRef): string {
  // koperator's key as it always was; another operator's member is never one of its brokers.
  return JSON.stringify(
    b.operator
      ? [b.namespace, b.kafkaCluster, b.brokerId, b.operator]
      : [b.namespace, b.kafkaCluster, b.brokerId],
  );
}

/**
 * `kafka/orders-kafka #1`: namespace, cluster and broker id in the order people say them;
 * another operator's member in its own words (`NiFiKop (NifiCluster nifi/prod, node 2)`).
 */
export function brokerLabel(b: BrokerRef): string {
  if (b.operator) return wordsOf(b.operator).unitOf(b.namespace, b.kafkaCluster, b.brokerId);
  return `${b.namespace}/${b.kafkaCluster} #${b.brokerId}`;
}

/** Namespace, cluster, then broker id numerically (ids are numbers written as strings), then operator. */
export function compareBrokers(a: BrokerRef, b: BrokerRef): number {
  return (
    a.namespace.localeCompare(b.namespace, 'en') ||
    a.kafkaCluster.localeCompare(b.kafkaCluster, 'en') ||
    compareIds(a.brokerId, b.brokerId) ||
    (a.operator ?? '').localeCompare(b.operator ?? '', 'en')
  );
}

function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.localeCompare(b, 'en');
}

/** Chronological; unparseable times sort last, ties keep document order. */
export function compareByDeletion(a: Recreation, b: Recreation): number {
  const ta = parseTime(a.deletedPod.deletedAt);
  const tb = parseTime(b.deletedPod.deletedAt);
  if (ta === null || tb === null) return ta === null ? (tb === null ? 0 : 1) : -1;
  return ta - tb;
}

export interface BrokerGroup {
  key: string;
  label: string;
  broker: BrokerRef;
  recreations: Recreation[];
}

/** Recreations per broker, brokers in {@link compareBrokers} order, each group chronological. */
export function groupByBroker(recreations: readonly Recreation[]): BrokerGroup[] {
  const groups = new Map<string, BrokerGroup>();
  for (const r of recreations) {
    const key = brokerKey(r);
    let g = groups.get(key);
    if (!g) {
      g = { key, label: brokerLabel(r), broker: r, recreations: [] };
      groups.set(key, g);
    }
    g.recreations.push(r);
  }
  const list = [...groups.values()].sort((a, b) => compareBrokers(a.broker, b.broker));
  for (const g of list) g.recreations.sort(compareByDeletion);
  return list;
}

/** Loops in broker order, then by first deletion. */
export function sortLoops(loops: readonly Loop[]): Loop[] {
  return [...loops].sort(
    (a, b) => compareBrokers(a, b) || (parseTime(a.firstAt) ?? 0) - (parseTime(b.firstAt) ?? 0),
  );
}

/** Earliest and latest instant the findings mention, or null when none parses. */
export function timeSpan(doc: FindingsDocument): { start: number; end: number } | null {
  let start = Infinity;
  let end = -Infinity;
  const see = (value: string): void => {
    const t = parseTime(value);
    if (t === null) return;
    start = Math.min(start, t);
    end = Math.max(end, t);
  };
  for (const r of doc.recreations) see(r.deletedPod.deletedAt);
  for (const l of [...doc.loops, ...(doc.fights ?? [])]) {
    see(l.firstAt);
    see(l.lastAt);
  }
  for (const d of doc.drifts ?? []) see(d.at);
  return start <= end ? { start, end } : null;
}

/** Active fights first, then by when they began. */
export function sortFights(fights: readonly Fight[]): Fight[] {
  return [...fights].sort(
    (a, b) =>
      Number(b.active) - Number(a.active) || (parseTime(a.firstAt) ?? 0) - (parseTime(b.firstAt) ?? 0),
  );
}

/** Who fights: the writers, and for a recreate loop the webhooks that mutate behind them. */
export function fightParties(f: Pick<Fight, 'writers' | 'mutators'>): string[] {
  return [...f.writers, ...f.mutators.map((m) => `webhook ${m}`)];
}

/** The counts every view's header leads with, so the three cannot disagree. */
export interface Headline {
  /** Broker pods deleted: every entry of `recreations`, as the contract keeps them. */
  deletions: number;
  /** Pods deleted and re-created: the deletions without the brokers removed by a downscale. */
  recreations: number;
  /** Brokers removed by a downscale: deleted, nothing re-created (isBrokerRemoval). */
  removals: number;
  /** Brokers with at least one pod re-created (a broker only removed is not among them). */
  brokers: number;
  /**
   * The members of each operator counted, by its noun (`broker`, `NiFi node`), koperator's
   * first: re-created (with `brokers` their sum) and removed. Empty when nothing was deleted.
   */
  units?: { noun: string; recreated: number; removed: number }[];
  loops: number;
  activeLoops: number;
  fights: number;
  activeFights: number;
  /** First to last instant the findings mention (UTC, without the suffix); null when none parses. */
  range: string | null;
}

export function headlineOf(doc: FindingsDocument): Headline {
  const span = timeSpan(doc);
  const recreated = recreatedOnly(doc.recreations);
  return {
    deletions: doc.recreations.length,
    recreations: recreated.length,
    removals: doc.recreations.length - recreated.length,
    brokers: groupByBroker(recreated).length,
    units: unitsOf(doc.recreations),
    loops: doc.loops.length,
    activeLoops: doc.loops.filter((l) => l.active).length,
    fights: doc.fights?.length ?? 0,
    activeFights: (doc.fights ?? []).filter((f) => f.active).length,
    range: span ? formatRange(new Date(span.start).toISOString(), new Date(span.end).toISOString()) : null,
  };
}

/**
 * The deletions in words, the one phrase every view leads with: `30 broker pod deletions: 29
 * recreations across 12 brokers, 1 broker removed (downscale)`, or without a downscale `29
 * broker pod recreations across 12 brokers`.
 */
export function deletionsPhrase(
  head: Pick<Headline, 'deletions' | 'recreations' | 'removals' | 'brokers' | 'units'>,
): string {
  const noun = soleNoun(head);
  const pod = noun ? `${noun} pod` : 'pod';
  const count = (pick: 'recreated' | 'removed') => membersPhrase(head, pick);
  const across = `across ${count('recreated')}`;
  if (head.removals === 0) return `${plural(head.recreations, `${pod} recreation`)} ${across}`;
  return (
    `${plural(head.deletions, `${pod} deletion`)}: ${plural(head.recreations, 'recreation')} ${across}, ` +
    `${count('removed')} removed (downscale)`
  );
}

/** One operator's members (the usual case, and none at all): its noun; several operators': null. */
function soleNoun(head: Pick<Headline, 'units'>): string | null {
  const units = head.units ?? [];
  return units.length === 1 ? units[0]!.noun : units.length === 0 ? 'broker' : null;
}

/** The members re-created (or removed), in their operators' nouns: `12 brokers`, `12 brokers and 1 NiFi node`. */
export function membersPhrase(
  head: Pick<Headline, 'brokers' | 'removals' | 'units'>,
  pick: 'recreated' | 'removed',
): string {
  const noun = soleNoun(head);
  if (noun) return plural(pick === 'recreated' ? head.brokers : head.removals, noun);
  return (head.units ?? [])
    .filter((u) => u[pick] > 0)
    .map((u) => plural(u[pick], u.noun))
    .join(' and ');
}

/** Each operator's members re-created and removed (Headline.units), koperator's first. */
function unitsOf(recreations: readonly Recreation[]): NonNullable<Headline['units']> {
  const by = new Map<string, { noun: string; recreated: Set<string>; removed: number }>();
  for (const r of recreations) {
    const op = r.operator ?? 'koperator';
    let u = by.get(op);
    if (!u) by.set(op, (u = { noun: wordsOf(op).unitNoun, recreated: new Set(), removed: 0 }));
    if (isBrokerRemoval(r)) u.removed++;
    else u.recreated.add(brokerKey(r));
  }
  return [...by.entries()]
    .sort(([a], [b]) => byOperatorOrder(a, b))
    .map(([, u]) => ({ noun: u.noun, recreated: u.recreated.size, removed: u.removed }));
}

/** The recreations proper: the deletions without the brokers removed by a downscale. */
export function recreatedOnly(recreations: readonly Recreation[]): Recreation[] {
  return recreations.filter((r) => !isBrokerRemoval(r));
}

/**
 * A field value on one line: strings bare (quantities like `500m` read best that way),
 * everything else as compact JSON, null and absent as `(unset)`.
 */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '(unset)';
  if (typeof value === 'string') return value;
  return safeJson(value, 0);
}

/** A field value for a diff view: objects and arrays pretty-printed over several lines. */
export function formatValueBlock(value: unknown): string {
  if (value === null || value === undefined) return '(unset)';
  if (typeof value === 'string') return value;
  return safeJson(value, 2);
}

function safeJson(value: unknown, indent: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    // Cycles or BigInts cannot come from parsed JSON, but the type allows them.
    return String(value);
  }
}

/** Shortens to `max` characters with an ellipsis; `max` counts code points. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Keeps both ends of a long path: its start says where, its end says what. */
export function truncateMiddle(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = Math.max(0, max - 1);
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

export interface Verdict {
  /** Koperator before the fix: the three-way diff against the live pod. */
  before: string;
  /** After the fix: the intent diff (original vs modified only). */
  after: string;
}

export function verdictOf(w: Recreation['wouldRestart']): Verdict {
  if (!w) return { before: 'unknown', after: 'unknown' };
  return {
    before: w.threeWayMerge ? 'restart' : 'no restart',
    after: w.intentDiff ? 'restart' : 'no restart',
  };
}

/**
 * Another operator's answers for each range of its versions, in one line (`NiFiKop <1.12
 * restart · 1.12-1.13 no restart · …`): what its findings say in place of koperator's two verdicts.
 */
export function versionVerdicts(r: Pick<Recreation, 'operator' | 'wouldRestartByVersion'>): string {
  const operator = wordsOf(r.operator).operator;
  const by = r.wouldRestartByVersion;
  if (!by) return `${operator}: unknown (no answer by version in the logs)`;
  const ranges = Object.entries(by).map(
    ([range, restarts]) => `${range} ${restarts ? 'restart' : 'no restart'}`,
  );
  return `${operator} ${ranges.join(' · ')}`;
}

/**
 * `summary` is free-form: flattened to `a.b[0].c = value` rows so any shape renders.
 * Returns at most `limit` rows and how many were left out.
 */
export function flattenSummary(
  summary: Record<string, unknown>,
  limit = Infinity,
): { rows: Array<[string, string]>; omitted: number } {
  const rows: Array<[string, string]> = [];
  let total = 0;
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value) && value.every(isScalar)) {
      emit(path, value.length === 0 ? '(none)' : value.map((v) => formatValue(v)).join(', '));
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${path}[${i}]`));
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) emit(path, '(none)');
      for (const [k, v] of entries) visit(v, path === '' ? k : `${path}.${k}`);
    } else {
      emit(path, formatValue(value));
    }
  };
  const emit = (key: string, value: string): void => {
    total++;
    if (rows.length < limit) rows.push([key, value]);
  };
  for (const [k, v] of Object.entries(summary ?? {})) visit(v, k);
  return { rows, omitted: total - rows.length };
}

/**
 * The summary rows a document view lists: at most `limit`, then a `…` row saying how many more
 * there are (the JSON output has them all).
 */
export function summaryRows(summary: Record<string, unknown>, limit: number): Array<[string, string]> {
  const { rows, omitted } = flattenSummary(summary, limit);
  if (omitted > 0) rows.push(['…', plural(omitted, 'more entry', 'more entries')]);
  return rows;
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/**
 * Counts per classification of the pods re-created (keys as found, so values outside the
 * contract are counted too). A broker removed by a downscale is no recreation: every view
 * counts it apart, so the tally adds up to the headline's recreations.
 */
export function countByClass(recreations: readonly Recreation[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of recreatedOnly(recreations))
    counts.set(r.classification, (counts.get(r.classification) ?? 0) + 1);
  return counts;
}

/**
 * The classes present in `counts`, in legend order, then any value outside the contract as
 * found (documents may come from other tools), so every view lists them alike.
 */
export function classesPresent(counts: ReadonlyMap<string, number>): string[] {
  return [
    ...CLASS_ORDER.filter((c) => counts.has(c)),
    ...[...counts.keys()].filter((c) => !(CLASS_ORDER as readonly string[]).includes(c)),
  ];
}

/** `1.50 KiB`, `3.00 GiB`: binary units, as the progress bar and the summaries print them. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = Math.max(0, n);
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${Math.round(v)} B` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

/** The inputs that could not be listed or opened, as the document carries them. */
export function inputErrorsOf(doc: Pick<FindingsDocument, 'summary'>): InputError[] {
  const errors = doc.summary?.inputErrors;
  return Array.isArray(errors)
    ? errors.filter(
        (e): e is InputError => !!e && typeof e.input === 'string' && typeof e.reason === 'string',
      )
    : [];
}

/**
 * Inputs were opened, yet not one audit event could be read from them (binary files, an
 * empty standard input, a single over-long line): the report's banner says it is no
 * all-clear. Not when no input could be opened at all: that banner says so already.
 */
export function nothingRead(doc: Pick<FindingsDocument, 'summary'>): boolean {
  if (doc.summary?.blind !== 'no-audit-events') return false;
  return !(inputErrorsOf(doc).length > 0 && Number(doc.summary.inputsOpened ?? 1) === 0);
}

export const NOTHING_READ_HEAD = 'NO AUDIT EVENT COULD BE READ: this is not an all-clear';

/** Settings that matched nothing, or an operator user that never created a broker pod. */
export function warningsOf(doc: FindingsDocument): string[] {
  const w = doc.summary?.warnings;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string') : [];
}

/** How findings were reached (summary.notes): information for the Inputs section, not warnings. */
export function notesOf(doc: Pick<FindingsDocument, 'summary'>): string[] {
  const n = doc.summary?.notes;
  return Array.isArray(n) ? n.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The end of the logs that `active` is relative to: `summary.dataEndsAt` when the
 * pipeline wrote it, else the latest deletion the loops mention.
 */
export function dataEndOf(doc: FindingsDocument, loops: readonly Loop[] = doc.loops): string | null {
  const end = doc.summary?.dataEndsAt;
  if (typeof end === 'string' && parseTime(end) !== null) return end;
  let best: string | null = null;
  for (const l of loops)
    if (best === null || (parseTime(l.lastAt) ?? 0) > (parseTime(best) ?? 0)) best = l.lastAt;
  return best;
}

export interface RecommendationGroup {
  recommendation: string;
  loops: Loop[];
}

/** Loops by their recommendation text, so each distinct advice is given once, in first-seen order. */
export function recommendationGroups(loops: readonly Loop[]): RecommendationGroup[] {
  const groups = new Map<string, RecommendationGroup>();
  for (const l of loops) {
    const text = l.recommendation || '—';
    let g = groups.get(text);
    if (!g) {
      g = { recommendation: text, loops: [] };
      groups.set(text, g);
    }
    g.loops.push(l);
  }
  return [...groups.values()];
}

/**
 * A contract path shortened to `max` characters, keeping what identifies it: first the
 * list keys lose their `name=` (`containers[kafka]`), then middle segments give way to
 * `…` one at a time, keeping the first and the last (the field itself); a last segment
 * longer than the room is cut in the middle.
 */
export function shortenPath(path: string, max: number): string {
  if ([...path].length <= max) return path;
  const short = path.replace(/\[name=([^\]]*)\]/g, '[$1]');
  if ([...short].length <= max) return short;
  const segments = short.match(/(?:[^.[\]"]|\[[^\]]*\]|"[^"]*")+/g) ?? [short];
  if (segments.length > 2) {
    for (let keep = segments.length - 2; keep >= 0; keep--) {
      const tail = segments.slice(segments.length - keep - 1);
      const candidate = `${segments[0]}.….${tail.join('.')}`;
      if ([...candidate].length <= max) return candidate;
    }
    return truncateMiddle(`…${segments[segments.length - 1]}`, max);
  }
  return truncateMiddle(short, max);
}

/**
 * What was read, in words, for the document views' Inputs section: counts, then each
 * place something was skipped, failed or was not a log (the first few; JSON has all).
 */
export function inputFacts(doc: FindingsDocument, inputs?: string[]): Array<[string, string]> {
  const s = (doc.summary ?? {}) as Record<string, unknown>;
  const rows: Array<[string, string]> = [];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const given = inputs?.length ? inputs : Array.isArray(s.inputs) ? (s.inputs as unknown[]).map(String) : [];
  if (given.length) rows.push(['inputs', given.join(', ')]);
  const files = obj(s.files);
  const bytes = obj(s.bytes);
  if (files.read !== undefined) {
    const unpacked =
      num(bytes.decompressed) > num(bytes.read) ? ` (${formatBytes(num(bytes.decompressed))} unpacked)` : '';
    rows.push(['read', `${plural(num(files.read), 'file')}, ${formatBytes(num(bytes.read))}${unpacked}`]);
  }
  const audit = obj(s.audit);
  const operator = obj(s.operator);
  if (s.audit !== undefined || s.operator !== undefined) {
    const formats = Object.entries(obj(s.records))
      .map(([k, v]) => `${k} ${formatCount(num(v))}`)
      .join(' · ');
    rows.push([
      'events',
      `${plural(num(audit.read), 'audit event')}, ${plural(num(operator.read), 'operator line')}${formats ? ` (${formats})` : ''}`,
    ]);
  }
  if (s.facts !== undefined) {
    const dupes = num(obj(s.dedupe).duplicates);
    rows.push([
      'kept',
      `${plural(num(s.facts), 'fact')}${dupes ? `; ${plural(dupes, 'duplicate event')} dropped` : ''}`,
    ]);
  }
  const skipped = Object.entries(obj(s.skipped)).filter(([, v]) => num(v) > 0);
  const details = Array.isArray(s.details) ? (s.details as Array<Record<string, unknown>>) : [];
  // Places inside a folder given as input are written relative to it: the inputs row says which.
  const folders = given.filter((g) => g !== '-').map((g) => (g.endsWith('/') ? g : `${g}/`));
  const rel = (source: unknown) => {
    const text = String(source);
    const folder = folders.find((f) => text.startsWith(f) && text.length > f.length);
    return folder ? text.slice(folder.length) : text;
  };
  const where = (d: Record<string, unknown>) =>
    `${rel(d.source)}${num(d.line) > 0 ? `:${num(d.line)}` : ''}${d.note ? ` (${String(d.note)})` : ''}`;
  const some = (list: string[], max = 5) =>
    list.length > max
      ? `${list.slice(0, max).join('; ')}; and ${list.length - max} more (see --format json)`
      : list.join('; ');
  if (skipped.length) {
    const lines = details.filter((d) => num(d.line) > 0).map((d) => `${where(d)} ${String(d.reason)}`);
    rows.push([
      'skipped',
      `${skipped.map(([k, v]) => `${formatCount(num(v))} ${k}`).join(', ')}${lines.length ? ` — ${some(lines, 3)}` : ''}`,
    ]);
  }
  const damaged = details
    .filter(
      (d) => num(d.line) === 0 && ['gzip-truncated', 'gzip-corrupt', 'read-error'].includes(String(d.reason)),
    )
    .map((d) => `${rel(d.source)}: ${String(d.reason)}`);
  if (damaged.length) rows.push(['read in part', some(damaged)]);
  const foreign = details.filter((d) => d.reason === 'foreign-file').map((d) => rel(d.source));
  if (num(files.foreign))
    rows.push(['not logs', some(foreign.length ? foreign : [`${num(files.foreign)} file(s)`])]);
  const errors = inputErrorsOf(doc);
  if (errors.length)
    rows.push([
      'failed',
      some(
        errors.map((e) => `${e.input}: ${e.reason}`),
        10,
      ),
    ]);
  const notes = notesOf(doc);
  if (notes.length) rows.push(['notes', notes.join('; ')]);
  const end = typeof s.dataEndsAt === 'string' ? s.dataEndsAt : null;
  if (end) rows.push(['logs end', `${formatTimestamp(end)} UTC`]);
  if (typeof s.since === 'string') rows.push(['since', `${formatTimestamp(s.since)} UTC`]);
  if (s.clusters && typeof s.clusters === 'object')
    rows.push(['clusters', Object.keys(obj(s.clusters)).join(', ')]);
  if (s.files === undefined || typeof s.files !== 'object') {
    // A document from elsewhere, in a shape of its own: list it as it is.
    rows.push(...summaryRows(Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'inputs')), 40));
  }
  return rows;
}

/** A section's title: `Recreations (27)`, or with a downscale `Recreations (27) and brokers removed (3)`. */
export function recreationsTitle(recreations: readonly Recreation[]): string {
  const removed = recreations.filter(isBrokerRemoval).length;
  const recreated = formatCount(recreations.length - removed);
  return removed
    ? `Recreations (${recreated}) and brokers removed (${formatCount(removed)})`
    : `Recreations (${recreated})`;
}

/** `3 recreations`, or with a downscale `2 recreations, 1 broker removed (downscale)`. */
export function recreationCount(recreations: readonly Recreation[]): string {
  const removed = recreations.filter(isBrokerRemoval).length;
  const head = plural(recreations.length - removed, 'recreation');
  return removed ? `${head}, ${plural(removed, 'broker')} removed (downscale)` : head;
}

/** What followed the deleted pod: its successor's name, or why there is none. */
export function successorLabel(r: Recreation): string {
  if (r.createdPod) return r.createdPod.name;
  return isBrokerRemoval(r) ? '(none: broker removed by a downscale)' : '(none)';
}
