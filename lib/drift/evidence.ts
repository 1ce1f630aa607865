// The writes in one batch of facts that may be a live drift (drift.md), for the ingest to ask
// for the cluster's analysis at once (lib/alerts/evidence.ts): a successful, real write to a
// broker pod, by someone who is not the operator, in a form the analysis could judge a drift.
// Cheap and one fact at a time: it does not find the pod just before the write (the batch
// may not hold it), so a write that restores a value, or changes nothing declared, still
// asks; a false positive costs one analysis run, a miss only waits for the schedule. Two
// shapes that are never drifts are left out, since a controller that annotates broker pods
// would otherwise ask for a run with every write: a body-less write to the pod itself
// (Metadata level: not reported, drift.md) and a patch touching only labels or annotations
// koperator does not declare.
import { isBuiltinPodController } from '../fights/relevance';
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import { isOperatorPodName, mayBeOperatorPod } from '../operators/registry';
import type { Fact, PodWriteFact } from '../model/facts';

const succeeded = (code: number | null): boolean => code === null || (code >= 200 && code < 300);

/** Writes the API server lets anyone make to a running pod (drift.md, "What counts"). */
const DRIFT_SUBRESOURCES = new Set<string | null>([null, 'ephemeralcontainers', 'resize']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isBrokerPod = (f: PodWriteFact): boolean =>
  mayBeOperatorPod(f.response) || (f.name !== null && isOperatorPodName(f.name));

/** The labels and annotations koperator declares for the pod, or null where the write does not show them. */
function declaredMetadata(pod: unknown): { labels: Set<string>; annotations: Set<string> } | null {
  const annotations = isRecord(pod) && isRecord(pod.metadata) ? pod.metadata.annotations : undefined;
  const encoded = isRecord(annotations) ? annotations[LAST_APPLIED_ANNOTATION] : undefined;
  if (typeof encoded !== 'string') return null;
  const d = decodeLastApplied(encoded);
  if (!d.ok) return null;
  const meta = isRecord(d.value.metadata) ? d.value.metadata : {};
  const keys = (v: unknown) => new Set(isRecord(v) ? Object.keys(v) : []);
  return { labels: keys(meta.labels), annotations: keys(meta.annotations) };
}

/**
 * A merge or strategic-merge patch that only sets labels or annotations koperator does not
 * declare (another controller's mark): never a drift. A JSON patch (an array) or a body
 * naming anything else is left to the analysis.
 */
function touchesOnlyUndeclaredMetadata(f: PodWriteFact): boolean {
  if (f.verb !== 'patch' || !isRecord(f.request)) return false;
  const { metadata, ...rest } = f.request;
  if (Object.keys(rest).some((k) => k !== 'apiVersion' && k !== 'kind')) return false;
  if (!isRecord(metadata)) return false;
  const { labels, annotations, ...otherMeta } = metadata;
  if (Object.keys(otherMeta).some((k) => k !== 'name' && k !== 'namespace' && k !== 'resourceVersion'))
    return false;
  const declared = declaredMetadata(f.response);
  if (!declared) return false;
  const names = (v: unknown) => (isRecord(v) ? Object.keys(v) : []);
  return (
    names(labels).every((k) => !declared.labels.has(k)) &&
    names(annotations).every((k) => !declared.annotations.has(k) && !k.startsWith('$'))
  );
}

/**
 * Whether `f` may be a drift. `operators`: the users that count as the operator (OPERATOR_USERS,
 * plus whoever created a broker pod in the same batch); without any, only Kubernetes' own
 * controllers (kubelet, scheduler, built-in controllers) are left out.
 */
export function isDriftWrite(f: Fact, operators: ReadonlySet<string> = new Set()): f is PodWriteFact {
  if (f.type !== 'pod' || (f.verb !== 'patch' && f.verb !== 'update')) return false;
  if (!DRIFT_SUBRESOURCES.has(f.subresource) || !succeeded(f.code) || f.dryRun) return false;
  if (operators.has(f.user) || isBuiltinPodController(f.user)) return false;
  if (!isBrokerPod(f)) return false;
  // Metadata level: only these two are reported without bodies (drift.md).
  if (f.subresource !== null) return true;
  if (f.response === undefined) return false;
  return !touchesOnlyUndeclaredMetadata(f);
}

/** The facts of one ingested batch that may be drifts, in their order. */
export function driftEvidence(facts: readonly Fact[], operatorUsers: readonly string[] = []): Fact[] {
  const operators = new Set(operatorUsers);
  // The analysis takes a broker pod's creator for the operator; a batch holding the create knows it too.
  if (operatorUsers.length === 0)
    for (const f of facts)
      if (f.type === 'pod' && f.verb === 'create' && f.subresource === null && isBrokerPod(f))
        operators.add(f.user);
  return facts.filter((f) => isDriftWrite(f, operators));
}
