// Stand-alone live broker pods, as `kubectl get pod -o yaml` prints them: a clean one, one a
// ScaleOps-like rightsizer or the VPA mutated at create (its live requests differ from
// last-applied), and one with an istio-like sidecar injected (benign). For the `explain-pod` command's tests.
import yaml from 'js-yaml';
import type { Pod } from 'kubernetes-types/core/v1';
import { sortKeys, toJson } from './json';
import { apiDefaults, builtinAdmission, storePod } from './admission';
import { brokerPod, kafkaClusterSpec, stampLastApplied } from './pods';
import { newContainerIDs, podStatus } from './pod-status';
import { Rng } from './rng';
import { parseTime, SEC } from './time';
import {
  istioInjector,
  passThrough,
  rightsizer,
  runWebhooks,
  vpaAdmission,
  type WebhookDef,
} from './webhooks';

export type LivePodKind = 'scaleops' | 'clean' | 'istio' | 'vpa';

/** The stored, running pod (typed), for callers that want the object rather than YAML. */
export function livePod(kind: LivePodKind, seed = 1, brokerId = 2): Pod {
  const rng = new Rng(seed).fork(`live-pod:${kind}`);
  const cluster = kafkaClusterSpec('inventory-kafka', {
    namespace: 'kafka',
    uid: rng.uuid(),
    pvcNames: { [String(brokerId)]: `inventory-kafka-${brokerId}-storage-0-${rng.nameSuffix()}` },
  });
  const stamped = stampLastApplied(brokerPod(cluster, brokerId));
  const hooks: WebhookDef[] = [
    passThrough('gatekeeper-mutating-webhook-configuration', 'mutation.gatekeeper.sh'),
  ];
  if (kind === 'istio') hooks.push(istioInjector());
  if (kind === 'scaleops')
    hooks.push(
      rightsizer('scaleops-mutating-webhook-configuration', 'pods.scaleops.sh', { policy: 'production' }),
    );
  if (kind === 'vpa') hooks.push(vpaAdmission('vpa-webhook-config', 'vpa.k8s.io', 'inventory-kafka-vpa'));
  const admitted = builtinAdmission(apiDefaults(stamped), rng.nameSuffix());
  const result = runWebhooks(
    admitted,
    hooks.map((def, index) => ({ index, def })),
    rng,
  );
  const createdAt = parseTime('2026-03-14T08:21:37Z') + rng.int(0, 86_400) * SEC;
  const name = `inventory-kafka-${brokerId}-${rng.nameSuffix()}`;
  const stored = storePod(result.pod, {
    name,
    uid: rng.uuid(),
    resourceVersion: String(rng.int(10_000_000, 90_000_000)),
    createdAt,
    manager: 'manager',
  });
  const node = `aks-kafkapool-${rng.int(10_000_000, 99_999_999)}-vmss00000${rng.int(0, 5)}`;
  const withNode: Pod = { ...stored, spec: { ...(stored.spec ?? { containers: [] }), nodeName: node } };
  const started = createdAt + 2 * SEC;
  const status = podStatus(withNode, 'running', {
    hostIP: `10.224.1.${rng.int(4, 250)}`,
    podIP: `10.244.${rng.int(0, 15)}.${rng.int(2, 250)}`,
    startedAt: started,
    now: started + 60 * SEC,
    containerIDs: newContainerIDs(withNode, rng),
  });
  return { ...withNode, status };
}

/** `kubectl get pod -o yaml` style dump (kubectl prints keys sorted). */
export function livePodYaml(kind: LivePodKind, seed = 1, brokerId = 2): string {
  const pod = livePod(kind, seed, brokerId);
  // kubectl hides managedFields unless --show-managed-fields is given.
  const { managedFields: _hidden, ...metadata } = pod.metadata ?? {};
  return yaml.dump(sortKeys(toJson({ apiVersion: 'v1', kind: 'Pod', ...pod, metadata })), {
    lineWidth: -1,
    noRefs: true,
  });
}
