// When a broker pod first served: its first status write that set Ready=True. The end of
// the downtime a recreation cost (summary.fixImpact), where the logs carry pod status.
import { readyInStatusBody } from '../k8s/pod-ready';
import type { Incarnation } from './timeline';

/** requestReceivedTimestamp of the pod's first Ready=True status write, or null if none is in the data. */
export function firstReadyAt(inc: Incarnation): string | null {
  for (const w of inc.writes) {
    if (w.subresource !== 'status') continue;
    if (readyInStatusBody(w.request) === true) return w.at;
  }
  return null;
}
