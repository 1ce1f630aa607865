// koperator's toleration merge before the live-pod diff (handleRollingUpgrade,
// pkg/resources/kafka/kafka.go): tolerations are an atomic list with no merge key, so when the
// desired pod declares any, the live pod's are appended and duplicates dropped, desired first.
//
// Duplicates are found with a Go map keyed by the corev1.Toleration struct, and its
// TolerationSeconds is a *int64: Go compares that field by pointer, so two tolerations that
// carry tolerationSeconds are never equal unless they are the same object. A desired toleration
// with tolerationSeconds therefore stays next to its live twin, and the merged list is longer
// than the live one (a permanent diff). Reproduced here: only tolerations without
// tolerationSeconds are deduplicated, by key, operator, value and effect.

import { getIn, isObject, type JsonObject } from '../k8s/json-value';

function field(t: JsonObject, k: string): string {
  const v = t[k];
  return typeof v === 'string' ? v : '';
}

/** The comparable identity of a toleration, or null when Go could never find it equal to another. */
function identity(t: unknown): string | null {
  if (!isObject(t)) return null;
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) return null;
  return JSON.stringify([field(t, 'key'), field(t, 'operator'), field(t, 'value'), field(t, 'effect')]);
}

/** Returns the desired pod with its tolerations merged with the live pod's; inputs are not mutated. */
export function mergeTolerations(desired: unknown, current: unknown): unknown {
  const declared = getIn(desired, ['spec', 'tolerations']);
  // `len(desiredPod.Spec.Tolerations) > 0`: an empty list declares nothing.
  if (!Array.isArray(declared) || declared.length === 0 || !isObject(desired) || !isObject(desired.spec)) {
    return desired;
  }
  const live = getIn(current, ['spec', 'tolerations']);
  const all = [...declared, ...(Array.isArray(live) ? live : [])];
  const seen = new Set<string>();
  const unique: unknown[] = [];
  for (const t of all) {
    const id = identity(t);
    if (id !== null) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    unique.push(t);
  }
  return { ...desired, spec: { ...desired.spec, tolerations: unique } };
}

/**
 * The desired tolerations the merge keeps beside an equal live one: those with
 * tolerationSeconds that the live pod also holds. Each makes the merged list longer than the
 * live one for as long as both pods carry it, so koperator before its fix restarts the broker
 * at every reconcile, and its successor again.
 */
export function twinsKept(desired: unknown, current: unknown): unknown[] {
  const declared = getIn(desired, ['spec', 'tolerations']);
  const live = getIn(current, ['spec', 'tolerations']);
  if (!Array.isArray(declared) || !Array.isArray(live)) return [];
  const liveText = new Set(live.map((t) => JSON.stringify(sortedKeys(t))));
  return declared.filter(
    (t) => identity(t) === null && isObject(t) && liveText.has(JSON.stringify(sortedKeys(t))),
  );
}

function sortedKeys(t: unknown): unknown {
  return isObject(t)
    ? Object.fromEntries(
        Object.keys(t)
          .sort()
          .map((k) => [k, t[k]]),
      )
    : t;
}
