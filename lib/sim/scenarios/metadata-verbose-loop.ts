// Scenario 10: the same kind of loop where the audit policy keeps pod writes at Metadata level
// (no bodies: only the webhooks' `mutated` annotations and the scheduler's bindings), so the
// operator is restarted with --verbose and its "kafka pod resource diffs" lines carry the states.
// A VPA-like admission controller sets requests; a cluster-autoscaler eviction starts it; deleting
// the VPA object ends it (the webhook is still called, but no longer mutates).
import { evictPod, kubeletFinalDelete } from '../kube';
import { CLUSTERS } from '../fixtures';
import { externalLoss } from '../operator';
import { MS } from '../time';
import { passThrough, vpaAdmission } from '../webhooks';
import {
  controller,
  person,
  revertLoop,
  secs,
  webhookConfigObject,
  webhookConfigWrite,
  type Scenario,
} from './common';

export const metadataVerboseLoop: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const ns = world.opts.metadataNamespace;
  world.verboseFrom = Math.min(world.verboseFrom, start);
  const hook = vpaAdmission();
  const vpa = controller(
    world,
    'kube-system',
    'vpa-admission-controller',
    'admission-controller/v0.0.0 (linux/amd64) kubernetes/$Format',
  );
  webhookConfigWrite(
    world,
    vpa,
    start + secs(rng, 20, 40),
    'create',
    hook,
    webhookConfigObject(hook, 'kube-system'),
  );
  const installed = world.installWebhook(hook, [ns], start + secs(rng, 41, 45));

  const autoscaler = controller(
    world,
    'kube-system',
    'cluster-autoscaler',
    'cluster-autoscaler/v1.33.0 (linux/amd64) kubernetes/$Format',
  );
  const pod = world.broker(CLUSTERS.metrics, 1);
  const ev = evictPod(world, pod, autoscaler, start + secs(rng, 80, 160));
  const gone = kubeletFinalDelete(world, pod, ev.doneAt + secs(rng, 3, 6));
  const first = externalLoss(
    world,
    CLUSTERS.metrics,
    pod,
    {
      at: ev.receivedAt,
      doneAt: ev.doneAt,
      by: autoscaler.username,
      auditID: ev.auditID,
      evidence: [ev.auditID],
    },
    gone.doneAt,
  );

  const fix = ctx.leaveRunning
    ? null
    : (at: number): void => {
        world.request({
          at,
          latency: 15 * MS,
          actor: person(world, 'kenji@example.com'),
          verb: 'delete',
          resource: 'verticalpodautoscalers',
          apiGroup: 'autoscaling.k8s.io',
          apiVersion: 'v1',
          namespace: ns,
          name: 'broker-vpa',
          code: 200,
        });
        installed.until = at;
        world.installWebhook(passThrough(hook.configuration, hook.webhook), [ns], at);
      };
  const loop = revertLoop(
    ctx,
    CLUSTERS.metrics,
    '1',
    { createdAt: first.createdAt, readyAt: first.readyAt },
    rng.int(4, 6),
    fix,
  );
  return loop.end;
};
