// Scenario 5a: an engineer deletes a broker pod with kubectl; koperator creates a new one.
import { gracefulDelete, kubeletFinalDelete } from '../kube';
import { CLUSTERS } from '../fixtures';
import { externalLoss } from '../operator';
import { MS } from '../time';
import { person, secs, type Scenario } from './common';

export const manualDelete: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const oscar = person(world, 'oscar@example.com');
  const pod = world.broker(CLUSTERS.search, 0);
  world.request({
    at: start,
    latency: 20 * MS,
    actor: oscar,
    verb: 'list',
    resource: 'pods',
    apiVersion: 'v1',
    namespace: pod.namespace,
    query: 'limit=500',
    code: 200,
  });
  const del = gracefulDelete(world, pod, oscar, start + secs(rng, 15, 40), {
    propagationPolicy: 'Background',
  });
  const gone = kubeletFinalDelete(world, pod, del.doneAt + secs(rng, 4, 7));
  const r = externalLoss(
    world,
    CLUSTERS.search,
    pod,
    {
      at: del.receivedAt,
      doneAt: del.doneAt,
      by: oscar.username,
      auditID: del.auditID,
      evidence: [del.auditID],
    },
    gone.doneAt,
  );
  return r.readyAt + secs(rng, 2, 6);
};
