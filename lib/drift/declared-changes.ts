// What one write changed on a broker pod that koperator declares (drift.md, "What counts"):
// the fields whose stored value changed between the pod just before and just after the write,
// kept where the path is present in last-applied and the new value is not the declared one;
// tolerations added, declared or not; ephemeral containers added. The write's body is never
// read for this: states are compared, so every patch form and a full update read alike.
import { sameFieldValue, valueAtPath } from '../analyze/field-value';
import { diffFields } from '../k8s/field-diff';
import { deepEqual, isObject } from '../k8s/json-value';
import { formatPath } from '../k8s/paths';
import type { DriftField } from '../model/findings';
import type { Pod } from './pod-states';

export const TOLERATIONS_PATH = 'spec.tolerations';

/** Leaves of a declared field that changed to a value other than the declared one, or were removed. */
export function declaredFieldChanges(declared: Pod, before: Pod, after: Pod): DriftField[] {
  const out: DriftField[] = [];
  for (const c of diffFields(before, after)) {
    if (
      c.path === TOLERATIONS_PATH ||
      c.path.startsWith('spec.ephemeralContainers') ||
      c.path.startsWith('status')
    )
      continue;
    const declaredValue = valueAtPath(declared, c.path);
    if (declaredValue === undefined) continue;
    const stored = valueAtPath(after, c.path);
    // A reordering of a merge-keyed list is named on the list, valued by its keys: not a value written.
    if (Array.isArray(stored) && !deepEqual(stored, c.after)) continue;
    if (sameFieldValue(declaredValue, stored)) continue;
    out.push({ path: c.path, declared: declaredValue, to: stored ?? null });
  }
  return out;
}

/**
 * `spec.tolerations` when the write added one: a toleration lets the pod stay where it was
 * never meant to run, whether or not koperator declares any. `ignore` are tolerations not to
 * count as added (those admission adds, when the state before is only the declared stand-in).
 */
export function addedTolerations(
  declared: Pod,
  before: Pod,
  after: Pod,
  ignore: (t: unknown) => boolean = () => false,
): DriftField | null {
  const was = listAt(before, TOLERATIONS_PATH);
  const now = listAt(after, TOLERATIONS_PATH);
  const added = now.filter((t) => !ignore(t) && !was.some((w) => deepEqual(w, t)));
  if (added.length === 0) return null;
  return { path: TOLERATIONS_PATH, declared: valueAtPath(declared, TOLERATIONS_PATH) ?? null, to: now };
}

/** The tolerations Kubernetes' DefaultTolerationSeconds admission plugin adds to every pod. */
export function isDefaultToleration(t: unknown): boolean {
  return (
    isObject(t) &&
    t.operator === 'Exists' &&
    t.effect === 'NoExecute' &&
    (t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable')
  );
}

/** Ephemeral containers in `after` whose names `before` does not have, one field each. */
export function addedEphemeralContainers(before: unknown[], after: unknown[]): DriftField[] {
  const had = new Set(before.filter(isObject).map((c) => String(c.name)));
  return after
    .filter(isObject)
    .filter((c) => !had.has(String(c.name)))
    .map((c) => ({
      path: formatPath(['spec', 'ephemeralContainers', { key: 'name', value: String(c.name) }]),
      declared: null,
      to: c,
    }));
}

export function ephemeralContainersOf(pod: Pod | null): unknown[] {
  return pod ? listAt(pod, 'spec.ephemeralContainers') : [];
}

function listAt(pod: Pod, path: string): unknown[] {
  const v = valueAtPath(pod, path);
  return Array.isArray(v) ? v : [];
}
