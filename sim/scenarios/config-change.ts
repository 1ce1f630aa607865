// Scenario 7: a per-broker setting that needs a restart changes in the KafkaCluster; koperator
// rewrites that broker's ConfigMap, marks its configuration out of sync and restarts it. The pod
// spec is unchanged (the pod has a sidecar and an appended toleration, which must not count).
import { CLUSTERS } from '../fixtures';
import { operatorRestart, reconcile, statusUpdate } from '../operator';
import { MS } from '../time';
import { operatorWrite, patchKafkaCluster, person, secs, type Scenario } from './common';

export const configChange: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const cluster = world.cluster(CLUSTERS.geo);
  const brokerId = '1';
  const edit = patchKafkaCluster(world, cluster, person(world, 'ivan@example.com'), start, 'kubectl-edit');
  const rctx = reconcile(world, cluster, edit.doneAt + secs(rng, 0.5, 1.5));
  const cm = operatorWrite(
    world,
    cluster,
    'update',
    'configmaps',
    `${cluster.spec.name}-config-${brokerId}`,
    edit.doneAt + secs(rng, 1.6, 2.4),
  );
  world.log.line(cm.doneAt + 2 * MS, rctx, 'resource updated', [], { resourceKind: '*v1.ConfigMap' });
  statusUpdate(world, cluster, cm.doneAt + secs(rng, 0.02, 0.1));
  cluster.configOutOfSync.add(brokerId);
  const r = operatorRestart(world, cluster.spec.name, brokerId, cm.doneAt + secs(rng, 2, 6), {
    evidence: [cm.auditID],
  });
  return r.readyAt + secs(rng, 2, 6);
};
