// Scenario 4: someone raises the brokers' memory and heap in the KafkaCluster; koperator rolls
// the brokers one by one with the new values in their last-applied annotation. Around it: an
// earlier GitOps write to the same CR that changes nothing in the pods, and koperator's own
// status writes, neither of which is the intent's author.
import { CLUSTERS } from '../fixtures';
import { operatorRestart, reconcile } from '../operator';
import { MS } from '../time';
import { controller, patchKafkaCluster, person, secs, type Scenario } from './common';

export const intentChange: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const cluster = world.cluster(CLUSTERS.ledger);
  const flux = controller(
    world,
    'flux-system',
    'kustomize-controller',
    'kustomize-controller/v1.6.0 (linux/amd64) kubernetes/$Format',
  );
  patchKafkaCluster(world, cluster, flux, start, 'kustomize-controller');
  world.log.line(
    start + secs(rng, 0.3, 1),
    reconcile(world, cluster, start + secs(rng, 0.1, 0.3)),
    'CR status updated',
    [['status', 'ClusterRunning']],
  );

  const edit = patchKafkaCluster(
    world,
    cluster,
    person(world, 'carol@example.com'),
    start + secs(rng, 120, 300),
    'kubectl-edit',
  );
  cluster.spec.resources = { limits: { cpu: '3', memory: '12Gi' }, requests: { cpu: '2', memory: '10Gi' } };
  cluster.spec.heapOpts = '-Xmx6G -Xms6G';

  let at = edit.doneAt + secs(rng, 1, 3);
  let end = at;
  const ids = [...cluster.brokers.keys()].sort();
  ids.forEach((id, i) => {
    const r = operatorRestart(world, cluster.spec.name, id, at, {
      keepRolling: i < ids.length - 1,
      evidence: [edit.auditID],
    });
    // koperator waits for the restarted broker to rejoin (healthy replicas) before the next one.
    const next = r.readyAt + secs(rng, 10, 25);
    for (let g = r.readyAt + secs(rng, 1, 3); g < next - 2 * 1_000_000; g += secs(rng, 3, 6)) {
      world.log.line(g + 40 * MS, reconcile(world, cluster, g), 'Rolling Upgrade in Progress');
    }
    at = next;
    end = r.readyAt;
  });
  return end + secs(rng, 3, 8);
};
