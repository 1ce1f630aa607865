// `explain-pod` for a pod of an operator replayed version by version (NiFiKop): which of its
// version ranges would delete the pod at the next reconcile, for which fields, and from which
// version on it is kept. The operator is told by the pod's labels and owners (the identity
// registry, koperator's first); a pod no other profile claims is explained as koperator's.
import type { FieldDiff } from '../k8s/diff-decision';
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import { getIn, isObject } from '../k8s/json-value';
import { analysisOf, firstStoppingRange } from '../operators/analysis-registry';
import type { OperatorIdentity } from '../operators/profile';
import { OPERATORS } from '../operators/registry';
import { wordsOf } from '../operators/words-registry';
import { attributeRevert } from './attribute';
import {
  explainPod,
  explanationLine,
  fieldChangeLines,
  redacted,
  renderExplanation,
  stampedOriginal,
  type PodExplanation,
} from './explain-pod';
import { detectWebhookMarkers, recordedChanges, type MarkerHit } from './webhook-markers';

export interface VersionAnswer {
  /** The version range (NiFiKop: `<1.12`, `1.12-1.13`, `1.14`, `>=1.15`). */
  range: string;
  /** Where its steps come from. */
  steps: string;
  restarts: boolean;
  /** What its diff would revert (declared → live), with the webhook whose record names the field. */
  fields: Array<FieldDiff & { by?: string }>;
  /** Go's diff failed: what it said. */
  error?: string;
}

export interface UnitPodExplanation {
  operator: string;
  /** The pod, its cluster and member under the operator's own keys (`nifiCluster`, `nodeId`). */
  pod: Record<string, string | null>;
  /** `NiFiKop (NifiCluster nifi/prod, node 2)`. */
  label: string;
  lastApplied: { found: boolean; encoding?: string; error?: string };
  /** As PodExplanation.desired: the CR taken as unchanged, the --desired file, or its annotation. */
  desired: 'unchanged-cr' | 'file' | 'file-last-applied';
  byVersion: VersionAnswer[];
  /** The first range from which no version deletes the pod; null when none keeps it. */
  keptFrom: string | null;
  mutators: MarkerHit[];
  verdict: string;
  recommendation: string | null;
}

export type AnyPodExplanation = PodExplanation | UnitPodExplanation;

/** The replayed operator whose member the pod is, by labels and owners; koperator's by default. */
export function operatorOfPod(live: unknown): OperatorIdentity {
  for (const op of OPERATORS)
    if (op.pods.unitOfPod(live) !== null || op.pods.crOwner(live) !== null) return op;
  return OPERATORS[0];
}

/** The explanation for any operator's pod: koperator's own (explain-pod.ts), or per version range. */
export function explainAnyPod(
  live: Record<string, unknown>,
  desired?: Record<string, unknown>,
): AnyPodExplanation {
  const op = operatorOfPod(live);
  return op.id === 'koperator' ? explainPod(live, desired) : explainUnitPod(op, live, desired);
}

export function isUnitExplanation(e: AnyPodExplanation): e is UnitPodExplanation {
  return 'byVersion' in e;
}

/** Whether the pod would be re-created: by koperator before its fix, or by the newest version (the one assumed). */
export function wouldBeRecreated(e: AnyPodExplanation): boolean {
  return isUnitExplanation(e) ? e.byVersion[e.byVersion.length - 1]?.restarts === true : e.beforeFix.restarts;
}

function explainUnitPod(
  op: OperatorIdentity,
  live: Record<string, unknown>,
  desired?: Record<string, unknown>,
): UnitPodExplanation {
  const analysis = analysisOf(op.id);
  const words = wordsOf(op.id);
  const unit = op.pods.unitOfPod(live);
  const namespace = stringAt(live, 'namespace');
  const cluster = unit?.cluster ?? op.pods.crOwner(live);
  const pod = {
    namespace,
    name: stringAt(live, 'name'),
    [op.findingKeys.cluster]: cluster,
    [op.findingKeys.unit]: unit?.unit ?? null,
  };
  const base = {
    operator: op.id,
    pod,
    label: words.unitOf(namespace ?? '?', cluster ?? '?', unit?.unit ?? '?'),
    desired: desired ? ('file' as const) : ('unchanged-cr' as const),
    byVersion: [],
    keptFrom: null,
    mutators: detectWebhookMarkers(live),
    recommendation: null,
  };
  const annotations = getIn(live, ['metadata', 'annotations']);
  const raw = isObject(annotations) ? annotations[LAST_APPLIED_ANNOTATION] : undefined;
  if (typeof raw !== 'string')
    return {
      ...base,
      lastApplied: { found: false },
      verdict: `no ${LAST_APPLIED_ANNOTATION} annotation: this pod was not created by ${words.operator} (or the annotation was removed)`,
    };
  const decoded = decodeLastApplied(raw);
  if (!decoded.ok)
    return {
      ...base,
      lastApplied: { found: true, error: decoded.reason },
      verdict: `the last-applied annotation cannot be decoded: ${decoded.reason}`,
    };
  const original = decoded.value;
  // Without a desired pod the CR is taken as unchanged: the operator generates the pod it last applied.
  const stamped = desired ? stampedOriginal(desired, raw) : null;
  const modified = stamped ?? desired ?? original;
  const recorded = recordedChanges(live);
  const byVersion = analysis.diffVersions.map((v): VersionAnswer => {
    const d = redacted(v.decide(original, modified, live));
    return {
      range: v.label ?? v.since ?? 'oldest',
      steps: v.steps,
      restarts: d.changed,
      fields: attributeRevert(d.fields, recorded),
      ...(d.error ? { error: d.error } : {}),
    };
  });
  const keptFrom = firstStoppingRange(analysis, [
    Object.fromEntries(byVersion.map((a) => [a.range, a.restarts])),
  ]);
  const e: UnitPodExplanation = {
    ...base,
    lastApplied: { found: true, encoding: decoded.encoding },
    desired: !desired ? 'unchanged-cr' : stamped ? 'file-last-applied' : 'file',
    byVersion,
    keptFrom,
    verdict: verdictOf(byVersion, keptFrom, words.operator, words.unit),
  };
  e.recommendation = recommendationOf(e, words.operator);
  return e;
}

function stringAt(pod: unknown, key: 'name' | 'namespace'): string | null {
  const v = getIn(pod, ['metadata', key]);
  return typeof v === 'string' ? v : null;
}

function verdictOf(
  byVersion: VersionAnswer[],
  keptFrom: string | null,
  operator: string,
  unit: string,
): string {
  const restarting = byVersion.filter((a) => a.restarts).map((a) => a.range);
  if (restarting.length === 0) return `in sync: no ${operator} version would re-create this pod`;
  const kept = byVersion.filter((a) => !a.restarts).map((a) => a.range);
  return (
    `${operator} ${restarting.join(', ')} would delete and re-create this ${unit}'s pod` +
    (kept.length > 0 ? `; ${kept.join(', ')} leave it alone` : '') +
    (keptFrom === null ? `; no ${operator} version keeps it` : `; kept from ${keptFrom} on`)
  );
}

/** The loop's advice for what the newest restarting version reverts, and the version that keeps the pod. */
function recommendationOf(e: UnitPodExplanation, operator: string): string | null {
  const restarting = e.byVersion.filter((a) => a.restarts);
  if (restarting.length === 0) return null;
  const newest = restarting[restarting.length - 1];
  const failed = newest.error;
  const advice = failed
    ? `${operator} cannot compute its diff for this pod (${failed.replace(/: [{["].*$/s, '')}).`
    : analysisOf(e.operator).loopRecommendation(
        'external-mutation-revert',
        newest.fields.map((f) =>
          f.by ? { path: f.path, by: f.by, via: 'admission' as const } : { path: f.path, by: null },
        ),
      );
  const upgrade =
    e.keptFrom === null
      ? ` No ${operator} version keeps this pod.`
      : e.keptFrom.startsWith('>=')
        ? ` ${operator} ${e.keptFrom} keeps this pod.`
        : ` ${operator} ${e.keptFrom} and later keep this pod.`;
  return advice + upgrade;
}

/** One line for a list of pods. */
export function anyExplanationLine(e: AnyPodExplanation): string {
  if (!isUnitExplanation(e)) return explanationLine(e);
  const id = `${e.pod.namespace ?? '?'}/${e.pod.name ?? '?'}`;
  const restarting = e.byVersion.filter((a) => a.restarts).map((a) => a.range);
  const what = !e.lastApplied.found
    ? 'no last-applied annotation'
    : restarting.length === 0
      ? 'left alone by every version'
      : `RE-CREATED by ${restarting.join(', ')}`;
  return `${id} (${e.label}): ${what}`;
}

const DESIRED_WORDS: Record<UnitPodExplanation['desired'], string> = {
  'unchanged-cr':
    'assumed: the cluster resource did not change (the last-applied annotation; --desired FILE to give one)',
  file: 'the --desired file',
  'file-last-applied': 'the last-applied annotation of the --desired file',
};

export function renderAnyExplanation(e: AnyPodExplanation): string {
  if (!isUnitExplanation(e)) return renderExplanation(e);
  const lines: string[] = [];
  lines.push(`pod ${e.pod.namespace ?? '?'}/${e.pod.name ?? '?'}: ${e.label}`);
  lines.push(
    `last-applied: ${e.lastApplied.found ? (e.lastApplied.error ? `undecodable (${e.lastApplied.error})` : `found (${e.lastApplied.encoding})`) : 'absent'}`,
  );
  lines.push(`desired pod: ${DESIRED_WORDS[e.desired]}`);
  const operator = wordsOf(e.operator).operator;
  let shown = '';
  for (const a of e.byVersion) {
    lines.push(`${operator} ${a.range} (${a.steps}): ${a.restarts ? 'RESTARTS the pod' : 'leaves it alone'}`);
    if (a.error) lines.push(`  its diff failed: ${a.error}`);
    // The same fields for version after version are said once.
    const key = JSON.stringify(a.fields.map((f) => f.path));
    if (!a.restarts || a.fields.length === 0) continue;
    if (key === shown) {
      lines.push('  the same fields as above');
      continue;
    }
    shown = key;
    for (const f of a.fields)
      lines.push(
        ...fieldChangeLines(`${f.path} (declared → live)`, f, f.by ? `  (${f.by} recorded writing it)` : ''),
      );
  }
  if (e.mutators.length) {
    lines.push('mutating webhooks that left traces:');
    for (const m of e.mutators) lines.push(`  ${m.webhook} (${m.evidence})`);
  } else lines.push('mutating webhooks that left traces: none recognised');
  lines.push(`verdict: ${e.verdict}`);
  if (e.recommendation) lines.push(`what to do: ${e.recommendation}`);
  return lines.join('\n') + '\n';
}
