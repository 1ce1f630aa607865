// Scenario 1: a ScaleOps-like rightsizer is installed; a broker added to the KafkaCluster gets its
// requests rewritten at create; koperator (before the fix) reverts by re-creating the pod, which
// the webhook rewrites again: a revert loop on resource requests, until the webhook is told to
// leave the namespace alone (or, as the timeline's last scenario, still looping at the end).
import { type Actor } from '../audit-event';
import { CLUSTERS } from '../fixtures';
import { rightsizer } from '../webhooks';
import {
  installMutator,
  patchKafkaCluster,
  person,
  revertLoop,
  scopeWebhookAway,
  secs,
  upscale,
  type Scenario,
} from './common';

export const scaleopsLoop: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const ns = world.opts.namespace;
  const cluster = world.cluster(CLUSTERS.clickstream);
  const hook = rightsizer();
  const installer: Actor = { ...person(world, 'tomas@example.com'), userAgent: 'Helm/3.18.4' };
  const installed = installMutator(
    world,
    installer,
    hook,
    'rightsizer-system',
    ns,
    start,
    start + secs(rng, 0.05, 0.2),
  );

  const brokerId = String(Math.max(...[...cluster.brokers.keys()].map(Number), 4) + 1);
  const edit = patchKafkaCluster(
    world,
    cluster,
    person(world, 'leo@example.com'),
    start + secs(rng, 60, 150),
    'kubectl-edit',
  );
  const first = upscale(ctx, cluster, brokerId, edit.doneAt + secs(rng, 0.6, 1.8));

  const fix = ctx.leaveRunning
    ? null
    : scopeWebhookAway(world, person(world, 'tomas@example.com'), hook, installed, {
        namespaceSelector: {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [ns] }],
        },
      });
  const loop = revertLoop(
    ctx,
    cluster.spec.name,
    brokerId,
    { createdAt: first.record.receivedAt, readyAt: first.readyAt },
    rng.int(6, 9),
    fix,
  );
  return loop.end;
};
