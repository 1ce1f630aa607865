// Scenario 11: a VPA-updater-like controller resizes a live broker in place (Kubernetes 1.33+:
// a JSON patch on subresource `resize`), raising its cpu request. koperator sees the live request
// differ from the declared one and reverts by re-creating the pod; the successor keeps the
// declared value, so it happens once.
import { CLUSTERS } from '../fixtures';
import { patchPod } from '../kube';
import { operatorRestart } from '../operator';
import { secs, vpaUpdater, type Scenario } from './common';
import { getPath } from '../paths';

export const inplaceResize: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const updater = vpaUpdater(world);
  const pod = world.broker(CLUSTERS.search, 4);
  const idx = (pod.live.spec?.containers ?? []).findIndex((c) => c.name === 'kafka');
  const cpu = `${rng.pick([1600, 1700, 1800, 1900])}m`;
  const path = 'spec.containers[name=kafka].resources.requests.cpu';
  const declared = getPath(pod.lastApplied, path) ?? null;
  const resize = patchPod(
    world,
    pod,
    updater,
    start,
    {
      type: 'json',
      ops: [{ op: 'replace', path: `/spec/containers/${idx}/resources/requests/cpu`, value: cpu }],
    },
    'resize',
  );
  // An autoscaler's drift (drift.md), ended by the pre-fix revert below.
  world.drifts.push({
    pod,
    at: resize.receivedAt,
    auditID: resize.auditID,
    by: updater.username,
    verb: 'patch',
    subresource: 'resize',
    kind: 'resources',
    severity: 'autoscaler',
    fields: [{ path, declared, to: cpu }],
    preFixWouldRevert: true,
  });
  const r = operatorRestart(world, CLUSTERS.search, '4', start + secs(rng, 0.6, 2.5));
  return r.readyAt + secs(rng, 2, 6);
};
