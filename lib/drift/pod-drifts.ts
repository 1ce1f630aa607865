// The drifts of one broker pod (drift.md): each successful write after its creation by a user
// other than the operator that departs from what koperator declares, and how each ended.
import { originalOf } from '../analyze/states';
import { isKubeletFinalDelete, type Incarnation } from '../analyze/timeline';
import { DEFAULT_ENV_ALLOWLIST, redactField } from '../analyze/redact';
import { pathsOverlap, sameFieldValue, valueAtPath } from '../analyze/field-value';
import { namedPaths } from '../analyze/attribution';
import { actorOf } from '../k8s/actor';
import { analysisOf, beforeAndAfterFix } from '../operators/analysis-registry';
import type { PodWriteFact } from '../model/facts';
import type { Drift, DriftField } from '../model/findings';
import {
  addedEphemeralContainers,
  addedTolerations,
  declaredFieldChanges,
  ephemeralContainersOf,
  isDefaultToleration,
} from './declared-changes';
import { isAutoscalerUser } from '../k8s/writers';
import { kindOf, severityOf } from './kind';
import { statesOfWrites, type Pod } from './pod-states';

/** The operator before the fix (koperator's three-way diff), which a drift would make restart. */
const BEFORE_FIX = beforeAndAfterFix(analysisOf()).before;

export interface PodDriftOptions {
  operatorUsers: ReadonlySet<string>;
  autoscalerUsers?: readonly string[];
  envAllowlist?: readonly string[];
}

export interface PodDrifts {
  drifts: Drift[];
  /** Drifts judged against the declared values, the data holding no earlier state of the pod. */
  judgedOnDeclared: number;
  /** Writes by others to the pod itself logged without bodies: not judged (Metadata level). */
  withoutBodies: number;
}

const DRIFT_SUBRESOURCES = new Set([null, 'ephemeralcontainers', 'resize']);

export function podDrifts(inc: Incarnation, opts: PodDriftOptions): PodDrifts {
  const result: PodDrifts = { drifts: [], judgedOnDeclared: 0, withoutBodies: 0 };
  const broker = inc.broker;
  if (!broker) return result;
  const declared = originalOf(inc);
  const operator = (w: PodWriteFact) => opts.operatorUsers.has(w.user) || w.user === inc.create?.user;
  const open: Array<{ drift: Drift; revertible: boolean }> = [];
  const graceful = hasGracefulEnd(inc);
  for (const { write: w, before, after } of statesOfWrites(inc.create?.response, inc.writes)) {
    if (isEnd(w)) {
      if (!(graceful && isKubeletFinalDelete(w)))
        for (const o of open.splice(0)) end(o.drift, w, 'pod-deleted');
      continue;
    }
    if (after) {
      for (let i = open.length - 1; i >= 0; i--) {
        if (open[i].revertible && restored(open[i].drift, after, declared)) {
          end(open[i].drift, w, 'reverted');
          open.splice(i, 1);
        }
      }
    }
    if ((w.verb !== 'patch' && w.verb !== 'update') || !DRIFT_SUBRESOURCES.has(w.subresource) || operator(w))
      continue;
    const found = judge(w, before, after, declared, result);
    if (!found) continue;
    const kind = kindOf(found.fields, w.subresource ?? '');
    const by = actorOf(w);
    const allow = opts.envAllowlist ?? DEFAULT_ENV_ALLOWLIST;
    const drift: Drift = {
      namespace: inc.namespace,
      kafkaCluster: broker.kafkaCluster,
      brokerId: broker.brokerId,
      pod: { name: inc.name, uid: inc.uid },
      at: w.at,
      by,
      verb: w.verb,
      subresource: w.subresource ?? '',
      kind,
      fields: found.fields.map((f) => {
        const shown = redactField(f.path, f.declared, f.to, allow);
        return { path: f.path, declared: shown.from ?? null, to: shown.to ?? null };
      }),
      severity: severityOf(kind, found.fields, isAutoscalerUser(by, opts.autoscalerUsers)),
      ended: null,
      preFixWouldRevert:
        declared !== null && after !== null && BEFORE_FIX.decide(declared, declared, after).changed,
      evidence: [w.auditID],
    };
    result.drifts.push(drift);
    // Tolerations and ephemeral containers cannot be taken off a running pod.
    const revertible =
      found.fields.length > 0 &&
      kind !== 'ephemeral-container' &&
      kind !== 'tolerations' &&
      declared !== null;
    // Where the values are known, keep what was compared: the output may be redacted.
    if (revertible) revertFields.set(drift, found.fields);
    open.push({ drift, revertible });
  }
  return result;
}

/** The unredacted fields a revert is checked against. */
const revertFields = new WeakMap<Drift, DriftField[]>();

function isEnd(w: PodWriteFact): boolean {
  return w.verb === 'delete' || w.verb === 'deletecollection' || w.subresource === 'eviction';
}

/** The graceful delete or eviction, not the node's final delete, ends a drift where both are seen. */
function hasGracefulEnd(inc: Incarnation): boolean {
  return inc.writes.some((w) => isEnd(w) && !isKubeletFinalDelete(w));
}

function end(d: Drift, w: PodWriteFact, how: 'pod-deleted' | 'reverted'): void {
  d.ended = { at: w.at, how };
  d.evidence.push(w.auditID);
}

function restored(d: Drift, state: Pod, declared: Pod | null): boolean {
  const fields = revertFields.get(d);
  if (!fields || !declared) return false;
  return fields.every((f) => sameFieldValue(valueAtPath(state, f.path), f.declared));
}

/** The fields a non-operator write drifted, or null when it is not a drift. */
function judge(
  w: PodWriteFact,
  before: Pod | null,
  after: Pod | null,
  declared: Pod | null,
  tally: PodDrifts,
): { fields: DriftField[] } | null {
  const bodiless = after === null && w.ephemeralContainers === undefined;
  if (bodiless) {
    // Metadata level: the subresource alone says what such a write does.
    if (w.subresource === 'ephemeralcontainers' || w.subresource === 'resize') return { fields: [] };
    tally.withoutBodies++;
    return null;
  }
  if (w.subresource === 'ephemeralcontainers') {
    const now = w.ephemeralContainers ?? ephemeralContainersOf(after);
    const fields = addedEphemeralContainers(ephemeralContainersOf(before), now);
    return fields.length > 0 ? { fields } : null;
  }
  if (!declared || !after) return null;
  const standIn = before === null;
  const from = before ?? declared;
  let fields = declaredFieldChanges(declared, from, after);
  const tolerations = addedTolerations(declared, from, after, standIn ? isDefaultToleration : undefined);
  if (tolerations) fields.push(tolerations);
  // Against the declared stand-in, admission's own changes (webhooks, defaults) would look
  // written by whoever wrote first: a patch is held to the fields its body names.
  if (standIn && w.verb === 'patch' && w.request !== undefined) {
    const named = namedPaths(w, after);
    fields = fields.filter((f) => named.some((p) => pathsOverlap(f.path, p)));
  }
  if (fields.length === 0) return null;
  // Said only where it bears on a finding: a write that departs from nothing needs no caveat.
  if (standIn) tally.judgedOnDeclared++;
  return { fields };
}
