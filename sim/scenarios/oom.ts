// Scenario 8: the kafka container is OOM-killed (exit code 137); with restartPolicy Never the pod
// keeps a terminated container, which koperator replaces.
import { CLUSTERS } from '../fixtures';
import { reportStatus } from '../kube';
import { operatorRestart } from '../operator';
import { MS } from '../time';
import { secs, type Scenario } from './common';

export const oom: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const pod = world.broker(CLUSTERS.search, 5);
  const report = reportStatus(world, pod, 'oom-killed', start, pod.createdAt + 2_000_000);
  pod.terminated = { containerName: 'kafka', exitCode: 137, reason: 'OOMKilled' };
  pod.causeAuditIDs.push(report.auditID);
  world.request({
    at: start + secs(rng, 0.05, 0.3),
    latency: 6 * MS,
    actor: world.kubelet(pod.node),
    verb: 'create',
    resource: 'events',
    apiVersion: 'v1',
    namespace: pod.namespace,
    code: 201,
  });
  const r = operatorRestart(world, CLUSTERS.search, '5', start + secs(rng, 1, 3), { shutdown: [0.5, 1.5] });
  return r.readyAt + secs(rng, 2, 6);
};
