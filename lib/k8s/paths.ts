// The contract's field path syntax (shared/spec/findings-contract.md): dot-separated from the
// Pod root, merge-keyed list elements addressed as [key=value], atomic lists as a whole, map
// keys holding dots or slashes quoted as ["..."].

import { isArray, isObject } from './json-value';
import { listStrategy } from './pod-schema';

export type PathSegment = string | { key: string; value: string }; /* merge-keyed list element */

/** A key that can be written bare: what a Go field name or a simple label key looks like. */
const BARE_KEY = /^[A-Za-z0-9_$-]+$/;
/** A merge-key value is written bare unless it could be mistaken for the bracket's end. */
const BARE_VALUE = /^[^\]"[]*$/;

export function formatPath(segments: PathSegment[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'string') {
      if (BARE_KEY.test(seg)) out += out.length === 0 ? seg : `.${seg}`;
      else out += `[${JSON.stringify(seg)}]`;
    } else {
      const value = BARE_VALUE.test(seg.value) ? seg.value : JSON.stringify(seg.value);
      out += `[${seg.key}=${value}]`;
    }
  }
  return out;
}

/** Renders a merge-key value the way it appears in a path (numbers such as containerPort as digits). */
export function mergeKeyValueString(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** RFC 6901 unescaping: ~1 is '/', ~0 is '~', in that order. */
function unescapePointerToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

const INDEX_TOKEN = /^(0|[1-9][0-9]*|-)$/;

/**
 * Converts an RFC 6901 pointer (a JSON-patch op's path) into a contract path.
 * `resolveAgainst` is the object the op applies to (the event's stored object): an index into a
 * merge-keyed list becomes [key=value] from the element at that index. `opValue`, when given,
 * names an element the op appends ('-') or one missing from `resolveAgainst`.
 * An index or '-' inside an atomic or set list, or one that cannot be resolved, collapses to
 * the list's own path: the contract has no index syntax, and an atomic list is one field.
 */
export function jsonPointerToPath(pointer: string, resolveAgainst: unknown, opValue?: unknown): string {
  if (pointer === '' || pointer === '/') return '';
  const tokens = (pointer.startsWith('/') ? pointer.slice(1) : pointer).split('/').map(unescapePointerToken);
  const segments: PathSegment[] = [];
  const schemaPath: string[] = [];
  let node: unknown = resolveAgainst;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const isLast = i === tokens.length - 1;
    const looksLikeIndex = INDEX_TOKEN.test(t);
    if (isArray(node) || (node === undefined && looksLikeIndex && segments.length > 0)) {
      if (!looksLikeIndex) break;
      const strategy = listStrategy(schemaPath);
      if (strategy.kind !== 'merge') break;
      const element = t === '-' || !isArray(node) ? undefined : node[Number(t)];
      const source = isObject(element) ? element : isLast && isObject(opValue) ? opValue : undefined;
      if (source === undefined || source[strategy.key] === undefined || source[strategy.key] === null) break;
      segments.push({ key: strategy.key, value: mergeKeyValueString(source[strategy.key]) });
      node = element;
      continue;
    }
    segments.push(t);
    schemaPath.push(t);
    node = isObject(node) ? node[t] : undefined;
  }
  return formatPath(segments);
}
