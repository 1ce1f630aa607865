// The writes in one batch of facts that may be a fight's (fights.md), for the ingest to ask
// for the cluster's analysis at once (lib/alerts/evidence.ts). A fight needs a history the
// batch does not have, so this picks what a fight cannot be without, cheaply and generously:
// a false positive costs one analysis run, a miss only waits for the schedule.
//   - field fight: one object written by two or more writers within the batch;
//   - hot loop: a patch that left out fields the API server then defaulted;
//   - recreate loop: a pod deleted by a controller of its own (not Kubernetes', not koperator's).
import type { Fact, ObjectWriteFact, PodWriteFact } from '../model/facts';
import { isBuiltinPodController } from './relevance';
import { isKoperatorPod, objectKey } from './writes';

const succeeded = (code: number | null): boolean => code === null || (code >= 200 && code < 300);

const writerOf = (f: ObjectWriteFact): string => f.impersonated ?? f.user;

function isForeignPodDelete(f: Fact): f is PodWriteFact {
  return (
    f.type === 'pod' &&
    f.verb === 'delete' &&
    f.subresource === null &&
    succeeded(f.code) &&
    !isBuiltinPodController(f.user) &&
    !isKoperatorPod(f)
  );
}

const isHotLoopShaped = (f: ObjectWriteFact): boolean => f.verb === 'patch' && (f.defaulted?.length ?? 0) > 0;

/** The facts of `facts` that may belong to a fight, in their order. */
export function fightEvidence(facts: readonly Fact[]): Fact[] {
  const writers = new Map<string, Set<string>>();
  for (const f of facts) {
    if (f.type !== 'object' || f.name === null || !succeeded(f.code)) continue;
    const key = objectKey(f.apiGroup, f.resource, f.namespace, f.name);
    const set = writers.get(key) ?? new Set<string>();
    set.add(writerOf(f));
    writers.set(key, set);
  }
  return facts.filter((f) => {
    if (isForeignPodDelete(f)) return true;
    if (f.type !== 'object' || f.name === null || !succeeded(f.code)) return false;
    return (
      isHotLoopShaped(f) ||
      (writers.get(objectKey(f.apiGroup, f.resource, f.namespace, f.name))?.size ?? 0) > 1
    );
  });
}
