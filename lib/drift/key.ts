// A drift's identity across runs: the pod and the write's time (drift.md matches on them).
// The pod's name rather than its uid: the uid is null where the logs never show it, and a
// later window that does show it must not make the same write a new drift.
import type { Drift } from '../model/findings';

export function driftKey(d: Pick<Drift, 'namespace' | 'pod' | 'at'>): string {
  return `${d.namespace}/${d.pod.name}@${d.at}`;
}
