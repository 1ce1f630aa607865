// Scenario 6: a node-retirement controller labels a live broker pod; the label matches the
// KafkaCluster's taintedBrokersSelector, so koperator deletes the pod whatever its diff says.
import { CLUSTERS, TAINT_LABEL } from '../fixtures';
import { patchPod } from '../kube';
import { operatorRestart } from '../operator';
import { controller, secs, type Scenario } from './common';

export const tainted: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const retirer = controller(
    world,
    'maintenance',
    'node-retirement-controller',
    'node-retirement-controller/v0.4.2 (linux/amd64) kubernetes/$Format',
  );
  const pod = world.broker(CLUSTERS.search, 3);
  patchPod(world, pod, retirer, start, {
    type: 'merge',
    body: { metadata: { labels: { [TAINT_LABEL]: 'true' } } },
  });
  const r = operatorRestart(world, CLUSTERS.search, '3', start + secs(rng, 1, 4));
  return r.readyAt + secs(rng, 2, 6);
};
