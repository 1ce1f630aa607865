// The fields that differ between two pods, in the contract's path syntax, at the granularity a
// strategic merge patch works at: maps key by key, merge-keyed list elements by key, atomic and
// set lists as one value, quantities as the strings the patch compares. Used to name what a non-empty patch changes
// (by comparing a pod with the same pod after the patch).

import { deepEqual, isObject, type JsonObject } from './json-value';
import { formatPath, mergeKeyValueString, type PathSegment } from './paths';
import { listStrategy } from './pod-schema';

export interface FieldChange {
  path: string;
  /** The value in the first pod; null where absent. */
  before: unknown;
  /** The value in the second pod; null where absent. */
  after: unknown;
}

export function diffFields(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, [], [], out);
  return out;
}

function emit(out: FieldChange[], segments: PathSegment[], before: unknown, after: unknown): void {
  out.push({ path: formatPath(segments), before: before ?? null, after: after ?? null });
}

function walk(
  b: unknown,
  a: unknown,
  schemaPath: string[],
  segments: PathSegment[],
  out: FieldChange[],
): void {
  // The same object has no differences (strategicMerge shares what a patch leaves alone).
  if (b === a) return;
  const bothMapsOrMissing = (isObject(b) || b === undefined) && (isObject(a) || a === undefined);
  if (bothMapsOrMissing && (isObject(b) || isObject(a))) {
    const bm: JsonObject = isObject(b) ? b : {};
    const am: JsonObject = isObject(a) ? a : {};
    for (const k of unionKeys(bm, am)) walk(bm[k], am[k], [...schemaPath, k], [...segments, k], out);
    return;
  }
  const strategy = listStrategy(schemaPath);
  if (
    strategy.kind === 'merge' &&
    (Array.isArray(b) || b === undefined) &&
    (Array.isArray(a) || a === undefined)
  ) {
    if (walkMergeList(b ?? [], a ?? [], strategy.key, schemaPath, segments, out)) return;
  }
  if (!deepEqual(b, a)) emit(out, segments, b, a);
}

function unionKeys(a: JsonObject, b: JsonObject): string[] {
  const keys = Object.keys(a);
  for (const k of Object.keys(b)) if (!Object.prototype.hasOwnProperty.call(a, k)) keys.push(k);
  return keys;
}

/**
 * Elements are matched by merge key and compared field by field; one present on one side only
 * is one field. A change of order among the shared elements is a field on the list itself,
 * valued by the merge keys in each order. Returns false (compare the lists whole) when an
 * element lacks its key or a key repeats, since elements cannot then be told apart.
 */
function walkMergeList(
  b: unknown[],
  a: unknown[],
  mergeKey: string,
  schemaPath: string[],
  segments: PathSegment[],
  out: FieldChange[],
): boolean {
  const bk = keyed(b, mergeKey);
  const ak = keyed(a, mergeKey);
  if (bk === null || ak === null) return false;
  const bKeys = [...bk.keys()];
  const aKeys = [...ak.keys()];
  const sharedB = bKeys.filter((k) => ak.has(k));
  const sharedA = aKeys.filter((k) => bk.has(k));
  if (!deepEqual(sharedB, sharedA)) {
    emit(
      out,
      segments,
      sharedB.map((k) => bk.get(k)?.key),
      sharedA.map((k) => ak.get(k)?.key),
    );
  }
  for (const k of bKeys) {
    const elemSegments: PathSegment[] = [...segments, { key: mergeKey, value: k }];
    const after = ak.get(k)?.elem;
    // An element removed is one field, like one added below, not one per leaf inside it.
    if (after === undefined) emit(out, elemSegments, bk.get(k)?.elem, undefined);
    else walk(bk.get(k)?.elem, after, schemaPath, elemSegments, out);
  }
  for (const k of aKeys) {
    if (bk.has(k)) continue;
    emit(out, [...segments, { key: mergeKey, value: k }], undefined, ak.get(k)?.elem);
  }
  return true;
}

function keyed(list: unknown[], mergeKey: string): Map<string, { key: unknown; elem: JsonObject }> | null {
  const m = new Map<string, { key: unknown; elem: JsonObject }>();
  for (const e of list) {
    if (!isObject(e) || e[mergeKey] === undefined || e[mergeKey] === null) return null;
    const k = mergeKeyValueString(e[mergeKey]);
    if (m.has(k)) return null;
    m.set(k, { key: e[mergeKey], elem: e });
  }
  return m;
}
