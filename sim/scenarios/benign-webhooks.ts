// Scenario 3 (negative control): a broker is added to a cluster whose pods get an istio-like
// sidecar and an appended toleration at every create. Both only add what koperator does not
// declare (and koperator merges live tolerations into declared ones), so nothing is restarted.
import { CLUSTERS } from '../fixtures';
import { patchKafkaCluster, person, secs, upscale, type Scenario } from './common';

export const benignWebhooks: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const cluster = world.cluster(CLUSTERS.geo);
  const brokerId = String(Math.max(...[...cluster.brokers.keys()].map(Number)) + 1);
  const edit = patchKafkaCluster(world, cluster, person(world, 'nadia@example.com'), start, 'kubectl-edit');
  const created = upscale(ctx, cluster, brokerId, edit.doneAt + secs(rng, 0.8, 2.5));
  return created.readyAt + secs(rng, 5, 20);
};
