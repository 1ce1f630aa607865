// Whether a patch body sends the whole object (what a hot loop's writer sends, fights.md) or a
// few fields. The body's shape, not its patch type, decides: an apply names its kind, but a
// typed Go object marshalled into a JSON merge patch has an empty TypeMeta (no kind, no
// apiVersion), and a strategic-merge patch of the whole spec may carry directives and no name.
// What all of them share is a spec that declares most of what the stored spec holds; a patch
// of a few fields (a GitOps tool's `spec.replicas`, an image bump) declares a small part of
// it. Defaulted fields are a minority of a spec's top-level keys (a StatefulSet's
// podManagementPolicy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and
// updateStrategy against its replicas, selector, template and serviceName).
import { isObject } from './json-value';

/** A body declaring at least this share of the stored spec's top-level keys sends the whole object. */
export const WHOLE_SPEC_SHARE = 0.5;

export function isWholeObjectPatch(body: unknown, stored: unknown): boolean {
  if (!isObject(body) || !isObject(body.spec) || !isObject(stored) || !isObject(stored.spec)) return false;
  const storedKeys = Object.keys(stored.spec);
  if (storedKeys.length === 0) return false;
  const declared = new Set(Object.keys(body.spec).filter((k) => !k.startsWith('$')));
  const covered = storedKeys.filter((k) => declared.has(k)).length;
  return covered >= storedKeys.length * WHOLE_SPEC_SHARE;
}
