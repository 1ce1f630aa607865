// The simulator's own model of koperator's restart decision (koperator-diff-semantics.md), used
// to state the ground truth: which declared fields differ, in the contract's path syntax.
//  - threeWayDelta(modified, current): every value the desired pod declares that the live pod
//    holds differently (anything only in the live pod is ignored), merge-keyed lists matched
//    by key, atomic lists compared whole, quantities compared by value;
//  - twoWayDiff(original, modified): what koperator's own desired spec changed (the fix's
//    intent diff, and the fields of an intent change).
// It is deliberately independent of lib/k8s, so the truth does not inherit an analyzer bug.
import { deepEqual, isObject, stripNullsAndEmpty, type JsonObject, type JsonValue } from './json';
import { formatPath, mergeKeyOf, type PathSegment } from './paths';
import { quantitiesEqual } from './quantity';

export interface DiffEntry {
  path: string;
  segments: PathSegment[];
  /** Declared (delta) or original (two-way) value; undefined where absent. */
  from: JsonValue | undefined;
  /** Live (delta) or modified (two-way) value; undefined where absent. */
  to: JsonValue | undefined;
}

function isQuantityPath(segments: readonly PathSegment[]): boolean {
  const keys = segments.map((s) => ('key' in s ? s.key : '[]'));
  const n = keys.length;
  return (
    (n >= 3 && keys[n - 3] === 'resources' && (keys[n - 2] === 'requests' || keys[n - 2] === 'limits')) ||
    (n >= 2 && keys[n - 2] === 'overhead') ||
    keys[n - 1] === 'sizeLimit'
  );
}

function scalarEqual(a: JsonValue, b: JsonValue, segments: readonly PathSegment[]): boolean {
  if (typeof a === 'string' && typeof b === 'string' && isQuantityPath(segments))
    return quantitiesEqual(a, b);
  return deepEqual(a, b);
}

function keyOf(e: JsonValue, mk: string): string | number | undefined {
  if (!isObject(e)) return undefined;
  const v = e[mk];
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

type Mode = 'delta' | 'two-way';

function walk(
  a: JsonValue | undefined,
  b: JsonValue | undefined,
  segs: PathSegment[],
  mode: Mode,
  out: DiffEntry[],
): void {
  const emit = (): void => {
    out.push({ path: formatPath(segs), segments: segs.slice(), from: a, to: b });
  };
  if (a === undefined && b === undefined) return;
  if (a === undefined) {
    if (mode === 'two-way') emit();
    return;
  }
  if (b === undefined) {
    emit();
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = mode === 'delta' ? Object.keys(a) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) walk(a[k], b[k], [...segs, { key: k }], mode, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const mk = mergeKeyOf(segs);
    if (mk === null) {
      if (!deepEqual(a, b)) emit();
      return;
    }
    const seen = new Set<string | number>();
    const ordered = mode === 'delta' ? a : [...a, ...b];
    for (const e of ordered) {
      const k = keyOf(e, mk);
      if (k === undefined || seen.has(k)) continue;
      seen.add(k);
      const ea = a.find((x) => keyOf(x, mk) === k);
      const eb = b.find((x) => keyOf(x, mk) === k);
      walk(ea, eb, [...segs, { mergeKey: mk, value: k }], mode, out);
    }
    return;
  }
  if (isObject(a) || isObject(b) || Array.isArray(a) || Array.isArray(b)) {
    emit();
    return;
  }
  if (!scalarEqual(a, b, segs)) emit();
}

/** Fields the desired pod declares and the live pod holds differently (koperator's delta). */
export function threeWayDelta(modified: JsonObject, current: JsonObject): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk(stripNullsAndEmpty(modified), stripNullsAndEmpty(current), [], 'delta', out);
  return out;
}

/** Fields koperator stopped declaring (the deletions half of the three-way patch). */
export function declaredDeletions(original: JsonObject, modified: JsonObject): DiffEntry[] {
  return twoWayDiff(original, modified).filter((d) => d.to === undefined);
}

/** Every declared difference between two desired pods (original → modified). */
export function twoWayDiff(original: JsonObject, modified: JsonObject): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk(stripNullsAndEmpty(original), stripNullsAndEmpty(modified), [], 'two-way', out);
  return out;
}

/**
 * koperator appends the live pod's tolerations to the desired ones when the desired pod
 * declares any (tolerations have no merge key), dropping whole-value duplicates, desired first.
 */
export function withLiveTolerations(desired: JsonObject, live: JsonObject): JsonObject {
  const spec = desired.spec;
  const liveSpec = live.spec;
  if (!isObject(spec) || !Array.isArray(spec.tolerations) || spec.tolerations.length === 0) return desired;
  const liveTolerations =
    isObject(liveSpec) && Array.isArray(liveSpec.tolerations) ? liveSpec.tolerations : [];
  const merged: JsonValue[] = [];
  for (const t of [...spec.tolerations, ...liveTolerations])
    if (!merged.some((m) => deepEqual(m, t))) merged.push(t);
  return { ...desired, spec: { ...spec, tolerations: merged } };
}

/**
 * A strategic-merge patch that would take the live pod to the desired values of `delta`
 * (the shape of the `patch` key of koperator's verbose "kafka pod resource diffs" line).
 */
export function deltaPatch(delta: readonly DiffEntry[], modified: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const d of delta) {
    let node: JsonObject = patch;
    let src: JsonValue | undefined = modified;
    const segs = d.segments;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      const last = i === segs.length - 1;
      if ('key' in s) {
        const next: PathSegment | undefined = segs[i + 1];
        src = isObject(src) ? src[s.key] : undefined;
        if (last) {
          node[s.key] = d.from === undefined ? null : d.from;
        } else if (next !== undefined && 'mergeKey' in next) {
          // A merge-keyed list: the element patch goes in a list, with the desired order.
          if (!Array.isArray(node[s.key])) node[s.key] = [];
          if (Array.isArray(src)) {
            node[`$setElementOrder/${s.key}`] = src
              .filter(isObject)
              .map((e) => ({ [next.mergeKey]: e[next.mergeKey] }));
          }
          const list = node[s.key] as JsonValue[];
          let el = list.find((e) => isObject(e) && e[next.mergeKey] === next.value);
          if (!isObject(el)) {
            el = { [next.mergeKey]: next.value };
            list.push(el);
          }
          src = Array.isArray(src)
            ? src.find((e) => isObject(e) && e[next.mergeKey] === next.value)
            : undefined;
          i++;
          if (i === segs.length - 1) {
            if (isObject(d.from)) Object.assign(el, d.from);
          } else {
            node = el;
          }
        } else {
          if (!isObject(node[s.key])) node[s.key] = {};
          node = node[s.key] as JsonObject;
        }
      }
    }
  }
  return patch;
}
