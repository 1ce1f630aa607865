// Why each field of the intent diff differs, so that no actor is named for a change no field
// shows. Without --desired the KafkaCluster is assumed unchanged and the desired pod is the
// annotation as koperator's own marshalling writes it: every difference is then the
// annotation's form. With --desired, a desired pod copied from `kubectl get pod -o yaml`
// carries what the API server fills in and whatever changed the live pod; only where the
// desired pod holds a value the live pod does not is it the desired pod's own change.
import type { FieldDiff } from '../k8s/diff-decision';
import { isServerFilledPodPath, onlyDefaultTolerationsAdded } from '../k8s/server-filled';
import type { RecordedChange } from './webhook-markers';

export type DiffCause =
  /** The annotation is not in koperator's form: not a change of the KafkaCluster. */
  | 'annotation-form'
  /** Filled in by the API server or the scheduler, copied from the live pod into the desired one. */
  | 'server-filled'
  /** The live pod's value (a webhook, an autoscaler, a kubectl edit), copied into the desired pod. */
  | 'live-mutation'
  /** A value of the desired pod the live pod does not hold: the desired pod's own change. */
  | 'desired-change';

export interface ExplainedField extends FieldDiff {
  cause: DiffCause;
  /** The webhook whose own record on the live pod names this field; absent when none does. */
  by?: string;
}

export interface AttributionContext {
  /** A desired pod was given (--desired); else the KafkaCluster is assumed unchanged. */
  desiredGiven: boolean;
  /** Paths where the desired pod and the live pod differ (compared as koperator marshals both). */
  differsFromLive: ReadonlySet<string>;
  recorded: readonly RecordedChange[];
}

export function attributeIntent(fields: FieldDiff[], ctx: AttributionContext): ExplainedField[] {
  return fields.map((f) => {
    if (!ctx.desiredGiven) return { ...f, cause: 'annotation-form' };
    if (ctx.differsFromLive.has(f.path)) return { ...f, cause: 'desired-change' };
    if (isServerFilledPodPath(f.path)) return { ...f, cause: 'server-filled' };
    if (f.path === 'spec.tolerations' && onlyDefaultTolerationsAdded(f.from, f.to))
      return { ...f, cause: 'server-filled' };
    return withRecord({ ...f, cause: 'live-mutation' }, ctx.recorded);
  });
}

/** A reverted field, with the webhook whose record names it. */
export function attributeRevert(
  fields: FieldDiff[],
  recorded: readonly RecordedChange[],
): Array<FieldDiff & { by?: string }> {
  return fields.map((f) => withRecord({ ...f }, recorded));
}

function withRecord<T extends FieldDiff & { by?: string }>(f: T, recorded: readonly RecordedChange[]): T {
  const r = recorded.find((c) => c.path === f.path);
  return r ? { ...f, by: r.webhook } : f;
}
