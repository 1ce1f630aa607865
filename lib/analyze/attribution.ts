// Who set a field's live value: the last actor after the create whose write touched it,
// else the mutating webhook whose admission patch set it (patches replayed in (round,
// index) order on the pod as koperator sent it), else, at Metadata level, the webhooks
// that reported a mutation. Null where the logs cannot tell.
import type { Operation } from 'fast-json-patch';
import { applyJsonPatch } from '../k8s/apply-patch';
import { beforeWebhooks, type BeforeWebhooks } from '../k8s/builtin-admission';
import { jsonPointerToPath } from '../k8s/paths';
import { listStrategy } from '../k8s/pod-schema';
import type { PodWriteFact } from '../model/facts';
import type { WriteVia } from '../model/findings';
import { parseFieldPath, pathsOverlap, sameFieldValue, valueAtPath } from './field-value';
import { BoundedCache } from '../k8s/bounded-cache';
import { contentKey, membersKey } from '../k8s/content-id';
import { applyWrite, isObject } from './states';
import type { Incarnation } from './timeline';
import { actorOf } from '../k8s/actor';

export interface Attribution {
  by: string | null;
  /** How `by` wrote the value; absent when `by` is null. */
  via?: WriteVia;
  /** Audit IDs of the writes or admission the answer rests on. */
  evidence: string[];
  note?: string;
}

export function attributeField(inc: Incarnation, path: string, operatorUsers: Set<string>): Attribution {
  const later = lastLaterWriter(inc, path, operatorUsers);
  if (later) return later;
  return webhookAuthor(inc, path);
}

function lastLaterWriter(inc: Incarnation, path: string, operatorUsers: Set<string>): Attribution | null {
  let state: unknown = inc.create?.response;
  let found: Attribution | null = null;
  const end = inc.deletion?.facts[0];
  for (const w of inc.writes) {
    if (w === end) break;
    if (w.verb === 'delete' || w.subresource === 'status' || w.subresource === 'eviction') continue;
    const touched = touches(w, state, path);
    if (isObject(w.response)) state = w.response;
    else if (state && w.verb === 'patch' && w.request !== undefined) state = applyWrite(state, w) ?? state;
    if (!touched) continue;
    found = operatorUsers.has(w.user)
      ? null
      : { by: actorOf(w), via: w.subresource === 'resize' ? 'resize' : 'write', evidence: [w.auditID] };
  }
  return found;
}

/** Did this write change (or name) the field? */
function touches(w: PodWriteFact, before: unknown, path: string): boolean {
  // At Metadata level a resize shows no body, but the subresource only writes resources.
  if (w.subresource === 'resize' && w.request === undefined && !isObject(w.response)) {
    return /\.resources(\.|$)/.test(path);
  }
  if (w.verb === 'patch' && w.request !== undefined) {
    return namedPaths(w, before).some((p) => pathsOverlap(path, p));
  }
  if (before !== undefined && isObject(w.response)) {
    return !sameFieldValue(valueAtPath(before, path), valueAtPath(w.response, path));
  }
  return false;
}

/** The fields a patch body names, in contract path syntax. */
export function namedPaths(w: PodWriteFact, before: unknown): string[] {
  const body = w.request;
  if (Array.isArray(body)) {
    const resolveAgainst = w.response ?? before;
    return body
      .filter(isObject)
      .flatMap((op) => [op.path, op.from])
      .filter((p): p is string => typeof p === 'string')
      .map((p) => jsonPointerToPath(p, resolveAgainst));
  }
  const out: string[] = [];
  if (isObject(body)) walkBody(body, [], [], out);
  return out;
}

function walkBody(node: Record<string, unknown>, schemaPath: string[], parts: string[], out: string[]): void {
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('$')) continue;
    const keyPart = /^[A-Za-z0-9_-]+$/.test(k) ? k : `["${k}"]`;
    const here = [...parts, keyPart];
    const sp = [...schemaPath, k];
    if (isObject(v) && Object.keys(v).length > 0) {
      walkBody(v, sp, here, out);
    } else if (Array.isArray(v)) {
      const strategy = listStrategy(sp);
      if (strategy.kind === 'merge') {
        for (const el of v) {
          if (!isObject(el) || el[strategy.key] === undefined) continue;
          const elemPart = `[${strategy.key}=${String(el[strategy.key])}]`;
          const rest = Object.fromEntries(Object.entries(el).filter(([ek]) => ek !== strategy.key));
          if (Object.keys(rest).length === 0) out.push(join([...here, elemPart]));
          else walkBody(rest, sp, [...here, elemPart], out);
        }
      } else {
        out.push(join(here));
      }
    } else {
      out.push(join(here));
    }
  }
}

function join(parts: string[]): string {
  return parts.reduce((acc, p) => (acc === '' ? p : p.startsWith('[') ? acc + p : `${acc}.${p}`), '');
}

interface AdmissionStep {
  state: unknown;
  by: string;
}

/** One admission replayed: the pod after each webhook patch, and the answers given so far. */
interface Admission {
  steps: AdmissionStep[];
  /** Answers for paths that cannot see the pod's own identity (see shareableRequestKey). */
  authorByPath: Map<string, string | null>;
  /** Shared by every create with the same pod and patches, identity aside. */
  shared: boolean;
}

// Every pod of a restart loop is admitted alike: koperator sends the same desired pod and the
// webhooks answer with the same patches. Replaying one admission copies the pod once per
// webhook, so admissions are shared by content (the pod as sent, its identity aside, and the
// patches): a loop replays once, and what is kept is one admission, not a million.
const admissionsByContent = new BoundedCache<Admission>(1024, 64 * 2 ** 20);
const admissionOfCreate = new WeakMap<PodWriteFact, Admission>();

/** Per-pod metadata: differs between otherwise identical creates. */
const IDENTITY_FIELDS = new Set(['name', 'uid', 'resourceVersion', 'creationTimestamp']);

/** True when a JSON pointer or contract path (as keys) reaches the pod's identity, its metadata or the root. */
function seesIdentity(keys: string[]): boolean {
  return keys.length === 0 || (keys[0] === 'metadata' && (keys.length === 1 || IDENTITY_FIELDS.has(keys[1])));
}

function pointerKeys(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A key for the request with its identity left out, or null when some webhook patch reads or
 * writes that identity (a `test`, `copy` or `move` of the name, a replaced metadata): then the
 * answer may depend on it and the admission is replayed for this create alone.
 */
function shareableRequestKey(create: PodWriteFact, hooks: WebhookPatch[]): string | null {
  for (const [, , patch] of hooks) if (!patchSparesIdentity(patch)) return null;
  const request = create.request;
  if (!isObject(request) || !isObject(request.metadata)) return contentKey(request);
  const { metadata, spec, ...rest } = request;
  // The spec is a new object per create (the projection shares its members, not it): keyed by
  // its members, each with a key of its own after the first create, not serialised whole.
  const specKey = isObject(spec) ? membersKey(spec) : contentKey(spec);
  return `${membersKey(rest)}${specKey}${membersKey(metadata, IDENTITY_FIELDS)}`;
}

// Patches are shared objects in a loop (interned by the projection): each is checked once.
const sparesIdentity = new WeakMap<object, boolean>();

function patchSparesIdentity(patch: unknown): boolean {
  // Patches are unvalidated log data; anything odd is replayed alone, as before.
  if (!Array.isArray(patch)) return false;
  let spares = sparesIdentity.get(patch);
  if (spares === undefined) {
    spares = (patch as unknown[]).every(
      (op) =>
        isObject(op) &&
        typeof op.path === 'string' &&
        !seesIdentity(pointerKeys(op.path)) &&
        (op.from === undefined || (typeof op.from === 'string' && !seesIdentity(pointerKeys(op.from)))),
    );
    sparesIdentity.set(patch, spares);
  }
  return spares;
}

type WebhookPatch = [configuration: string, webhook: string, patch: Operation[]];

// Not remembered per create: the pod it holds is a copy, and creates live as long as the run.
function seenByWebhooks(create: PodWriteFact): BeforeWebhooks {
  return beforeWebhooks(create.request, create.response);
}

function admissionOf(create: PodWriteFact): Admission {
  const known = admissionOfCreate.get(create);
  if (known) return known;
  const hooks = hooksOf(create);
  const request = shareableRequestKey(create, hooks);
  const seen = seenByWebhooks(create);
  let admission: Admission;
  if (request === null) {
    admission = { steps: admissionSteps(create, seen), authorByPath: new Map(), shared: false };
  } else {
    // The key of the admission after each webhook: the request's, then each patch's.
    const keys = [`${request}${seen.additionsKey}`];
    for (const [c, w, p] of hooks)
      keys.push(`${keys[keys.length - 1]}${JSON.stringify([c, w])}${contentKey(p)}`);
    const key = keys[hooks.length];
    const shared = admissionsByContent.get(key);
    admission = shared ?? { steps: sharedSteps(keys, hooks, seen), authorByPath: new Map(), shared: true };
    if (!shared) admissionsByContent.set(key, admission);
  }
  admissionOfCreate.set(create, admission);
  return admission;
}

function hooksOf(create: PodWriteFact): WebhookPatch[] {
  return (create.webhooks ?? []).flatMap((h) =>
    h.patch ? [[h.configuration, h.webhook, h.patch] as WebhookPatch] : [],
  );
}

// Where a webhook writes a new value into every pod (a rightsizer following usage), no two
// admissions of a loop are alike, but the webhooks before it answer every pod alike: the
// steps up to each webhook are shared by content too (keyed as admissions are, by the patches
// so far), so a pod replays only the patches from its first unlike one on.
const stepsByContent = new BoundedCache<AdmissionStep[]>(1024, 64 * 2 ** 20);

/** The steps of a shareable admission whose prefix keys are `keys` (keys[i]: after i hooks). */
function sharedSteps(keys: string[], hooks: WebhookPatch[], seen: BeforeWebhooks): AdmissionStep[] {
  let steps: AdmissionStep[] = [{ state: seen.pod, by: '' }];
  let done = 0;
  for (let i = hooks.length - 1; i > 0; i--) {
    const known = stepsByContent.get(keys[i]);
    if (known === undefined) continue;
    steps = known.slice();
    done = i;
    break;
  }
  for (let i = done; i < hooks.length; i++) {
    replayHook(steps, hooks[i]);
    if (i + 1 < hooks.length) stepsByContent.set(keys[i + 1], steps.slice());
  }
  return steps;
}

/**
 * The pod as the first webhook saw it (koperator's request and what the built-in admission
 * plugins added), then after each webhook patch in (round, index) order.
 */
function admissionSteps(create: PodWriteFact, seen = seenByWebhooks(create)): AdmissionStep[] {
  const steps: AdmissionStep[] = [{ state: seen.pod, by: '' }];
  for (const h of hooksOf(create)) replayHook(steps, h);
  return steps;
}

/** `steps` with the pod after `hook`'s patch; a patch the API server would refuse adds no step. */
function replayHook(steps: AdmissionStep[], [configuration, webhook, patch]: WebhookPatch): void {
  const r = applyJsonPatch(steps[steps.length - 1].state, patch);
  if (r.ok) steps.push({ state: r.value, by: `${configuration}/${webhook}` });
}

/** The last webhook whose patch changed the value at `path`, or null. */
function admissionAuthor(create: PodWriteFact, path: string): string | null {
  const admission = admissionOf(create);
  const keys = parseFieldPath(path);
  // A shared admission holds another create's identity and token volume name: paths reaching
  // either are replayed alone.
  const cacheable =
    keys !== null &&
    !seesIdentity(keys.map((k) => ('key' in k ? k.key : ''))) &&
    !reachesTokenVolume(create, path);
  if (admission.shared && !cacheable) return authorIn(admissionSteps(create), path);
  const known = admission.authorByPath.get(path);
  if (known !== undefined) return known;
  const by = authorIn(admission.steps, path);
  admission.authorByPath.set(path, by);
  return by;
}

/** Whether `path` names this create's token volume (random per pod), checked only when it could. */
function reachesTokenVolume(create: PodWriteFact, path: string): boolean {
  if (!path.includes('kube-api-access-')) return false;
  const token = seenByWebhooks(create).tokenVolume;
  return token !== null && path.includes(token);
}

function authorIn(steps: AdmissionStep[], path: string): string | null {
  let by: string | null = null;
  for (let i = 1; i < steps.length; i++) {
    if (!sameFieldValue(valueAtPath(steps[i - 1].state, path), valueAtPath(steps[i].state, path)))
      by = steps[i].by;
  }
  return by;
}

function webhookAuthor(inc: Incarnation, path: string): Attribution {
  const create = inc.create;
  const hooks = create?.webhooks ?? [];
  if (!create || hooks.length === 0) return { by: null, evidence: [] };
  const withPatches = hooks.filter((h) => h.patch);
  if (withPatches.length > 0 && isObject(create.request)) {
    const by = admissionAuthor(create, path);
    return by ? { by, via: 'admission', evidence: [create.auditID] } : { by, evidence: [] };
  }
  // Metadata level: only which webhooks mutated the pod is known, not what they changed.
  const mutators = [...new Set(hooks.filter((h) => h.mutated).map((h) => `${h.configuration}/${h.webhook}`))];
  if (mutators.length === 0) return { by: null, evidence: [] };
  return {
    by: mutators.join(' or '),
    via: 'admission',
    evidence: [create.auditID],
    note:
      mutators.length === 1
        ? `${path}: the only mutating webhook at admission (audit at Metadata level, no patch body)`
        : `${path}: one of ${mutators.length} mutating webhooks (audit at Metadata level, no patch bodies)`,
  };
}
