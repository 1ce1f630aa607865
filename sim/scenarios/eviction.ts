// Scenario 5b: `kubectl drain` of the node a broker runs on: cordon, a first eviction refused
// (429) by the PodDisruptionBudget, a retry that succeeds (no delete event of its own), the
// kubelet's final delete, then koperator's successor on another node; the node is uncordoned later.
import { evictPod, kubeletFinalDelete } from '../kube';
import { CLUSTERS } from '../fixtures';
import { externalLoss } from '../operator';
import { MS, SEC } from '../time';
import { person, secs, type Scenario } from './common';

export const eviction: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const priya = person(world, 'priya@example.com');
  const pod = world.broker(CLUSTERS.search, 1);
  const node = pod.node.name;
  const cordon = (at: number, unschedulable: boolean | null): void => {
    world.request({
      at,
      latency: 18 * MS,
      actor: priya,
      verb: 'patch',
      resource: 'nodes',
      apiVersion: 'v1',
      name: node,
      requestObject: { spec: { unschedulable } },
      code: 200,
    });
  };
  cordon(start, true);
  world.cordoned.add(node);
  world.request({
    at: start + secs(rng, 0.2, 0.5),
    latency: 25 * MS,
    actor: priya,
    verb: 'list',
    resource: 'pods',
    apiVersion: 'v1',
    query: `fieldSelector=spec.nodeName%3D${node}`,
    code: 200,
  });
  const refused = evictPod(world, pod, priya, start + secs(rng, 0.6, 1.2), {
    refusedBy: `${CLUSTERS.search}-pdb`,
  });
  // kubectl drain retries a refused eviction every 5 seconds.
  const ok = evictPod(world, pod, priya, refused.receivedAt + 5 * SEC + secs(rng, 0, 0.05));
  const gone = kubeletFinalDelete(world, pod, ok.doneAt + secs(rng, 4, 7));
  const r = externalLoss(
    world,
    CLUSTERS.search,
    pod,
    {
      at: ok.receivedAt,
      doneAt: ok.doneAt,
      by: priya.username,
      auditID: ok.auditID,
      evidence: [refused.auditID, ok.auditID],
    },
    gone.doneAt,
  );
  const uncordonAt = r.readyAt + secs(rng, 60, 120);
  cordon(uncordonAt, null);
  world.cordoned.delete(node);
  return uncordonAt;
};
