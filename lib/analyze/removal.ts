// A broker removed from the KafkaCluster (a downscale) is in `recreations` by the findings
// contract (intent-change, createdPod null, evidence "downscale: …"), but nothing was
// re-created: the human views count and word it apart, the JSON stays as the contract says.
import type { Recreation } from '../model/findings';

/** The evidence line classify.ts writes for a downscale. */
export const DOWNSCALE_EVIDENCE = 'downscale:';

export function isBrokerRemoval(r: Pick<Recreation, 'createdPod' | 'evidence'>): boolean {
  return r.createdPod === null && (r.evidence ?? []).some((e) => e.startsWith(DOWNSCALE_EVIDENCE));
}
