// Scenario 9: a broker is removed from the KafkaCluster. After Cruise Control drains it (status
// writes only), koperator deletes its pod, ConfigMap and PVC and creates nothing: an intent
// change with no successor and no fields.
import { CLUSTERS } from '../fixtures';
import { deletedByOperator, operatorDelete, reconcile, statusUpdate, type Decision } from '../operator';
import { MS } from '../time';
import { operatorWrite, patchKafkaCluster, person, secs, type Scenario } from './common';

export const downscale: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const cluster = world.cluster(CLUSTERS.clickstream);
  const brokerId = '4';
  const pod = world.broker(cluster.spec.name, brokerId);
  const edit = patchKafkaCluster(world, cluster, person(world, 'mia@example.com'), start, 'kubectl-edit');
  // Graceful downscale: Cruise Control moves the partitions away; koperator tracks it in status.
  let t = edit.doneAt + secs(rng, 1, 2);
  const end = t + secs(rng, 60, 150);
  while (t < end) {
    reconcile(world, cluster, t);
    statusUpdate(world, cluster, t + secs(rng, 0.05, 0.2));
    t += secs(rng, 12, 30);
  }
  const decision: Decision = {
    kind: 'diff',
    classification: 'intent-change',
    fields: [],
    wouldRestart: { threeWayMerge: false, intentDiff: false },
    delta: [],
    original: pod.lastApplied,
    modified: pod.lastApplied,
    current: pod.lastApplied,
  };
  const deleted = operatorDelete(world, cluster, pod, t, decision, { shutdown: [4, 7], downscale: true });
  const cm = operatorWrite(
    world,
    cluster,
    'delete',
    'configmaps',
    `${cluster.spec.name}-config-${brokerId}`,
    deleted.record.doneAt + secs(rng, 0.01, 0.05),
  );
  world.log.line(
    cm.doneAt + MS,
    deleted.ctx,
    'configMap for broker deleted',
    [
      ['configMap name', `${cluster.spec.name}-config-${brokerId}`],
      ['brokerId', brokerId],
    ],
    { level: 'debug' },
  );
  const pvc = operatorWrite(
    world,
    cluster,
    'delete',
    'persistentvolumeclaims',
    cluster.spec.pvcNames[brokerId],
    deleted.goneAt + secs(rng, 2, 5),
  );
  world.recreations.push({
    namespace: pod.namespace,
    kafkaCluster: cluster.spec.name,
    brokerId,
    deleted: deletedByOperator(world, pod, deleted),
    created: null,
    classification: 'intent-change',
    fields: [],
    wouldRestart: null,
    evidence: [edit.auditID, deleted.record.auditID],
    diffLogged: false,
  });
  return pvc.doneAt + secs(rng, 2, 6);
};
