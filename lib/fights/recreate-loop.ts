// Recreate loops of operators other than koperator (fights.md): the operator compares the live
// pod with the pod it wants, a mutating webhook made them differ, so it deletes the pod and
// creates its successor, which the webhook mutates again. A cycle is a delete (or a successful
// eviction) of a pod by the user that created it, followed within 60 s by that user's create
// of a pod with the same owner and slot, where a mutating webhook had patched the deleted pod
// and the owner did not scale down in the 30 s before. Fields and mutators come from the
// webhook admissions of the deleted pods (lib/facts/project-object.ts webhookChanges).
import type { Fight, FightTarget } from '../model/findings';
import type { PodWriteFact, WebhookMutation } from '../model/facts';
import { epochMicros } from '../analyze/time';
import { isObject, nonEmptyString as str, stringAt } from '../k8s/json-value';
import { groupOfApiVersion, resourceOfKind } from '../k8s/object-paths';
import type { FightOptions } from './options';
import { recreateLoopRecommendation } from './recommendation';
import { distinct, evidenceOf, runTiming, splitRuns, type Cycle } from './runs';
import { objectKey, type ObjectWrite } from './writes';

const SUCCESSOR_WITHIN_US = 60e6;
const SCALE_DOWN_WITHIN_US = 30e6;

interface Owner {
  apiGroup: string;
  resource: string;
  name: string;
  uid: string | null;
}

interface PodCreate {
  fact: PodWriteFact;
  at: number;
  namespace: string;
  name: string | null;
  uid: string | null;
  slot: string | null;
  owner: Owner | null;
  /** Webhooks that patched the pod at admission. */
  mutators: WebhookMutation[];
}

interface RecreateCycle extends Cycle {
  key: string;
  create: PodCreate;
  successor: PodCreate;
  user: string;
  ids: string[];
}

export function findRecreateLoops(
  pods: PodWriteFact[],
  objects: Map<string, ObjectWrite[]>,
  opts: FightOptions,
  newest: number,
): Fight[] {
  const creates: PodCreate[] = [];
  const byUid = new Map<string, PodCreate>();
  const byName = new Map<string, PodCreate>();
  const cycles: RecreateCycle[] = [];
  // Creates by (namespace, slot) in time order, to find a successor.
  const bySlot = new Map<string, PodCreate[]>();
  for (const f of pods) {
    if (f.verb !== 'create' || f.subresource !== null) continue;
    const c = podCreate(f);
    creates.push(c);
    if (c.uid) byUid.set(c.uid, c);
    if (c.name) byName.set(`${c.namespace}/${c.name}`, c);
    if (c.slot) {
      const k = `${c.namespace}/${c.slot}`;
      const list = bySlot.get(k);
      if (list) list.push(c);
      else bySlot.set(k, [c]);
    }
  }
  for (const f of pods) {
    const isDelete = f.verb === 'delete';
    const isEviction = f.verb === 'create' && f.subresource === 'eviction';
    if (!isDelete && !isEviction) continue;
    const at = epochMicros(f.at);
    const uid = f.uid ?? stringAt(f.response, 'metadata', 'uid');
    // By name only a create made before this deletion can be the deleted pod.
    let create = uid ? byUid.get(uid) : undefined;
    if (!create && f.name) {
      const named = byName.get(`${f.namespace}/${f.name}`);
      if (named && named.at < at && (!uid || !named.uid)) create = named;
    }
    if (!create || create.fact.user !== f.user || create.mutators.length === 0 || create.slot === null)
      continue;
    const successor = successorOf(bySlot.get(`${create.namespace}/${create.slot}`) ?? [], create, at, f.user);
    if (!successor) continue;
    if (create.owner && scaledDown(objects, create.namespace, create.owner, at)) continue;
    cycles.push({
      at,
      atText: f.at,
      key: `${create.namespace}\u0000${ownerKey(create.owner)}\u0000${create.slot}`,
      create,
      successor,
      user: f.user,
      ids: [f.auditID, create.fact.auditID, successor.fact.auditID],
    });
  }
  const byLoop = new Map<string, RecreateCycle[]>();
  for (const c of cycles) {
    const list = byLoop.get(c.key);
    if (list) list.push(c);
    else byLoop.set(c.key, [c]);
  }
  const out: Fight[] = [];
  for (const list of byLoop.values()) {
    for (const run of splitRuns(list, opts.loopMaxGapSeconds, opts.loopMinCount))
      out.push(toFight(run, newest));
  }
  return out;
}

/**
 * The first create of the slot by `user` within 60 s after `at`, with the deleted pod's owner.
 * `slot` is in time order (pods are): a binary search keeps a day of a fast loop linear-ish.
 */
function successorOf(slot: PodCreate[], create: PodCreate, at: number, user: string): PodCreate | undefined {
  let lo = 0;
  let hi = slot.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (slot[mid].at <= at) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < slot.length && slot[i].at - at <= SUCCESSOR_WITHIN_US; i++) {
    const c = slot[i];
    if (c !== create && c.fact.user === user && sameOwner(c.owner, create.owner)) return c;
  }
  return undefined;
}

function toFight(run: RecreateCycle[], newest: number): Fight {
  const first = run[0].create;
  const fields = distinct(run.flatMap((c) => c.create.mutators.flatMap((h) => h.paths ?? [])));
  const mutators = distinct(
    run.flatMap((c) => c.create.mutators.map((h) => `${h.configuration}/${h.webhook}`)),
  );
  const target: FightTarget = first.owner
    ? {
        apiGroup: first.owner.apiGroup,
        resource: first.owner.resource,
        name: first.owner.name,
        slot: first.slot!,
      }
    : { apiGroup: '', resource: 'pods', name: first.slot!, slot: first.slot! };
  const writers = distinct(run.map((c) => c.user));
  return {
    kind: 'recreate-loop',
    namespace: first.namespace,
    target,
    writers,
    mutators,
    fields,
    count: run.length,
    ...runTiming(run, newest),
    recommendation: recreateLoopRecommendation({ target, writers, mutators, fields }),
    evidence: evidenceOf(run.flatMap((c) => c.ids)),
  };
}

function podCreate(f: PodWriteFact): PodCreate {
  const meta = metadataOf(f.response) ?? metadataOf(f.request);
  const name = str(meta?.name) ?? f.name;
  const generateName = str(meta?.generateName);
  // A generated pod's slot is its generateName; a named one's, its name.
  const slot = generateName && (!name || name.startsWith(generateName)) ? generateName : name;
  return {
    fact: f,
    at: epochMicros(f.at),
    namespace: f.namespace,
    name,
    uid: str(meta?.uid) ?? f.uid,
    slot,
    owner: ownerOf(meta),
    mutators: (f.webhooks ?? []).filter((h) => h.mutated && (h.paths === undefined || h.paths.length > 0)),
  };
}

function ownerOf(meta: Record<string, unknown> | null): Owner | null {
  const refs = meta?.ownerReferences;
  if (!Array.isArray(refs)) return null;
  const refsOk = refs.filter(isObject);
  const ref = refsOk.find((r) => r.controller === true) ?? refsOk[0];
  if (!ref || typeof ref.kind !== 'string' || typeof ref.name !== 'string') return null;
  return {
    apiGroup: groupOfApiVersion(typeof ref.apiVersion === 'string' ? ref.apiVersion : ''),
    resource: resourceOfKind(ref.kind),
    name: ref.name,
    uid: str(ref.uid),
  };
}

function ownerKey(o: Owner | null): string {
  return o ? `${o.apiGroup}/${o.resource}/${o.name}` : '';
}

function sameOwner(a: Owner | null, b: Owner | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.uid && b.uid) return a.uid === b.uid;
  return ownerKey(a) === ownerKey(b);
}

/** Whether the owner's spec.replicas went down in the 30 s before `at` (where the logs show it). */
function scaledDown(
  objects: Map<string, ObjectWrite[]>,
  namespace: string,
  owner: Owner,
  at: number,
): boolean {
  const writes = objects.get(objectKey(owner.apiGroup, owner.resource, namespace, owner.name));
  if (!writes) return false;
  const from = at - SCALE_DOWN_WITHIN_US;
  let lo = 0;
  let hi = writes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (writes[mid].at < from) lo = mid + 1;
    else hi = mid;
  }
  // The replicas before the window (from the last few writes), then each change inside it.
  let prev: number | undefined;
  for (let i = lo - 1; i >= 0 && i >= lo - 64 && prev === undefined; i--) prev = writes[i].fact.replicas;
  for (let i = lo; i < writes.length && writes[i].at <= at; i++) {
    const r = writes[i].fact.replicas;
    if (r === undefined) continue;
    if (prev !== undefined && r < prev) return true;
    prev = r;
  }
  return false;
}

function metadataOf(v: unknown): Record<string, unknown> | null {
  return isObject(v) && isObject(v.metadata) ? v.metadata : null;
}
