// Applying the writes found in audit logs to a reconstructed pod: JSON patches (webhooks,
// `kubectl patch --type json`), JSON merge patches and strategic merge patches (kubectl, the
// kubelet's status patches). Inputs are never mutated and nothing throws: a patch the API
// server would have refused comes back as { ok: false, reason }.

import { applyPatch, type Operation } from 'fast-json-patch';
import { cloneJson, isObject, type JsonObject } from './json-value';
import { stripLeftoverDirectives } from './smp-directives';
import { strategicMerge } from './smp-merge';

export type ApplyResult = { ok: true; value: unknown } | { ok: false; reason: string };

function reasonOf(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0];
  return String(e);
}

function isOperation(v: unknown): v is Operation {
  return isObject(v) && typeof v.op === 'string' && typeof v.path === 'string';
}

/** RFC 6902, all-or-nothing like the API server: one failing op (a `test`, a missing path) fails the patch. */
export function applyJsonPatch(obj: unknown, ops: unknown): ApplyResult {
  if (!Array.isArray(ops)) return { ok: false, reason: 'JSON patch is not a list of operations' };
  const bad = ops.findIndex((op) => !isOperation(op));
  if (bad >= 0) return { ok: false, reason: `JSON patch operation ${bad} has no op or path` };
  try {
    const doc = cloneJson(obj);
    // validate=true rejects unresolvable paths and bad ops up front; prototype keys stay banned.
    const result = applyPatch(doc, cloneJson(ops as Operation[]), true, true);
    return { ok: true, value: result.newDocument };
  } catch (e) {
    return { ok: false, reason: reasonOf(e) };
  }
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function applyMergePatch(obj: unknown, patch: unknown): ApplyResult {
  return { ok: true, value: mergePatch(cloneJson(obj), cloneJson(patch)) };
}

/** Works in place on private copies made by applyMergePatch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? target : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * A strategic merge patch against the Pod schema: merge keys, `$patch` (delete/replace),
 * `$retainKeys`, `$setElementOrder`, `$deleteFromPrimitiveList`. Directive keys left over in
 * wholly added maps are dropped, as the API server's decoding into a Pod drops them.
 */
export function applyStrategicMergePatch(obj: unknown, patch: unknown): ApplyResult {
  try {
    return { ok: true, value: stripLeftoverDirectives(strategicMerge(obj, patch)) };
  } catch (e) {
    return { ok: false, reason: reasonOf(e) };
  }
}
