// Scenario 2: a topology defaulter appends a zone-spread term to the broker pods' preferred
// anti-affinity (an atomic list, so koperator sees the whole list changed). It bites when a chaos
// experiment kills a broker pod (an external deletion, not part of the loop): every successor is
// mutated again and reverted again, until the webhook is scoped away from Kafka pods.
import { gracefulDelete } from '../kube';
import { CLUSTERS } from '../fixtures';
import { affinityDefaulter } from '../webhooks';
import {
  controller,
  externalRemoval,
  installMutator,
  person,
  revertLoop,
  scopeWebhookAway,
  secs,
  type Scenario,
} from './common';

export const affinityLoop: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const ns = world.opts.namespace;
  const hook = affinityDefaulter();
  const gitops = controller(
    world,
    'argocd',
    'argocd-application-controller',
    'argocd-application-controller/v0.0.0 (linux/amd64) kubernetes/$Format',
  );
  const installed = installMutator(
    world,
    gitops,
    hook,
    'topology-system',
    ns,
    start,
    start + secs(rng, 0.05, 0.2),
  );

  const chaos = controller(
    world,
    'chaos-testing',
    'chaos-controller-manager',
    'chaos-controller-manager/v0.0.0 (linux/amd64) kubernetes/$Format',
  );
  const first = externalRemoval(
    ctx,
    world.broker(CLUSTERS.search, 2),
    chaos,
    (pod) => gracefulDelete(world, pod, chaos, start + secs(rng, 90, 200)),
    [4, 7],
  );

  const fix = ctx.leaveRunning
    ? null
    : scopeWebhookAway(world, person(world, 'ana@example.com'), hook, installed, {
        objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['kafka'] }] },
      });
  return revertLoop(ctx, CLUSTERS.search, '2', first, rng.int(4, 6), fix).end;
};
