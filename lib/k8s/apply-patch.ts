// Applying the writes found in audit logs to a reconstructed pod: JSON patches (webhooks,
// `kubectl patch --type json`), JSON merge patches and strategic merge patches (kubectl, the
// kubelet's status patches). Inputs are never mutated and nothing throws: a patch the API
// server would have refused comes back as { ok: false, reason }.

import { applyOperation, getValueByPointer, type Operation } from 'fast-json-patch';
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

/**
 * Bytes a patch's `copy` operations may duplicate. Each `copy` can double the document
 * (copy /spec to /spec/a, then /spec to /spec/b...), so twenty of them in a 1 KB
 * annotation would expand to gigabytes. Real webhooks copy little or nothing, and the
 * API server stores no pod much above 1 MiB, so a patch copying more is refused.
 */
export const MAX_COPIED_BYTES = 1024 * 1024;

/** RFC 6902, all-or-nothing like the API server: one failing op (a `test`, a missing path) fails the patch. */
export function applyJsonPatch(obj: unknown, ops: unknown): ApplyResult {
  if (!Array.isArray(ops)) return { ok: false, reason: 'JSON patch is not a list of operations' };
  const bad = ops.findIndex((op) => !isOperation(op));
  if (bad >= 0) return { ok: false, reason: `JSON patch operation ${bad} has no op or path` };
  try {
    let doc = cloneJson(obj);
    let copied = 0;
    const patch = cloneJson(ops as Operation[]);
    for (let i = 0; i < patch.length; i++) {
      const op = patch[i];
      if (op.op === 'copy') {
        copied += JSON.stringify(getValueByPointer(doc, op.from) ?? null).length;
        if (copied > MAX_COPIED_BYTES)
          return { ok: false, reason: `JSON patch copies more than ${MAX_COPIED_BYTES} bytes` };
      }
      // validate=true rejects unresolvable paths and bad ops; prototype keys stay banned.
      doc = applyOperation(doc, op, true, true, true, i).newDocument;
    }
    return { ok: true, value: doc };
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
