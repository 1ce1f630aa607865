// An operator (koperator) re-creating a member's pod, as one fact shows it: a successful delete
// of a pod that may be an operator's (lib/operators/registry.ts) by someone other than
// Kubernetes' own controllers. It is the first sign of a restart
// loop, so the ingest asks for the cluster's analysis as soon as such a fact is written
// (lib/alerts/evidence.ts) instead of waiting for the schedule.
import { isBuiltinPodController } from '../fights/relevance';
import type { Fact, PodWriteFact } from '../model/facts';
import { isOperatorPodName, mayBeOperatorPod } from './registry';

const succeeded = (code: number | null): boolean => code === null || (code >= 200 && code < 300);

/**
 * Whether `f` deletes a broker pod on the operator's behalf. `operatorUsers`, when given,
 * are the only users that count; otherwise anyone but the kubelet, the scheduler and the
 * built-in controllers does, since the ingest sees one object and cannot learn the
 * operator's identity the way the analysis does (a person's delete costs one extra run).
 */
export function isBrokerPodDelete(f: Fact, operatorUsers: readonly string[] = []): f is PodWriteFact {
  if (f.type !== 'pod' || f.verb !== 'delete' || f.subresource !== null || !succeeded(f.code)) return false;
  if (operatorUsers.length > 0 ? !operatorUsers.includes(f.user) : isBuiltinPodController(f.user))
    return false;
  // A delete's request is DeleteOptions; the pod, when logged, is the response. At Metadata
  // level only the name is left, and the operators' generateName patterns are all there is.
  return mayBeOperatorPod(f.response) || (f.name !== null && isOperatorPodName(f.name));
}
