// Projects one ingested record onto the facts the analysis reads, or null when the
// record cannot matter. This is where the size of the data collapses: audit bodies
// shrink to what a pod diff needs and secrets never pass.
import type { Operation } from 'fast-json-patch';
import type { AuditEvent } from '../model/audit';
import type { Fact, OperatorFact, PodWriteFact, WebhookMutation } from '../model/facts';
import type { LogRecord } from '../model/record';
import type { OperatorLine } from '../model/operator-line';
import { ValueInterner } from './value-interner';
import { BoundedCache } from '../k8s/bounded-cache';
import { getIn, isObject, nonEmptyString as str, stringAt } from '../k8s/json-value';
import {
  CR_RESOURCES,
  mayBeOperatorPod,
  operatorOfLogMessage,
  UNIT_CONFIG_RESOURCES,
} from '../operators/registry';
import { isBuiltinPodController, isFightObjectWrite } from '../fights/relevance';
import { projectObjectWrite, webhookChanges } from './project-object';

const READ_VERBS = new Set(['get', 'list', 'watch']);

export function projectRecord(rec: LogRecord): Fact | null {
  return rec.kind === 'audit' ? projectAudit(rec.event, rec.at) : projectOperator(rec.line, rec.at);
}

type Src = LogRecord['at'];

function projectAudit(e: AuditEvent, src: Src): Fact | null {
  const ref = e.objectRef;
  if (!ref || READ_VERBS.has(e.verb)) return null;
  if (typeof ref.namespace !== 'string') {
    // Cluster-scoped: only the fight detectors read those (webhook configurations, CRs).
    if (
      typeof ref.resource !== 'string' ||
      !isFightObjectWrite(e.verb, ref.resource, ref.subresource, ref.apiGroup)
    )
      return null;
  }
  const response = isObject(e.responseObject) ? e.responseObject : undefined;
  const base = {
    at: e.requestReceivedTimestamp,
    doneAt: e.stageTimestamp || e.requestReceivedTimestamp,
    src,
    auditID: e.auditID,
    stage: internText(e.stage),
    level: internText(e.level),
    verb: internText(e.verb),
    // Nested fields of an event are unvalidated input: a non-string here would reach
    // string methods in the analysis and abort the whole run.
    user: internText(str(e.user?.username) ?? ''),
    namespace: internText(typeof ref.namespace === 'string' ? ref.namespace : ''),
    name: internText(str(ref.name) ?? stringAt(response, 'metadata', 'name')),
    uid: internText(str(ref.uid)),
    subresource: internText(str(ref.subresource)),
    code: typeof e.responseStatus?.code === 'number' ? e.responseStatus.code : null,
    ...impersonation(e),
  };
  const resource = ref.resource;
  if (resource === 'pods') return projectPod(e, base, response);
  // An operator's cluster CR and its members' configuration objects: metadata only. The fact
  // types keep koperator's names (`kafkacluster`, `configmap`): they are the facts' format.
  if (typeof resource === 'string' && CR_RESOURCES.has(resource))
    return {
      type: 'kafkacluster',
      ...base,
      ...outOfSyncMembers(base.subresource, e.requestObject, response),
    };
  if (typeof resource === 'string' && UNIT_CONFIG_RESOURCES.has(resource))
    return { type: 'configmap', ...base };
  return typeof resource === 'string' && isFightObjectWrite(e.verb, resource, ref.subresource, ref.apiGroup)
    ? projectObjectWrite(e, base, ref.apiGroup ?? '', resource)
    : null;
}

/**
 * The members a CR status write sets ConfigOutOfSync (NiFiKop's `status.nodesState`, a map by
 * node id), as an optional member: only those ids pass, never the body.
 */
function outOfSyncMembers(
  subresource: string | null,
  request: unknown,
  response: unknown,
): { configOutOfSync?: string[] } {
  if (subresource !== 'status') return {};
  const states = getIn(request, ['status', 'nodesState']) ?? getIn(response, ['status', 'nodesState']);
  if (!isObject(states)) return {};
  const ids = Object.keys(states).filter(
    (id) => getIn(states[id], ['configurationState']) === 'ConfigOutOfSync',
  );
  return ids.length > 0 ? { configOutOfSync: ids } : {};
}

/** The impersonated user, as an optional member (absent, not undefined, when there is none). */
function impersonation(e: AuditEvent): { impersonated?: string } {
  const name = str(e.impersonatedUser?.username);
  return name === null ? {} : { impersonated: internText(name) };
}

/** Whether the request was a dry run: only its requestURI says so. */
export function isDryRun(requestURI: unknown): boolean {
  return typeof requestURI === 'string' && /[?&]dryRun=[^&]/.test(requestURI);
}

function projectPod(
  e: AuditEvent,
  base: Omit<PodWriteFact, 'type'>,
  response: Record<string, unknown> | undefined,
): PodWriteFact {
  const fact: PodWriteFact = { type: 'pod', ...base };
  const sub = base.subresource;
  const request = e.requestObject;
  if (isDryRun(e.requestURI)) fact.dryRun = true;
  if (sub === 'status') {
    // Only the parts of status that say a container or the pod ended.
    if (isObject(request)) fact.request = intern(slimStatusPatch(request));
    return fact;
  }
  if (sub === 'binding' || sub === 'eviction') {
    fact.uid = base.uid ?? stringAt(request, 'target', 'uid') ?? null;
    return fact;
  }
  if (e.verb === 'delete') {
    if (isObject(request)) {
      const grace = request.gracePeriodSeconds;
      if (typeof grace === 'number') fact.gracePeriodSeconds = grace;
      fact.uid = fact.uid ?? stringAt(request, 'preconditions', 'uid');
    }
  } else if (request !== undefined && request !== null) {
    fact.request = isObject(request) && request.kind === 'Pod' ? slimPod(request) : request;
    if (e.verb === 'patch') fact.patchType = patchTypeOf(request);
  }
  if (response && response.kind === 'Pod') {
    fact.response = slimPod(response);
    fact.uid = fact.uid ?? stringAt(response, 'metadata', 'uid');
  } else if (sub === 'ephemeralcontainers') {
    const stored = ephemeralList(response) ?? ephemeralList(request);
    if (stored) fact.ephemeralContainers = intern(stored);
    fact.uid = fact.uid ?? stringAt(response, 'metadata', 'uid') ?? stringAt(request, 'metadata', 'uid');
  }
  // Only a broker pod's admission is ever attributed; another team's pod (a body that
  // shows none of koperator's marks) would only cost parsing its webhooks' patches.
  // Without bodies (Metadata level) nothing tells, so every admission is kept.
  const foreign =
    (fact.request !== undefined || fact.response !== undefined) &&
    !mayBeOperatorPod(request) &&
    !mayBeOperatorPod(response);
  const webhooks = !foreign
    ? webhookMutations(e.annotations)
    : e.verb === 'create' && !isBuiltinPodController(base.user)
      ? webhookChanges(request, response, webhookMutations(e.annotations))
      : [];
  if (webhooks.length) fact.webhooks = webhooks;
  if (e.annotations?.['audit.k8s.io/truncated'] === 'true') fact.truncated = true;
  return fact;
}

/** The list of an `EphemeralContainers` body (the subresource's own kind before Kubernetes 1.22). */
function ephemeralList(body: unknown): unknown[] | null {
  if (!isObject(body) || body.kind !== 'EphemeralContainers') return null;
  return Array.isArray(body.ephemeralContainers) ? body.ephemeralContainers : [];
}

function patchTypeOf(body: unknown): PodWriteFact['patchType'] {
  if (Array.isArray(body)) return 'json';
  if (isObject(body) && typeof body.apiVersion === 'string' && typeof body.kind === 'string') return 'apply';
  // Merge and strategic-merge bodies look alike; kubectl and most controllers send
  // strategic-merge for built-in types, and for maps and scalars the two agree.
  return 'strategic-merge';
}

const MUTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
const PATCH_PREFIX = 'patch.webhook.admission.k8s.io/';

/** Mutating-webhook annotations of an admission, in (round, index) order. */
export function webhookMutations(annotations: Record<string, string> | undefined): WebhookMutation[] {
  if (!annotations) return [];
  const byStep = new Map<string, WebhookMutation>();
  for (const [key, value] of Object.entries(annotations)) {
    const isPatch = key.startsWith(PATCH_PREFIX);
    if (!isPatch && !key.startsWith(MUTATION_PREFIX)) continue;
    const m = /round_(\d+)_index_(\d+)$/.exec(key);
    if (!m) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    if (!isObject(parsed)) continue;
    const step = `${m[1]}/${m[2]}`;
    const entry = byStep.get(step) ?? {
      round: Number(m[1]),
      index: Number(m[2]),
      configuration: '',
      webhook: '',
      mutated: false,
    };
    if (typeof parsed.configuration === 'string') entry.configuration = parsed.configuration;
    if (typeof parsed.webhook === 'string') entry.webhook = parsed.webhook;
    if (isPatch) {
      if (Array.isArray(parsed.patch)) {
        entry.patch = intern(parsed.patch as Operation[]);
        entry.mutated = entry.mutated || parsed.patch.length > 0;
      }
    } else if (parsed.mutated === true) {
      entry.mutated = true;
    }
    byStep.set(step, entry);
  }
  return [...byStep.values()].sort((a, b) => a.round - b.round || a.index - b.index);
}

/**
 * A fact read back from storage (codec.ts), given the sharing projection gives a fact it
 * makes: repeated strings and pod-body parts become the first equal ones seen, so the
 * deployed analysis, which reads a whole window of facts from S3, holds a restart loop's
 * bodies once rather than once per pod. The fact is updated in place (it was just parsed).
 */
export function shareFactParts(f: Fact): Fact {
  if (f.type === 'operator') return f;
  f.stage = internText(f.stage);
  f.level = internText(f.level);
  f.verb = internText(f.verb);
  f.user = internText(f.user);
  f.namespace = internText(f.namespace);
  f.name = internText(f.name);
  f.uid = internText(f.uid);
  f.subresource = internText(f.subresource);
  if (f.type !== 'pod') return f;
  if (isObject(f.request)) f.request = f.request.kind === 'Pod' ? sharePod(f.request) : intern(f.request);
  else if (Array.isArray(f.request)) f.request = intern(f.request);
  if (isObject(f.response)) f.response = sharePod(f.response);
  for (const h of f.webhooks ?? []) if (h.patch) h.patch = intern(h.patch);
  return f;
}

/** A stored pod body with its metadata and spec members interned (as slimPod leaves them). */
function sharePod(pod: Record<string, unknown>): Record<string, unknown> {
  if (!mayBeOperatorPod(pod)) return pod;
  if (isObject(pod.metadata)) pod.metadata = internMembers({ ...pod.metadata });
  if (isObject(pod.spec)) pod.spec = internMembers({ ...pod.spec });
  return pod;
}

function slimPod(pod: Record<string, unknown>): Record<string, unknown> {
  if (!mayBeOperatorPod(pod)) return podIdentity(pod);
  // Only broker pods repeat in loops and reach the analysis's caches: their parts are
  // interned so that a loop's pods hold one copy.
  // managedFields (a sixth of a pod body) out before interning: serialised and hashed for nothing.
  const meta = isObject(pod.metadata) ? internMembers(withoutManagedFields(pod.metadata)) : undefined;
  const out: Record<string, unknown> = { ...pod };
  if (meta) out.metadata = meta;
  if (isObject(pod.spec)) out.spec = internMembers({ ...pod.spec });
  if (isObject(pod.status)) out.status = slimStatus(pod.status);
  return out;
}

/** A copy of the metadata without its managedFields, which the analysis never reads. */
function withoutManagedFields(metadata: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...metadata };
  delete copy.managedFields;
  return copy;
}

const IDENTITY_KEYS = ['name', 'generateName', 'namespace', 'uid', 'labels', 'ownerReferences'] as const;

/**
 * Another team's pod (none of koperator's marks) is never a broker: the analysis reads its
 * name, uid and the labels and owners that say so, never its spec or status. Kept whole,
 * other teams' pod creates were most of the memory of a long input's facts.
 */
function podIdentity(pod: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (pod.kind !== undefined) out.kind = pod.kind;
  if (pod.apiVersion !== undefined) out.apiVersion = pod.apiVersion;
  if (isObject(pod.metadata)) {
    const meta: Record<string, unknown> = {};
    // Labels and owners repeat across a ReplicaSet's pods: interned (objects only; the
    // name and uid are the pod's own).
    for (const k of IDENTITY_KEYS) if (pod.metadata[k] !== undefined) meta[k] = intern(pod.metadata[k]);
    out.metadata = meta;
  }
  return out;
}

// Interning. A broker in a restart loop is re-created thousands of times a day and every pod
// body repeats the same containers, volumes, affinity, labels and annotations (the last-applied
// annotation alone is kilobytes), and every admission the same webhook patches. Each such part
// is replaced by the first equal one seen, so a day of a loop holds one copy, and the analysis
// (whose caches key shared objects by identity) does its work once. Facts stay plain JSON;
// shared parts must never be mutated (nothing does). Equal means equal JSON, which for parsed
// JSON is equality. Bounded: when full the table starts over, which only loses sharing.
const internedParts = new ValueInterner(262_144);

function intern<T>(v: T): T {
  return internedParts.intern(v);
}

/**
 * A worker thread's projection needs its interned parts only until it has sent them: the
 * receiving thread keeps them for the run (its own table: sharePartByKey below), and a
 * smaller table bounds each worker's memory, at the price of a few parts interned again.
 */
export function limitInternedParts(maxEntries: number): void {
  internedParts.limit(maxEntries);
}

/**
 * A part another thread's projection interned, by its key: the first equal part this thread
 * holds, so parts read on workers are shared as those projected here are.
 */
export function sharePartByKey<T extends object>(key: string, v: T): T {
  return internedParts.shareByKey(key, v);
}

/** The key of a part this thread's projection interned (see ValueInterner.keyOf). */
export function internedPartKey(v: object): string | undefined {
  return internedParts.keyOf(v);
}

// The same few verbs, users, namespaces, stages and levels, and each pod's name and uid, recur
// in every fact about a pod: parsing gives each fact its own copy, interning keeps one.
// Bounded like the parts above.
const internedTexts = new BoundedCache<string>(65_536, 4 * 2 ** 20);

/** An equal string seen before, or this one (null and non-strings pass through). */
export function internText<T>(v: T): T {
  if (typeof v !== 'string') return v;
  const known = internedTexts.get(v);
  if (known !== undefined) return known as T;
  internedTexts.set(v, v);
  return v;
}

/** The object with each object or list member interned (in place: callers pass a fresh copy). */
function internMembers(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) o[k] = intern(o[k]);
  return o;
}

function slimStatusPatch(body: Record<string, unknown>): Record<string, unknown> {
  return isObject(body.status) ? { status: slimStatus(body.status) } : {};
}

function slimStatus(status: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['phase', 'reason'] as const) if (typeof status[k] === 'string') out[k] = status[k];
  // Only the Ready condition's status: the successor's first Ready=True write ends the
  // downtime a recreation cost (summary.fixImpact); the rest of the conditions is noise.
  const ready = readyCondition(status.conditions);
  if (ready) out.conditions = [ready];
  for (const k of ['containerStatuses', 'initContainerStatuses'] as const) {
    const list = status[k];
    if (!Array.isArray(list)) continue;
    out[k] = list.filter(isObject).map((c) => {
      const slim: Record<string, unknown> = { name: c.name };
      for (const s of ['state', 'lastState'] as const) {
        const term = isObject(c[s]) && isObject((c[s] as Record<string, unknown>).terminated);
        if (term) {
          const t = (c[s] as Record<string, Record<string, unknown>>).terminated;
          slim[s] = { terminated: { reason: t.reason, exitCode: t.exitCode } };
        }
      }
      return slim;
    });
  }
  return out;
}

const READY_TRUE = { type: 'Ready', status: 'True' };
const READY_FALSE = { type: 'Ready', status: 'False' };

/** The Ready condition as `{type, status}` (shared objects for the common two), or null. */
function readyCondition(conditions: unknown): Record<string, unknown> | null {
  if (!Array.isArray(conditions)) return null;
  const c = conditions.find((x) => isObject(x) && x.type === 'Ready');
  if (!isObject(c) || typeof c.status !== 'string') return null;
  return c.status === 'True'
    ? READY_TRUE
    : c.status === 'False'
      ? READY_FALSE
      : { type: 'Ready', status: c.status };
}

function projectOperator(line: OperatorLine, src: Src): OperatorFact | null {
  const op = operatorOfLogMessage(line.msg);
  if (op === null) return null;
  const f = line.fields;
  const where = op.logs.context(line.msg, f);
  const fields: Record<string, unknown> = {};
  for (const k of op.logs.keptKeys) if (f[k] !== undefined) fields[k] = f[k];
  Object.assign(fields, where.marks);
  return {
    type: 'operator',
    at: line.ts,
    src,
    msg: internText(line.msg),
    level: internText(line.level),
    kafkaCluster: internText(where.cluster),
    namespace: internText(where.namespace),
    pod: internText(where.pod),
    brokerId: where.unit,
    fields,
  };
}
