// The cluster the scenarios play in, as it stands when the logs begin: KafkaClusters with broker
// pods created days earlier (their creation is not in the data), and the webhooks that were
// already installed then (a sidecar injector and a toleration injector in the Kafka namespace,
// policy engines that never mutate).
import type { Toleration } from 'kubernetes-types/core/v1';
import { admitPod, livePod } from './kube';
import { kafkaClusterSpec, brokerPod, stampLastApplied, type KafkaClusterSpec } from './pods';
import { podStatus } from './pod-status';
import { DAY, HOUR, SEC, type Micros } from './time';
import { istioInjector, passThrough, tolerationInjector } from './webhooks';
import type { ClusterState, World } from './world';

/** The KafkaClusters every timeline starts with, and which scenario uses which broker. */
export const CLUSTERS = {
  /** intent-change rolls all three brokers. */
  ledger: 'ledger-kafka',
  /** downscale removes broker 4; scaleops-loop adds broker 5. */
  clickstream: 'clickstream-kafka',
  /** manual-delete 0, eviction 1, affinity-loop 2, tainted 3, inplace-resize 4, oom 5. */
  search: 'search-kafka',
  /** Declares tolerations and one broker per node: benign-webhooks adds broker 3; config-change 1. */
  geo: 'geo-kafka',
  /** In the Metadata-only namespace: metadata-verbose-loop on broker 1. */
  metrics: 'metrics-kafka',
} as const;

export const TAINT_LABEL = 'maintenance.example.com/retiring';

function specs(world: World): Array<{ spec: KafkaClusterSpec; brokers: number }> {
  const ns = world.opts.namespace;
  const dedicated: Toleration[] = [
    { key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' },
  ];
  return [
    {
      spec: kafkaClusterSpec(CLUSTERS.ledger, {
        namespace: ns,
        uid: world.rng.uuid(),
        resources: { limits: { cpu: '3', memory: '8Gi' }, requests: { cpu: '2', memory: '6Gi' } },
        heapOpts: '-Xmx4G -Xms4G',
      }),
      brokers: 3,
    },
    { spec: kafkaClusterSpec(CLUSTERS.clickstream, { namespace: ns, uid: world.rng.uuid() }), brokers: 5 },
    {
      spec: kafkaClusterSpec(CLUSTERS.search, {
        namespace: ns,
        uid: world.rng.uuid(),
        resources: { limits: { cpu: '2', memory: '6Gi' }, requests: { cpu: '1500m', memory: '4Gi' } },
        heapOpts: '-Xmx3G -Xms3G',
        taintedBrokersSelector: { [TAINT_LABEL]: 'true' },
      }),
      brokers: 6,
    },
    {
      spec: kafkaClusterSpec(CLUSTERS.geo, {
        namespace: ns,
        uid: world.rng.uuid(),
        oneBrokerPerNode: true,
        tolerations: dedicated,
        priorityClassName: 'kafka-high',
      }),
      brokers: 3,
    },
    {
      spec: kafkaClusterSpec(CLUSTERS.metrics, {
        namespace: world.opts.metadataNamespace,
        uid: world.rng.uuid(),
        resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '500m', memory: '1Gi' } },
        heapOpts: '-Xmx1G -Xms1G',
      }),
      brokers: 3,
    },
  ];
}

export function pvcName(world: World, cluster: string, brokerId: string): string {
  return `${cluster}-${brokerId}-storage-0-${world.rng.nameSuffix()}`;
}

/** A broker pod that has been running since `createdAt`, before the logs begin. */
export function seedBroker(world: World, cluster: ClusterState, brokerId: string, createdAt: Micros): void {
  const stamped = stampLastApplied(brokerPod(cluster.spec, brokerId));
  const a = admitPod(world, stamped, createdAt);
  const used = new Set([...cluster.brokers.values()].map((p) => p.node.name));
  const nodes = world.kafkaNodes().filter((n) => !used.has(n.name));
  const node = world.rng.pick(nodes.length > 0 ? nodes : world.kafkaNodes());
  const pod = livePod(world, stamped, a, {
    cluster: cluster.spec.name,
    brokerId,
    node,
    createdAt,
    createAuditID: null,
  });
  const started = createdAt + 2 * SEC;
  pod.live = {
    ...pod.live,
    metadata: { ...pod.live.metadata, resourceVersion: world.nextResourceVersion() },
    spec: { ...(pod.live.spec ?? { containers: [] }), nodeName: node.name },
  };
  pod.live = {
    ...pod.live,
    status: podStatus(pod.live, 'running', {
      hostIP: node.ip,
      podIP: pod.podIP,
      startedAt: started,
      now: started + 30 * SEC,
      containerIDs: pod.containerIDs,
    }),
  };
  cluster.brokers.set(brokerId, pod);
  world.podLifetimes.push({ namespace: pod.namespace, name: pod.name, from: createdAt, to: Infinity });
}

/** Installs the long-standing webhooks and the KafkaClusters with their running brokers. */
export function seedWorld(world: World): void {
  const ns = world.opts.namespace;
  const meta = world.opts.metadataNamespace;
  const always = -Infinity;
  world.installWebhook(
    passThrough('gatekeeper-mutating-webhook-configuration', 'mutation.gatekeeper.sh'),
    [ns, meta],
    always,
  );
  world.installWebhook(istioInjector(), [ns], always);
  world.installWebhook(
    passThrough('kyverno-resource-mutating-webhook-cfg', 'mutate.kyverno.svc-fail'),
    [ns, meta],
    always,
  );
  world.installWebhook(tolerationInjector(), [ns], always);

  for (const { spec, brokers } of specs(world)) {
    const cluster: ClusterState = {
      spec,
      brokers: new Map(),
      state: 'ClusterRunning',
      specWrites: [],
      configOutOfSync: new Set(),
    };
    world.clusters.set(spec.name, cluster);
    for (let id = 0; id < brokers; id++) {
      spec.pvcNames[String(id)] = pvcName(world, spec.name, String(id));
      seedBroker(
        world,
        cluster,
        String(id),
        world.opts.start - world.rng.int(1, 20) * DAY - world.rng.int(0, 23) * HOUR,
      );
    }
  }
}
