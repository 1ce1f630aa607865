// Decides why one broker pod was deleted, in koperator's own order
// (findings-contract.md, "Classes"): a deletion by someone else first, then tainted
// labels, then a non-empty three-way diff (intent change or external-mutation revert),
// then a terminated container or evicted pod, then a configuration change, else unknown.
import { DOWNSCALE_EVIDENCE } from './removal';
import type { FieldChange, Recreation } from '../model/findings';
import type { Classification } from '../model/findings';
import type { DiffDecision } from '../k8s/diff-decision';
import { analysisOf, restartByVersion, runningSteps } from '../operators/analysis-registry';
import type { DiffVersion, OperatorAnalysis, OperatorIdentity, ReconcileStep } from '../operators/profile';
import { wordsOf } from '../operators/words-registry';
import { identityOf, logRoleOf } from '../operators/registry';
import type { AnalysisOptions } from './options';
import { attributeField } from './attribution';
import { DEFAULT_ENV_ALLOWLIST, redactField } from './redact';
import { sharedFields, sharedText, sharedVerdict } from './shared-parts';
import { reconstructStates, isObject, MODIFIED_FROM_LOG, type PodStates } from './states';
import { diffFields } from '../k8s/field-diff';
import { firstReadyAt } from './readiness';
import { compareTimes, secondsBetween } from './time';
import type { ClusterFacts, Incarnation } from './timeline';
import { actorOf } from '../k8s/actor';

// Each replayed operator (lib/operators/): its identity (config object's name), its replay, the
// steps it runs at (koperator: those before its fix; NiFiKop: the version given, else its newest).
interface Replayed {
  identity: OperatorIdentity;
  analysis: OperatorAnalysis;
  running: DiffVersion;
  /** Set when the running version was assumed, or read from the operator's image: the finding's evidence says so. */
  assumedNote: string | null;
  newest: DiffVersion;
}
const replayed = new Map<string, Replayed>();
function replayedOf(id: string | undefined, opts: AnalysisOptions): Replayed {
  const key = `${id ?? 'koperator'}\u0000${opts.operatorVersions?.[id ?? 'koperator'] ?? ''}\u0000${opts.operatorVersionSources?.[id ?? 'koperator'] ?? ''}`;
  let r = replayed.get(key);
  if (!r) {
    const analysis = analysisOf(id);
    const version = opts.operatorVersions?.[analysis.id];
    const { steps, assumed } = runningSteps(analysis, version);
    const label = steps.label ?? steps.since ?? '';
    r = {
      identity: identityOf(id),
      analysis,
      running: steps,
      assumedNote: assumed
        ? `${wordsOf(analysis.id).operator} version unknown (no --${analysis.id}-version): replayed as ${label}, its newest`
        : opts.operatorVersionSources?.[analysis.id]
          ? `${wordsOf(analysis.id).operator} ${version} (replayed as ${label}), read from its image: ${opts.operatorVersionSources[analysis.id]}`
          : null,
      newest: analysis.diffVersions[analysis.diffVersions.length - 1],
    };
    replayed.set(key, r);
  }
  return r;
}

/** How far before a deletion an operator line or a cause may lie and still explain it. */
const CAUSE_WINDOW_SECONDS = 120;

export function classifyDeletion(
  inc: Incarnation,
  successor: Incarnation | null,
  tl: ClusterFacts,
  opts: AnalysisOptions,
): Recreation {
  const deletion = inc.deletion!;
  const broker = inc.broker!;
  const op = replayedOf(broker.operator, opts);
  const ANALYSIS = op.analysis;
  const evidence: string[] = [];
  for (const f of deletion.facts) evidence.push(f.auditID);
  if (inc.create) evidence.push(inc.create.auditID);
  if (successor?.create) evidence.push(successor.create.auditID);
  if (inc.brokerFromName) evidence.push('broker read from the pod name (no labels in the data)');

  const allow = opts.envAllowlist ?? DEFAULT_ENV_ALLOWLIST;
  const states = reconstructStates(inc, successor, tl.kafkaClusterWrites, tl.operatorUsers);
  const known = states.original && states.modified && states.current;
  let three: DiffDecision | null = null;
  let intent: DiffDecision | null = null;
  let byVersion: Record<string, boolean> | undefined;
  let wouldRestart: Recreation['wouldRestart'] = null;
  if (known) {
    three = op.running.decide(states.original, states.modified, states.current);
    intent = ANALYSIS.intent(states.original, states.modified);
    if (broker.operator === undefined) wouldRestart = sharedVerdict(three.changed, intent.changed);
    else if (states.notes.includes(MODIFIED_FROM_LOG)) {
      // An operator replayed by version logs its pods after its version's steps (NiFiKop: objectmatcher's
      // Modified and Current): no other range can be replayed from them, and what a step copied
      // from the live pod into the desired one is no change of the cluster resource.
      intent = withoutCopiedFromLive(intent, states.modified, states.current);
      wouldRestart = sharedVerdict(three.changed, three.changed);
    } else {
      // Replayed by version: the running version's answer and the newest's, and each range's.
      byVersion = restartByVersion(ANALYSIS, states.original, states.modified, states.current);
      wouldRestart = sharedVerdict(
        three.changed,
        op.newest.decide(states.original, states.modified, states.current).changed,
      );
    }
  }
  if (op.assumedNote) evidence.push(op.assumedNote);

  const rec = (
    classification: Classification,
    fields: FieldChange[] = [],
    extra: string[] = [],
  ): Recreation => ({
    namespace: inc.namespace,
    ...(broker.operator ? { operator: broker.operator } : {}),
    kafkaCluster: broker.kafkaCluster,
    brokerId: broker.brokerId,
    deletedPod: { name: inc.name, uid: inc.uid, deletedAt: deletion.at, deletedBy: deletion.by },
    createdPod: successor
      ? {
          name: successor.name,
          uid: successor.uid,
          createdAt: successor.createdAt ?? deletion.at,
          readyAt: firstReadyAt(successor),
        }
      : null,
    classification,
    fields: sharedFields(fields),
    wouldRestart,
    ...(byVersion ? { wouldRestartByVersion: byVersion } : {}),
    evidence: uniqueInOrder(evidence, extra),
  });

  if (deletion.by === null) {
    return rec(
      'unknown',
      [],
      [
        'deleter unknown: only the kubelet final delete is in the data and no operator line names the pod',
        ...states.notes,
      ],
    );
  }
  if (!tl.operatorUsers.has(deletion.by)) return rec('external-deletion');
  const OPERATOR = op.identity;

  // The operator's own checks, in its order (its profile's reconcileSteps): the first that
  // explains the deletion classifies it.
  const explained = (step: ReconcileStep): Recreation | null => {
    switch (step) {
      case 'taintedLabels': {
        const taint = taintEvidence(inc, states, opts);
        return taint ? rec('tainted-restart', [], [taint]) : null;
      }
      case 'unitRemoved':
        return !successor && isDownscale(inc, tl, OPERATOR)
          ? rec(
              'intent-change',
              [],
              [`${DOWNSCALE_EVIDENCE} no successor pod, and the operator removed the broker`],
            )
          : null;
      case 'podDiff':
        return three?.changed && intent ? diffExplained(three, intent) : null;
      case 'terminatedContainer': {
        const terminated = terminationEvidence(inc);
        return terminated ? rec('container-terminated', [], [terminated]) : null;
      }
      case 'unitConfigChanged': {
        const config = configChangeEvidence(inc, tl, OPERATOR);
        return config ? rec('config-change', [], [config]) : null;
      }
    }
  };
  const diffExplained = (three: DiffDecision, intent: DiffDecision): Recreation => {
    // Where Go's diff fails, the operator logs "could not match objects" and restarts the pod.
    // The message is cut before any JSON it quotes: an element may carry env values.
    const failures = [three, intent]
      .filter((d) => d.error !== undefined)
      .map(
        (d) =>
          `diff failed as ${wordsOf(OPERATOR.id).operator}'s would (${d === three ? 'three-way' : 'intent'}): ${d.error!.replace(/: [{["].*$/s, '')}`,
      );
    states.notes.push(...failures);
    if (intent.changed) {
      const by = lastKafkaClusterAuthor(inc, tl);
      const fields = intent.fields.map((f) => ({
        path: f.path,
        ...redactField(f.path, f.from, f.to, allow),
        by: by ? actorOf(by) : null,
      }));
      return rec('intent-change', fields, by ? [by.auditID, ...states.notes] : states.notes);
    }
    const extra: string[] = [...states.notes];
    const fields = three.fields.map((f) => {
      const a = attributeField(inc, f.path, tl.operatorUsers);
      extra.push(...a.evidence);
      if (a.note) extra.push(sharedText(a.note));
      return {
        path: f.path,
        ...redactField(f.path, f.from, f.to, allow),
        by: a.by,
        ...(a.via ? { via: a.via } : {}),
      };
    });
    return rec('external-mutation-revert', fields, extra);
  };
  for (const step of ANALYSIS.reconcileSteps) {
    const r = explained(step);
    if (r) return r;
  }
  if (!known) return rec('unknown', [], ['cannot replay the diff', ...states.notes]);
  return rec(
    'unknown',
    [],
    ['three-way diff empty, no taint, no terminated container, no configuration change seen'],
  );
}

/** The intent diff less the fields whose desired value the live pod already holds. */
function withoutCopiedFromLive(intent: DiffDecision, modified: unknown, current: unknown): DiffDecision {
  if (!intent.changed || intent.fields.length === 0) return intent;
  const differs = diffFields(modified, current).map((f) => f.path);
  // A field the live pod holds at and below its path as declared was copied from it; a list's
  // order (reported on the list) is no difference of the elements the steps copied into it.
  const below = (p: string, q: string) => p === q || q.startsWith(`${p}.`) || q.startsWith(`${p}[`);
  const fields = intent.fields.filter((f) => differs.some((d) => below(f.path, d)));
  return fields.length > 0 ? { ...intent, fields } : { ...intent, changed: false, fields: [] };
}

/** `a` then `b`, each string once, first place kept; a fresh array of exactly that length. */
export function uniqueInOrder(a: string[], b: string[]): string[] {
  const all = a.concat(b);
  // Lists are a handful of IDs; a quadratic scan of them allocates nothing.
  if (all.length > 32) return [...new Set(all)];
  let dup = false;
  for (let i = 1; i < all.length && !dup; i++) dup = all.lastIndexOf(all[i], i - 1) >= 0;
  return dup ? [...new Set(all)] : all;
}

function taintEvidence(inc: Incarnation, states: PodStates, opts: AnalysisOptions): string | null {
  const line = linesBefore(inc).find((l) => logRoleOf(l.msg) === 'taintedDeleting');
  if (line) return `operator: "${line.msg}" at ${line.at} (${line.src.source}:${line.src.line})`;
  const selector = opts.taintedBrokersSelector;
  const labels = isObject(states.current?.metadata) ? states.current.metadata.labels : undefined;
  if (selector && Object.keys(selector).length > 0 && isObject(labels)) {
    if (Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      return `live labels match taintedBrokersSelector ${JSON.stringify(selector)}`;
    }
  }
  return null;
}

function terminationEvidence(inc: Incarnation): string | null {
  const line = linesBefore(inc).find((l) => logRoleOf(l.msg) === 'terminatedContainer');
  if (line) {
    const f = line.fields;
    return `operator: terminated container ${String(f.containerName ?? '?')} (${String(f.reason ?? '?')}, exit ${String(f.exitCode ?? '?')}) at ${line.at}`;
  }
  const end = inc.deletion?.facts[0];
  for (const w of inc.writes) {
    if (w === end) break;
    const status =
      isObject(w.request) && isObject(w.request.status)
        ? w.request.status
        : isObject(w.response)
          ? w.response.status
          : undefined;
    if (!isObject(status)) continue;
    if (status.reason === 'Evicted' || status.reason === 'Shutdown' || status.reason === 'NodeShutdown') {
      return `pod ${String(status.reason)} (audit ${w.auditID})`;
    }
    for (const c of Array.isArray(status.containerStatuses) ? status.containerStatuses : []) {
      const term =
        isObject(c) && isObject(c.state) && isObject(c.state.terminated) ? c.state.terminated : null;
      if (term)
        return `container ${String(c.name)} terminated (${String(term.reason)}, exit ${String(term.exitCode)}) (audit ${w.auditID})`;
    }
  }
  return null;
}

const KIND_OF_CONFIG: Record<string, string> = { configmaps: 'ConfigMap', secrets: 'Secret' };

function configChangeEvidence(inc: Incarnation, tl: ClusterFacts, OPERATOR: OperatorIdentity): string | null {
  const broker = inc.broker!;
  const cmName = OPERATOR.unitConfig.nameOf(broker.kafkaCluster, broker.brokerId);
  const from = inc.createdAt;
  const until = inc.deletion!.at;
  const write = tl.configMapWrites.find(
    (w) =>
      w.namespace === inc.namespace &&
      w.name === cmName &&
      w.verb !== 'create' &&
      (!from || compareTimes(w.at, from) > 0) &&
      compareTimes(w.at, until) <= 0,
  );
  if (!write) return configOutOfSyncEvidence(inc, tl, OPERATOR);
  return write
    ? `${KIND_OF_CONFIG[OPERATOR.unitConfig.resource] ?? OPERATOR.unitConfig.resource} ${cmName} ${write.verb} by ${actorOf(write)} at ${write.at} (audit ${write.auditID})`
    : null;
}

/** A status write that set the member ConfigOutOfSync during the pod's life (NiFiKop's CR status). */
function configOutOfSyncEvidence(
  inc: Incarnation,
  tl: ClusterFacts,
  OPERATOR: OperatorIdentity,
): string | null {
  const broker = inc.broker!;
  const from = inc.createdAt;
  const until = inc.deletion!.at;
  const w = tl.kafkaClusterWrites.find(
    (x) =>
      x.configOutOfSync?.includes(broker.brokerId) === true &&
      x.namespace === inc.namespace &&
      x.name === broker.kafkaCluster &&
      (!from || compareTimes(x.at, from) > 0) &&
      compareTimes(x.at, until) <= 0,
  );
  return w
    ? `${OPERATOR.cr.kind} ${broker.kafkaCluster} status: ${wordsOf(OPERATOR.id).unit} ${broker.brokerId} ConfigOutOfSync, by ${actorOf(w)} at ${w.at} (audit ${w.auditID})`
    : null;
}

function isDownscale(inc: Incarnation, tl: ClusterFacts, OPERATOR: OperatorIdentity): boolean {
  const deleted = linesBefore(inc).find((l) => logRoleOf(l.msg) === 'unitPodDeleted');
  if (deleted?.fields.brokerIdFirst === true) return true;
  const broker = inc.broker!;
  const cmName = OPERATOR.unitConfig.nameOf(broker.kafkaCluster, broker.brokerId);
  return tl.configMapWrites.some(
    (w) =>
      w.namespace === inc.namespace &&
      w.name === cmName &&
      w.verb === 'delete' &&
      Math.abs(secondsBetween(inc.deletion!.at, w.at)) <= CAUSE_WINDOW_SECONDS,
  );
}

function lastKafkaClusterAuthor(inc: Incarnation, tl: ClusterFacts) {
  const until = inc.deletion!.at;
  let found: ClusterFacts['kafkaClusterWrites'][number] | null = null;
  for (const w of tl.kafkaClusterWrites) {
    if (compareTimes(w.at, until) > 0) break;
    if (w.namespace !== inc.namespace || w.name !== inc.broker!.kafkaCluster) continue;
    if (w.subresource !== null || tl.operatorUsers.has(w.user)) continue;
    if (w.verb !== 'patch' && w.verb !== 'update' && w.verb !== 'create') continue;
    if (w.code !== null && (w.code < 200 || w.code >= 300)) continue;
    found = w;
  }
  return found;
}

/** Operator lines about this pod up to shortly after its deletion started. */
function linesBefore(inc: Incarnation) {
  const at = inc.deletion!.at;
  return inc.operatorLines.filter((l) => {
    const s = secondsBetween(l.at, at);
    return s >= -5 && s <= CAUSE_WINDOW_SECONDS;
  });
}
