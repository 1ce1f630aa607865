// What koperator does when nothing happens: a reconcile of every KafkaCluster every minute or
// two (a "Reconciling KafkaCluster" line, a list of the cluster's pods, a read of the CR) and its
// leader-election lease renewals.
import { reconcile } from './operator';
import { parseServiceAccount } from './audit-event';
import { MS, SEC, type Micros } from './time';
import type { World } from './world';

export function background(world: World, from: Micros, to: Micros): void {
  for (const cluster of world.clusters.values()) {
    for (let t = from + world.rng.int(5, 60) * SEC; t < to; t += world.rng.int(45, 110) * SEC) {
      reconcile(world, cluster, t);
      world.request({
        at: t + world.rng.int(5, 30) * MS,
        latency: world.rng.int(3, 15) * MS,
        actor: world.operator,
        verb: 'list',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: cluster.spec.namespace,
        query: `labelSelector=app%3Dkafka%2Ckafka_cr%3D${cluster.spec.name}`,
        code: 200,
      });
    }
  }
  const sa = parseServiceAccount(world.operator.username);
  const leaseNamespace = sa?.namespace ?? world.opts.namespace;
  for (let t = from + world.rng.int(1, 10) * SEC; t < to; t += world.rng.int(10, 16) * SEC) {
    world.request({
      at: t,
      latency: world.rng.int(2, 9) * MS,
      actor: world.operator,
      verb: 'update',
      resource: 'leases',
      apiGroup: 'coordination.k8s.io',
      apiVersion: 'v1',
      namespace: leaseNamespace,
      name: 'controller-leader-election-helper',
      code: 200,
    });
  }
}
