// Scenario 10: the same kind of loop where the audit policy keeps pod writes at Metadata level
// (no bodies: only the webhooks' `mutated` annotations and the scheduler's bindings). A VPA-like
// admission controller sets requests; a cluster-autoscaler eviction starts the loop. The first
// deletions leave no record of the pod's states, so the truth calls them `unknown`; then an
// engineer restarts koperator with --verbose, and from there each revert deletion is preceded by
// a "kafka pod resource diffs" line carrying original, modified and current. Deleting the VPA
// object ends the loop (the webhook is still called, but no longer mutates). With a
// Metadata-level cluster (auditLevel 'Metadata') koperator is verbose from the start.
import { parseServiceAccount } from '../audit-event';
import { evictPod } from '../kube';
import { CLUSTERS } from '../fixtures';
import { MS } from '../time';
import { passThrough, vpaAdmission } from '../webhooks';
import {
  controller,
  externalRemoval,
  installMutator,
  person,
  revertLoop,
  secs,
  type Scenario,
} from './common';

export const metadataVerboseLoop: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const ns = world.opts.metadataNamespace;
  const hook = vpaAdmission();
  const vpa = controller(
    world,
    'kube-system',
    'vpa-admission-controller',
    'admission-controller/v0.0.0 (linux/amd64) kubernetes/$Format',
  );
  const installed = installMutator(
    world,
    vpa,
    hook,
    'kube-system',
    ns,
    start + secs(rng, 20, 40),
    start + secs(rng, 41, 45),
  );

  const autoscaler = controller(
    world,
    'kube-system',
    'cluster-autoscaler',
    'cluster-autoscaler/v1.33.0 (linux/amd64) kubernetes/$Format',
  );
  const first = externalRemoval(
    ctx,
    world.broker(CLUSTERS.metrics, 1),
    autoscaler,
    (pod) => evictPod(world, pod, autoscaler, start + secs(rng, 80, 160)),
    [3, 6],
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
  // Before anyone looks: deletions with nothing in the logs but the deletes themselves.
  const blind = revertLoop(ctx, CLUSTERS.metrics, '1', first, rng.int(1, 2), null);
  const last = blind.restarts[blind.restarts.length - 1];
  // The operator's Deployment gets --verbose; its new pod takes over after a short restart.
  const sa = parseServiceAccount(world.operator.username);
  const patchAt = last.readyAt + secs(rng, 0.5, 2);
  world.request({
    at: patchAt,
    latency: 20 * MS,
    actor: person(world, 'kenji@example.com'),
    verb: 'patch',
    resource: 'deployments',
    apiGroup: 'apps',
    apiVersion: 'v1',
    namespace: sa?.namespace ?? world.opts.namespace,
    name: sa?.name ?? 'kafka-operator',
    query: 'fieldManager=kubectl-edit',
    requestObject: {
      spec: {
        template: {
          spec: { containers: [{ name: 'manager', args: ['--enable-leader-election', '--verbose'] }] },
        },
      },
    },
    code: 200,
  });
  const restarted = patchAt + secs(rng, 6, 14);
  world.verboseFrom = Math.min(world.verboseFrom, restarted);
  const loop = revertLoop(
    ctx,
    CLUSTERS.metrics,
    '1',
    { createdAt: last.createdAt, readyAt: restarted },
    rng.int(4, 5),
    fix,
  );
  return loop.end;
};
