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
    // fast-json-patch works in place. Rather than a copy of the whole pod per webhook patch,
    // each operation gets copies of the containers on its way (path copying): the rest stays
    // shared with the input, and the patch's values enter the result as they are. Neither
    // the input nor the patch is ever mutated; the result must not be either (nothing does).
    const owned = new Set<object>();
    let doc: unknown = obj;
    let copied = 0;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i] as Operation;
      if (op.op === 'copy') {
        copied += JSON.stringify(getValueByPointer(doc, op.from) ?? null).length;
        if (copied > MAX_COPIED_BYTES)
          return { ok: false, reason: `JSON patch copies more than ${MAX_COPIED_BYTES} bytes` };
      }
      // RFC 6902 4.4: a location cannot be moved into one of its children (the API server
      // refuses it; fast-json-patch would build a cycle).
      if (op.op === 'move' && op.path !== op.from && (op.from === '' || op.path.startsWith(`${op.from}/`)))
        return {
          ok: false,
          reason: `JSON patch operation ${i} moves ${op.from || 'the document'} into itself`,
        };
      if (op.op !== 'test') {
        doc = copiedAlong(doc, op.path, owned);
        if (op.op === 'move') doc = copiedAlong(doc, op.from, owned);
      }
      // validate=true rejects unresolvable paths and bad ops; prototype keys stay banned.
      doc = applyOperation(doc, op, true, true, true, i).newDocument;
    }
    return { ok: true, value: doc };
  } catch (e) {
    return { ok: false, reason: reasonOf(e) };
  }
}

/**
 * `doc` with its root and every container down to the parent of `pointer`'s target replaced
 * by shallow copies (once per patch: `owned` holds the copies made), walking keys exactly as
 * fast-json-patch does (an array index is any run of digits, even none, read with `~~`).
 * Where the way leaves what exists (a missing key or index, a scalar) copying stops, and
 * fast-json-patch's validation then refuses the operation before it writes anything. A key
 * only the prototype has (`constructor`, `toString`) is refused here: fast-json-patch would
 * walk into the built-ins and write there.
 */
function copiedAlong(doc: unknown, pointer: string, owned: Set<object>): unknown {
  if (pointer === '' || doc === null || typeof doc !== 'object') return doc;
  const root = own(doc, owned);
  const keys = pointer.split('/');
  let parent: Record<string, unknown> | unknown[] = root;
  for (let t = 1; t < keys.length - 1; t++) {
    let key = keys[t];
    if (key.includes('~')) key = key.replace(/~1/g, '/').replace(/~0/g, '~');
    let child: unknown;
    if (Array.isArray(parent)) {
      if (!/^\d*$/.test(key)) return root;
      const i = ~~key;
      child = parent[i];
      if (child === null || typeof child !== 'object') return root;
      parent = parent[i] = own(child, owned);
    } else {
      if (!Object.prototype.hasOwnProperty.call(parent, key)) {
        if (key in parent) throw new Error(`JSON patch path ${pointer} goes through an inherited property`);
        return root;
      }
      child = parent[key];
      if (child === null || typeof child !== 'object') return root;
      parent = parent[key] = own(child, owned);
    }
  }
  return root;
}

function own(v: object, owned: Set<object>): Record<string, unknown> | unknown[] {
  if (owned.has(v)) return v as Record<string, unknown> | unknown[];
  const copy = Array.isArray(v) ? v.slice() : { ...(v as Record<string, unknown>) };
  owned.add(copy);
  return copy;
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
