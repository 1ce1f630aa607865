// Scenario 2: a topology defaulter appends a zone-spread term to the broker pods' preferred
// anti-affinity (an atomic list, so koperator sees the whole list changed). It bites when a chaos
// experiment kills a broker pod (an external deletion, not part of the loop): every successor is
// mutated again and reverted again, until the webhook is scoped away from Kafka pods.
import { gracefulDelete, kubeletFinalDelete } from '../kube';
import { CLUSTERS } from '../fixtures';
import { externalLoss } from '../operator';
import { affinityDefaulter } from '../webhooks';
import {
  controller,
  person,
  revertLoop,
  secs,
  webhookConfigObject,
  webhookConfigWrite,
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
  webhookConfigWrite(world, gitops, start, 'create', hook, webhookConfigObject(hook, 'topology-system'));
  const installed = world.installWebhook(hook, [ns], start + secs(rng, 0.05, 0.2));

  const chaos = controller(
    world,
    'chaos-testing',
    'chaos-controller-manager',
    'chaos-controller-manager/v0.0.0 (linux/amd64) kubernetes/$Format',
  );
  const pod = world.broker(CLUSTERS.search, 2);
  const del = gracefulDelete(world, pod, chaos, start + secs(rng, 90, 200));
  const gone = kubeletFinalDelete(world, pod, del.doneAt + secs(rng, 4, 7));
  const first = externalLoss(
    world,
    CLUSTERS.search,
    pod,
    {
      at: del.receivedAt,
      doneAt: del.doneAt,
      by: chaos.username,
      auditID: del.auditID,
      evidence: [del.auditID],
    },
    gone.doneAt,
  );

  const fix = ctx.leaveRunning
    ? null
    : (at: number): void => {
        const body = {
          webhooks: [
            {
              name: hook.webhook,
              objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['kafka'] }] },
            },
          ],
        };
        webhookConfigWrite(world, person(world, 'ana@example.com'), at, 'patch', hook, body);
        installed.until = at;
      };
  const loop = revertLoop(
    ctx,
    CLUSTERS.search,
    '2',
    { createdAt: first.createdAt, readyAt: first.readyAt },
    rng.int(4, 6),
    fix,
  );
  return loop.end;
};
