// A field change in the lines every output prints (table, Markdown, HTML, Slack, chat, email,
// explain-pod): one line per step of valueChanges, so a term appended to an atomic list reads
// `+ [1] {weight: 50, podAffinityTerm.topologyKey: topology.kubernetes.io/zone, …}` and a
// scalar reads `4Gi → 6Gi` wherever a person looks.
import { isObject } from '../k8s/json-value';
import { compactValue, scalarText, valueChanges, type ValueChange } from '../k8s/value-change';
import { truncate } from './format';
import { shortenChange } from './shorten-change';

export interface ChangedField {
  path: string;
  from: unknown;
  to: unknown;
  /** The steps already worked out (a trimmed alert keeps them when it shortens from/to). */
  change?: ValueChange[];
}

export interface ChangeLineOptions {
  /** Characters a line may take; an element's identity is never cut, its content is. */
  max?: number;
  /** Lines at most; the rest are counted in a last line. */
  maxLines?: number;
}

const DEFAULT_MAX = 120;
const DEFAULT_LINES = 6;
/** Content keeps at least this much however long the identity before it. */
const MIN_CONTENT = 16;

/** The steps of a field's change: the ones it carries, else worked out from its values. */
export function changeOf(f: ChangedField): ValueChange[] {
  return f.change ?? valueChanges(f.path, f.from, f.to);
}

/** The lines a person reads for one field's change, never empty. */
export function changeLines(f: ChangedField, opts: ChangeLineOptions = {}): string[] {
  const max = opts.max ?? DEFAULT_MAX;
  const maxLines = Math.max(1, opts.maxLines ?? DEFAULT_LINES);
  const steps = changeOf(f);
  // Equal values (a quantity written two ways) still show what each side held.
  if (steps.length === 0) return [pair(f.from, f.to, max)];
  const shown = steps.length > maxLines ? steps.slice(0, maxLines - 1) : steps;
  const lines = shown.map((s) => stepLine(s, max));
  if (shown.length < steps.length) lines.push(`… ${steps.length - shown.length} more changes`);
  return lines;
}

/** One step as a line: `+ [1] {…}`, `- ["sidecar.istio.io/inject"]: true`, `~ [name=kafka].image: a → b`. */
export function stepLine(s: ValueChange, max: number = DEFAULT_MAX): string {
  switch (s.op) {
    case 'add':
    case 'remove': {
      const head = `${s.op === 'add' ? '+' : '-'} ${s.at === '' ? '' : isElement(s.at) ? `${s.at} ` : `${s.at}: `}`;
      const value = withoutIdentity(s.op === 'add' ? s.to : s.from, s.at);
      return head + compactValue(value, Math.max(MIN_CONTENT, max - head.length));
    }
    case 'change': {
      const head = s.at === '' ? '' : `~ ${s.at}: `;
      return head + pair(s.from, s.to, Math.max(MIN_CONTENT * 2, max - head.length));
    }
    case 'order': {
      const head = `${s.at === '' ? '' : `${s.at}: `}order changed: `;
      const room = Math.max(MIN_CONTENT, Math.floor((max - head.length - 3) / 2));
      return `${head}${names(s.from, room)} → ${names(s.to, room)}`;
    }
  }
}

/** `from → to` in `max` characters: scalars keep the part that differs, objects their first leaves. */
function pair(from: unknown, to: unknown, max: number): string {
  const each = Math.max(MIN_CONTENT / 2, Math.floor((max - 3) / 2));
  const text = (v: unknown): string =>
    v === null || v === undefined ? '(unset)' : compactValue(v, Infinity);
  const [a, b] = shortenChange(text(from), text(to), each);
  return `${a} → ${b}`;
}

function names(v: unknown, max: number): string {
  // The names are already text (compactValue's), so no quoting again.
  return truncate(Array.isArray(v) ? v.map(String).join(', ') : scalarText(v), max);
}

/** An element's content without the keys its location already names (`[name=kafka]`: no `name`). */
function withoutIdentity(v: unknown, at: string): unknown {
  const bracket = /\[([^\]]*)\]$/.exec(at);
  if (!bracket || !isObject(v)) return v;
  const named = new Set([...bracket[1].matchAll(/(?:^|,)([A-Za-z][A-Za-z0-9]*)=/g)].map((m) => m[1]));
  return Object.fromEntries(Object.entries(v).filter(([k]) => !named.has(k)));
}

/** A list element (`[1]`, `[name=kafka]`) rather than a map key written in brackets (`["a.b/c"]`). */
function isElement(at: string): boolean {
  return at.endsWith(']') && !/\["(?:[^"\\]|\\.)*"\]$/.test(at);
}
