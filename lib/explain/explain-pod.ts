// `explain-pod`: answers from one live pod, with no logs, what koperator would do with it
// at its next reconcile — before the fix (three-way diff against the live pod) and after
// (intent diff only). With no desired pod given, the KafkaCluster is assumed unchanged:
// modified = the last-applied annotation as koperator's own marshalling writes it.
import { diffFields } from '../k8s/field-diff';
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import type { FieldDiff } from '../k8s/diff-decision';
import { analysisOf, beforeAndAfterFix } from '../operators/analysis-registry';
import { annotationForm, describeForm, type AnnotationForm } from './annotation-form';
import { attributeIntent, attributeRevert, type DiffCause, type ExplainedField } from './attribute';
import { detectWebhookMarkers, recordedChanges, type MarkerHit } from './webhook-markers';
import { redactField } from '../analyze/redact';
import { changeLines } from '../report/change-lines';
import { DEFAULT_TOLERATION_KEYS } from '../k8s/server-filled';

// koperator's replay (lib/operators/): before the fix, and at the fix.
const KOPERATOR_ANALYSIS = analysisOf('koperator');
const { before: BEFORE_FIX, fixed: FIXED } = beforeAndAfterFix(KOPERATOR_ANALYSIS);

export interface PodExplanation {
  pod: {
    namespace: string | null;
    name: string | null;
    kafkaCluster: string | null;
    brokerId: string | null;
  };
  lastApplied: {
    found: boolean;
    encoding?: string;
    error?: string;
    /** Set when the annotation is not what koperator's annotator writes for its own content. */
    handWritten?: { lacks: string[]; extra: string[]; rewritten: string[] };
  };
  /**
   * What the desired pod is: `unchanged-kafkacluster` (no --desired: the annotation as
   * koperator's marshalling writes it), `file` (the --desired pod itself) or
   * `file-last-applied` (the last-applied annotation koperator stamped on the --desired pod).
   */
  desired: 'unchanged-kafkacluster' | 'file' | 'file-last-applied';
  /**
   * Fields the pre-fix operator would revert by deleting the pod; `by` where a webhook's record
   * names one; `note` where the difference comes from koperator's own steps, not from a writer.
   */
  wouldRevert: Array<FieldDiff & { by?: string; note?: string }>;
  beforeFix: { restarts: boolean };
  afterFix: { restarts: boolean; fields: ExplainedField[] };
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
      desired: desired ? 'file' : 'unchanged-kafkacluster',
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
      desired: desired ? 'file' : 'unchanged-kafkacluster',
      wouldRevert: [],
      beforeFix: { restarts: false },
      afterFix: { restarts: false, fields: [] },
      mutators,
      verdict: `the last-applied annotation cannot be decoded: ${decoded.reason}`,
      recommendation: null,
    };
  }
  const original = decoded.value;
  const form = formOf(original);
  // Without a desired pod the KafkaCluster is assumed unchanged: koperator would generate the
  // pod it last applied. Both decisions marshal the desired side as koperator does
  // (pod-diff.ts), so modified = original is the annotation as koperator would write it.
  const stamped = desired ? stampedOriginal(desired, raw) : null;
  const modified = stamped ?? desired ?? original;
  const three = redacted(BEFORE_FIX.decide(original, modified, live));
  const intent = redacted(FIXED.decide(original, modified, live));
  const recorded = recordedChanges(live);
  const fields = attributeIntent(intent.fields, {
    desiredGiven: desired !== undefined,
    differsFromLive: desired ? pathsDiffering(modified, live) : new Set(),
    recorded,
  });
  const twins = BEFORE_FIX.tolerationTwins?.(modified, live) ?? [];
  const wouldRevert = attributeRevert(three.fields, recorded).map((f) =>
    f.path === 'spec.tolerations' && twins.length > 0 ? { ...f, note: twinNote(twins) } : f,
  );
  // Where Go's diff fails koperator logs the error and restarts the pod, at every reconcile.
  const failed = three.error ?? intent.error;
  const e: PodExplanation = {
    pod,
    lastApplied: {
      found: true,
      encoding: decoded.encoding,
      ...(form.handWritten
        ? { handWritten: { lacks: form.lacks, extra: form.extra, rewritten: form.rewritten } }
        : {}),
    },
    desired: !desired ? 'unchanged-kafkacluster' : stamped ? 'file-last-applied' : 'file',
    wouldRevert,
    beforeFix: { restarts: three.changed },
    afterFix: { restarts: intent.changed, fields },
    mutators,
    verdict: '',
    recommendation: null,
  };
  if (failed) {
    const why = failed.replace(/: [{["].*$/s, '');
    e.verdict = `koperator cannot compute its diff for this pod (${why}): it logs the error and restarts the broker`;
    // No field shows who wrote the value, so no one is named.
    e.recommendation =
      `Find what wrote the value Go cannot read (${why}) and make it write one the Pod type accepts: ` +
      `koperator restarts this broker at every reconcile until then.`;
    return e;
  }
  e.verdict = verdictOf(e, form);
  e.recommendation = recommendationOf(e, form);
  return e;
}

/** The decoded annotation against koperator's marshalling of it; a form that cannot marshal is koperator's problem, not the form's. */
function formOf(original: Record<string, unknown>): AnnotationForm {
  try {
    return annotationForm(original, KOPERATOR_ANALYSIS.lastAppliedOf(original));
  } catch {
    return { handWritten: false, lacks: [], extra: [], rewritten: [] };
  }
}

/** Paths where two pods differ as koperator marshals them; every path when one cannot be marshalled. */
function pathsDiffering(a: unknown, b: unknown): ReadonlySet<string> {
  try {
    return new Set(
      diffFields(KOPERATOR_ANALYSIS.lastAppliedOf(a), KOPERATOR_ANALYSIS.lastAppliedOf(b)).map((f) => f.path),
    );
  } catch {
    return ALL_PATHS;
  }
}

const ALL_PATHS: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;

function actorsOf(fields: Array<{ by?: string }>): string[] {
  return [...new Set(fields.flatMap((f) => (f.by ? [f.by] : [])))];
}

const list = (paths: string[], max = 4) =>
  paths.length > max ? `${paths.slice(0, max).join(', ')} and ${paths.length - max} more` : paths.join(', ');

function verdictOf(e: PodExplanation, form: AnnotationForm): string {
  const byCause = (c: DiffCause) => e.afterFix.fields.filter((f) => f.cause === c);
  const own = byCause('desired-change');
  const before = e.beforeFix.restarts
    ? own.length > 0
      ? 'koperator before the fix restarts this broker once to apply the desired pod'
      : `koperator before the fix would delete and re-create this pod to revert ${e.wouldRevert.length} field(s) changed after it applied them`
    : 'koperator before the fix leaves it alone';
  if (!e.afterFix.restarts)
    return e.beforeFix.restarts
      ? `${before}; the intent-aware operator leaves it alone`
      : 'in sync: neither operator would restart this pod for its spec';
  if (e.desired === 'unchanged-kafkacluster') {
    // modified is the annotation as koperator writes it: only the annotation's form differs.
    const what = form.handWritten ? ` (${describeForm(form)})` : '';
    const how =
      form.lacks.length > 0
        ? "it lacks what koperator's annotator always writes"
        : "it is not written the way koperator's annotator writes it";
    return (
      `${before}; the annotation looks hand-written: ${how}${what}; ` +
      `real koperator would restart once for that alone, with no change of the KafkaCluster`
    );
  }
  const parts: string[] = [];
  if (own.length > 0)
    parts.push(
      `the desired pod changes ${own.length} field(s) koperator last applied (${list(own.map((f) => f.path))}): ` +
        `${e.beforeFix.restarts ? 'both operators restart' : 'the intent-aware operator restarts'} this broker once`,
    );
  else
    parts.push(
      `${before}; the intent-aware operator restarts this broker once, for differences copied from the live pod alone`,
    );
  const filled = byCause('server-filled');
  if (filled.length > 0)
    parts.push(
      `${filled.length} difference(s) are fields the API server fills in (${list(filled.map((f) => f.path))}), ` +
        `copied from the live pod: koperator's own desired pod never has them`,
    );
  const copied = byCause('live-mutation');
  if (copied.length > 0) {
    const actors = actorsOf(copied);
    parts.push(
      `${copied.length} are the live pod's own values (${list(copied.map((f) => f.path))}), copied into the desired pod` +
        (actors.length
          ? `; ${actors.join(', ')} recorded writing ${copied.filter((f) => f.by).length} of them`
          : ''),
    );
  }
  if (form.handWritten) parts.push(`the annotation looks hand-written (${describeForm(form)})`);
  return parts.join('; ');
}

function recommendationOf(e: PodExplanation, form: AnnotationForm): string | null {
  const out: string[] = [];
  const own = new Set(e.afterFix.fields.filter((f) => f.cause === 'desired-change').map((f) => f.path));
  const copiedDefaults = new Set(
    e.afterFix.fields.filter((f) => f.cause === 'server-filled').map((f) => f.path),
  );
  // What koperator before the fix reverts that the desired pod did not ask for (nor copy from
  // what the API server filled in): a live mutation, named after the webhooks whose own record
  // shows the field, and no other.
  // A difference koperator's own merge makes (`note`) has no writer to name.
  const reverted = e.wouldRevert.filter((f) => !f.note && !own.has(f.path) && !copiedDefaults.has(f.path));
  // A webhook's record on the pod is written at admission; a field no record covers is said as
  // such, never credited to a webhook that ran.
  if (e.beforeFix.restarts && reverted.length > 0)
    out.push(
      KOPERATOR_ANALYSIS.loopRecommendation(
        'external-mutation-revert',
        reverted.map((f) =>
          f.by ? { path: f.path, by: f.by, via: 'admission' as const } : { path: f.path, by: null },
        ),
      ),
    );
  const twins = e.wouldRevert.some((f) => f.path === 'spec.tolerations' && f.note);
  if (e.beforeFix.restarts && twins && !copiedDefaults.has('spec.tolerations'))
    out.push(
      'Declare the tolerations without tolerationSeconds in the KafkaCluster, or move to the intent-aware operator ' +
        `(${KOPERATOR_ANALYSIS.fixedVersion} or later): koperator's toleration merge keeps one with tolerationSeconds beside ` +
        'its live twin, a difference it restarts the broker for at every reconcile.',
    );
  if (own.size > 0)
    out.push(
      `Applying this desired pod is a change of the KafkaCluster (${list([...own])}): it restarts the broker once under ` +
        `either operator; nothing to fix unless it keeps coming back.`,
    );
  if (e.afterFix.fields.some((f) => f.cause === 'server-filled'))
    out.push(
      'Leave out of --desired what the API server fills in (nodeName, dnsPolicy, defaults, the token volume): ' +
        "koperator's desired pod, generated from the KafkaCluster, has none of it" +
        (twins && copiedDefaults.has('spec.tolerations')
          ? ", and the default tolerations copied with it are what koperator's toleration merge doubles."
          : '.'),
    );
  if (e.afterFix.restarts && e.desired === 'unchanged-kafkacluster' && form.handWritten)
    out.push(
      `The annotation was not written by koperator: nothing in the cluster asks for this restart. ` +
        `Write it as koperator does (the pod as Go marshals it, ${describeForm(form)}) to test by hand.`,
    );
  return out.length ? out.join(' ') : null;
}

/** Why the declared tolerations outnumber the live ones: koperator's merge, not a writer. */
function twinNote(twins: readonly unknown[]): string {
  const keys = [...new Set(twins.map((t) => String((t as Record<string, unknown>).key ?? '(any key)')))];
  const defaults = twins.every((t) =>
    DEFAULT_TOLERATION_KEYS.includes(String((t as Record<string, unknown>).key)),
  );
  return (
    `koperator's toleration merge keeps ${twins.length} desired toleration(s) with tolerationSeconds (${keys.join(', ')}) ` +
    `beside the live pod's equal one(s): Go compares tolerationSeconds by pointer, so the merged list never equals the ` +
    `live one, and real koperator before the fix restarts the broker for it at every reconcile` +
    (defaults
      ? `; these are the API server's default tolerations (DefaultTolerationSeconds), which a desired pod copied from the live one carries`
      : '')
  );
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
      : e.lastApplied.handWritten
        ? ' (last-applied looks hand-written)'
        : ''
    : ' (not koperator’s)';
  return `${id}: ${before}, ${after}${note}`;
}

/** A field's change as every report prints it (change-lines.ts): beside its label when one line, else under it. */
export function fieldChangeLines(
  label: string,
  f: { path: string; from: unknown; to: unknown },
  note: string,
): string[] {
  const changed = changeLines(f);
  return changed.length === 1
    ? [`  ${label}: ${changed[0]}${note}`]
    : [`  ${label}:${note}`, ...changed.map((l) => `      ${l}`)];
}

/** The explanation is printed and pasted into tickets: env values only for allowlisted names. */
export function redacted<T extends { fields: FieldDiff[] }>(d: T): T {
  return { ...d, fields: d.fields.map((f) => ({ path: f.path, ...redactField(f.path, f.from, f.to) })) };
}

/**
 * A desired pod may be given as koperator stamps it (a successor pod: its own last-applied)
 * or plain. One copied from the live pod carries the live pod's annotation too, which says
 * nothing of what is desired: then the pod itself is the desired one.
 */
export function stampedOriginal(
  desired: Record<string, unknown>,
  liveAnnotation: string,
): Record<string, unknown> | null {
  const ann = ((desired.metadata ?? {}) as Record<string, unknown>).annotations as
    Record<string, unknown> | undefined;
  const raw = ann?.[LAST_APPLIED_ANNOTATION];
  if (typeof raw !== 'string' || raw === liveAnnotation) return null;
  const d = decodeLastApplied(raw);
  return d.ok ? d.value : null;
}

/** The intent-aware restart comes from how the annotation was written, not from any field. */
function formOnly(e: PodExplanation): boolean {
  return (
    e.afterFix.restarts &&
    e.desired === 'unchanged-kafkacluster' &&
    e.lastApplied.handWritten !== undefined &&
    e.afterFix.fields.every((f) => f.cause === 'annotation-form')
  );
}

const DESIRED_WORDS: Record<PodExplanation['desired'], string> = {
  'unchanged-kafkacluster':
    "assumed: the KafkaCluster did not change (the last-applied annotation as koperator's marshalling writes it; --desired FILE to give one)",
  file: 'the --desired file',
  'file-last-applied': 'the last-applied annotation of the --desired file',
};

function causeWords(f: ExplainedField): string {
  switch (f.cause) {
    case 'annotation-form':
      return "the annotation's form, not a change";
    case 'server-filled':
      return 'filled in by the API server, copied from the live pod';
    case 'live-mutation':
      return f.by
        ? `the live value, ${f.by} recorded writing it`
        : 'the live value, copied from the live pod';
    case 'desired-change':
      return 'changed in the desired pod';
  }
}

export function renderExplanation(e: PodExplanation): string {
  const lines: string[] = [];
  const id = `${e.pod.namespace ?? '?'}/${e.pod.name ?? '?'}`;
  const broker = e.pod.kafkaCluster
    ? ` (KafkaCluster ${e.pod.kafkaCluster}, broker ${e.pod.brokerId ?? '?'})`
    : '';
  lines.push(`pod ${id}${broker}`);
  const hand = e.lastApplied.handWritten;
  const handNote = hand ? `, looks hand-written: ${describeForm({ handWritten: true, ...hand })}` : '';
  lines.push(
    `last-applied: ${e.lastApplied.found ? (e.lastApplied.error ? `undecodable (${e.lastApplied.error})` : `found (${e.lastApplied.encoding}${handNote})`) : 'absent'}`,
  );
  lines.push(`desired pod: ${DESIRED_WORDS[e.desired]}`);
  lines.push(
    `koperator before the fix (three-way diff): ${e.beforeFix.restarts ? 'RESTARTS the broker' : 'leaves it alone'}`,
  );
  for (const f of e.wouldRevert) {
    const by = f.by ? `  (${f.by} recorded writing it)` : '';
    lines.push(...fieldChangeLines(`${f.path} (declared → live)`, f, by));
    if (f.note) lines.push(`    why: ${f.note}`);
  }
  lines.push(
    `koperator with the fix (intent diff): ${e.afterFix.restarts ? (formOnly(e) ? "RESTARTS the broker once, for the annotation's form alone" : 'RESTARTS the broker') : 'leaves it alone'}`,
  );
  // What the API server fills in is listed once, by path: every pod copied from a live one has it.
  const filled = e.afterFix.fields.filter((f) => f.cause === 'server-filled');
  for (const f of e.afterFix.fields)
    if (f.cause !== 'server-filled') lines.push(...fieldChangeLines(f.path, f, `  (${causeWords(f)})`));
  if (filled.length > 0)
    lines.push(
      `  and ${filled.length} field(s) the API server fills in, copied from the live pod: ${list(
        filled.map((f) => f.path),
        6,
      )}`,
    );
  if (formOnly(e) && hand)
    lines.push(
      `  no field of the pod changed; the annotation: ${describeForm({ handWritten: true, ...hand })}`,
    );
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
