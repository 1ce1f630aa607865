// `explain-pod`: answers from one live pod, with no logs, what koperator would do with it
// at its next reconcile — before the fix (three-way diff against the live pod) and after
// (intent diff only). With no desired pod given, the KafkaCluster is assumed unchanged:
// modified = original.
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import type { FieldDiff } from '../koperator/pod-diff';
import { intentDecision, threeWayDecision } from '../koperator/pod-diff';
import { detectWebhookMarkers, type MarkerHit } from './webhook-markers';
import { redactField } from '../analyze/redact';
import { loopRecommendation } from '../koperator/recommendation';

export interface PodExplanation {
  pod: {
    namespace: string | null;
    name: string | null;
    kafkaCluster: string | null;
    brokerId: string | null;
  };
  lastApplied: { found: boolean; encoding?: string; error?: string };
  /** Fields the pre-fix operator would revert by deleting the pod. */
  wouldRevert: FieldDiff[];
  beforeFix: { restarts: boolean };
  afterFix: { restarts: boolean; fields: FieldDiff[] };
  mutators: MarkerHit[];
  verdict: string;
  /** What to do, in the words a loop of the same cause gets; null when nothing restarts. */
  recommendation: string | null;
}

export function explainPod(live: Record<string, unknown>, desired?: Record<string, unknown>): PodExplanation {
  const meta = (live.metadata ?? {}) as Record<string, unknown>;
  const labels = (meta.labels ?? {}) as Record<string, unknown>;
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  const pod = {
    namespace: typeof meta.namespace === 'string' ? meta.namespace : null,
    name: typeof meta.name === 'string' ? meta.name : null,
    kafkaCluster: typeof labels.kafka_cr === 'string' ? labels.kafka_cr : null,
    brokerId: typeof labels.brokerId === 'string' ? labels.brokerId : null,
  };
  const mutators = detectWebhookMarkers(live);
  const raw = annotations[LAST_APPLIED_ANNOTATION];
  if (typeof raw !== 'string') {
    return {
      pod,
      lastApplied: { found: false },
      wouldRevert: [],
      beforeFix: { restarts: false },
      afterFix: { restarts: false, fields: [] },
      mutators,
      verdict: `no ${LAST_APPLIED_ANNOTATION} annotation: this pod was not created by koperator (or the annotation was removed)`,
      recommendation: null,
    };
  }
  const decoded = decodeLastApplied(raw);
  if (!decoded.ok) {
    return {
      pod,
      lastApplied: { found: true, error: decoded.reason },
      wouldRevert: [],
      beforeFix: { restarts: false },
      afterFix: { restarts: false, fields: [] },
      mutators,
      verdict: `the last-applied annotation cannot be decoded: ${decoded.reason}`,
      recommendation: null,
    };
  }
  const original = decoded.value;
  const modified = desired ? (desiredOriginal(desired) ?? desired) : original;
  const three = redacted(threeWayDecision(original, modified, live));
  const intent = redacted(intentDecision(original, modified));
  // Where Go's diff fails koperator logs the error and restarts the pod, at every reconcile.
  const failed = three.error ?? intent.error;
  const verdict = failed
    ? `koperator cannot compute its diff for this pod (${failed.replace(/: [{["].*$/s, '')}): it logs the error and restarts the broker`
    : three.changed
      ? intent.changed
        ? 'the desired pod differs from what koperator last applied: both operators restart this broker once'
        : `koperator before the fix would delete and re-create this pod to revert ${three.fields.length} field(s) changed after it applied them; the intent-aware operator leaves it alone`
      : intent.changed
        ? 'the desired pod differs from the last-applied one: the intent-aware operator restarts this broker'
        : 'in sync: neither operator would restart this pod for its spec';
  return {
    pod,
    lastApplied: { found: true, encoding: decoded.encoding },
    wouldRevert: three.fields,
    beforeFix: { restarts: three.changed },
    afterFix: { restarts: intent.changed, fields: intent.fields },
    mutators,
    verdict,
    recommendation: three.changed
      ? loopRecommendation(
          intent.changed ? 'intent-change' : 'external-mutation-revert',
          (intent.changed ? intent.fields : three.fields).map((f) => f.path),
          mutators.map((m) => m.webhook),
        )
      : intent.changed
        ? loopRecommendation(
            'intent-change',
            intent.fields.map((f) => f.path),
            [],
          )
        : null,
  };
}

/** One line for a list of pods: the pod, then what each operator does. */
export function explanationLine(e: PodExplanation): string {
  const id = `${e.pod.namespace ?? '?'}/${e.pod.name ?? '?'}`;
  const before = e.beforeFix.restarts
    ? `RE-CREATED before the fix (${e.wouldRevert.length} field(s))`
    : 'left alone before the fix';
  const after = e.afterFix.restarts ? 're-created with the fix' : 'left alone with the fix';
  const note = e.lastApplied.found
    ? e.lastApplied.error
      ? ' (last-applied undecodable)'
      : ''
    : ' (not koperator’s)';
  return `${id}: ${before}, ${after}${note}`;
}

/** The explanation is printed and pasted into tickets: env values only for allowlisted names. */
function redacted<T extends { fields: FieldDiff[] }>(d: T): T {
  return { ...d, fields: d.fields.map((f) => ({ path: f.path, ...redactField(f.path, f.from, f.to) })) };
}

/** A desired pod may be given as koperator would stamp it (with its own last-applied) or plain. */
function desiredOriginal(desired: Record<string, unknown>): Record<string, unknown> | null {
  const ann = ((desired.metadata ?? {}) as Record<string, unknown>).annotations as
    Record<string, unknown> | undefined;
  const raw = ann?.[LAST_APPLIED_ANNOTATION];
  if (typeof raw !== 'string') return null;
  const d = decodeLastApplied(raw);
  return d.ok ? d.value : null;
}

export function renderExplanation(e: PodExplanation): string {
  const lines: string[] = [];
  const id = `${e.pod.namespace ?? '?'}/${e.pod.name ?? '?'}`;
  const broker = e.pod.kafkaCluster
    ? ` (KafkaCluster ${e.pod.kafkaCluster}, broker ${e.pod.brokerId ?? '?'})`
    : '';
  lines.push(`pod ${id}${broker}`);
  lines.push(
    `last-applied: ${e.lastApplied.found ? (e.lastApplied.error ? `undecodable (${e.lastApplied.error})` : `found (${e.lastApplied.encoding})`) : 'absent'}`,
  );
  lines.push(
    `koperator before the fix (three-way diff): ${e.beforeFix.restarts ? 'RESTARTS the broker' : 'leaves it alone'}`,
  );
  for (const f of e.wouldRevert) {
    lines.push(`  ${f.path}: declared ${JSON.stringify(f.from)} → live ${JSON.stringify(f.to)}`);
  }
  lines.push(
    `koperator with the fix (intent diff): ${e.afterFix.restarts ? 'RESTARTS the broker' : 'leaves it alone'}`,
  );
  for (const f of e.afterFix.fields)
    lines.push(`  ${f.path}: ${JSON.stringify(f.from)} → ${JSON.stringify(f.to)}`);
  if (e.mutators.length) {
    lines.push('mutating webhooks that left traces:');
    for (const m of e.mutators) lines.push(`  ${m.webhook} (${m.evidence})`);
  } else {
    lines.push('mutating webhooks that left traces: none recognised');
  }
  lines.push(`verdict: ${e.verdict}`);
  if (e.recommendation) lines.push(`what to do: ${e.recommendation}`);
  return lines.join('\n') + '\n';
}
