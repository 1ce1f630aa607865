// A drift alert's facts in words (drift.md), for every human channel: which pod, the write,
// whether it still stands, what koperator before its fix would have done, and what to do.
// Plain strings; each channel escapes and lays them out itself.
import type { Drift } from '../model/findings';

/** The write as the API server logged it: `patch`, `update pods/ephemeralcontainers`. */
export function driftWriteWords(d: Pick<Drift, 'verb' | 'subresource'>): string {
  return d.subresource ? `${d.verb} pods/${d.subresource}` : `${d.verb} pod`;
}

/** Whether the drift stands at the end of the logs read, or how it ended. */
export function driftStatusWords(d: Pick<Drift, 'ended'>): string {
  if (d.ended === null) return 'still stands at the end of the logs read';
  return d.ended.how === 'pod-deleted'
    ? `ended: the pod was deleted at ${d.ended.at}`
    : `ended: the declared value was written back at ${d.ended.at}`;
}

export function preFixWords(d: Pick<Drift, 'preFixWouldRevert'>): string {
  return d.preFixWouldRevert
    ? 'koperator before 0.30.0-rc1 would have reverted it (re-created the pod); the fix no longer does'
    : 'koperator before 0.30.0-rc1 would not have reverted it either';
}

export function driftRecommendation(d: Pick<Drift, 'kind' | 'severity' | 'ended'>): string {
  const stands = d.ended === null;
  if (d.kind === 'ephemeral-container')
    return stands
      ? 'A debug container was added to a running broker pod; it stays until the pod is deleted. If nobody planned it, delete the pod (koperator re-creates it as declared) and check who may write pods/ephemeralcontainers.'
      : 'A debug container was added to a broker pod, which has since been deleted. Check it was planned and who may write pods/ephemeralcontainers.';
  if (d.severity === 'autoscaler')
    return 'An autoscaler resized a broker in place. If that is wanted, declare the resources in the KafkaCluster so koperator agrees; else exclude the broker pods from the autoscaler.';
  const what =
    d.severity === 'tamper'
      ? 'Someone other than koperator changed what a running broker executes (image, command, env or privileges).'
      : 'Someone other than koperator changed a field koperator declares on a running broker pod.';
  return stands
    ? `${what} koperator 0.30.0-rc1 and later leave it in place: if it was not planned, delete the pod so koperator re-creates it as declared, and check who holds that access.`
    : `${what} It no longer stands; check it was planned and who holds that access.`;
}
