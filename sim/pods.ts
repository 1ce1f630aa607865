// Broker pods the way koperator builds them (pkg/resources/kafka/pod.go), and what objectmatcher
// stores of them:
//
//   brokerPod()        the desired pod koperator generates from the KafkaCluster
//   lastAppliedOf()    what objectmatcher stores in `banzaicloud.com/last-applied`
//   stampLastApplied() the desired pod with that annotation, as koperator creates it
//
// What the API server and the kubelet make of the pod lives next door (admission.ts,
// pod-status.ts, pod-json.ts). This is the simulator's own model: close to koperator where it
// matters for the restart decision (declared fields, list order), simplified elsewhere (one data
// volume, no SSL listeners, no KRaft controllers).
import { createHash } from 'crypto';
import type {
  Affinity,
  Container,
  Pod,
  ResourceRequirements,
  Toleration,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../lib/k8s/last-applied';
import { clone, sortKeys, stripNullsAndEmpty, toJson, type JsonObject } from './json';

export const KAFKA_CLUSTER_API_VERSION = 'kafka.banzaicloud.io/v1beta1';

/** koperator's defaults when the CR sets no resources (koperator-diff-semantics.md). */
export const DEFAULT_BROKER_RESOURCES: ResourceRequirements = {
  limits: { cpu: '1500m', memory: '3Gi' },
  requests: { cpu: '1', memory: '2Gi' },
};

/** Resources koperator gives its init containers (a guess at k8sutil's defaults; see the report). */
const INIT_CONTAINER_RESOURCES: ResourceRequirements = {
  limits: { cpu: '100m', memory: '100Mi' },
  requests: { cpu: '100m', memory: '100Mi' },
};

/** The parts of a KafkaCluster CR that shape its broker pods. */
export interface KafkaClusterSpec {
  name: string;
  namespace: string;
  uid: string;
  image: string;
  metricsReporterImage: string;
  jmxExporterImage: string;
  resources: ResourceRequirements;
  heapOpts: string;
  oneBrokerPerNode: boolean;
  /** Declared tolerations (koperator then merges the live pod's tolerations into them). */
  tolerations?: Toleration[];
  priorityClassName?: string;
  serviceAccountName: string;
  terminationGracePeriodSeconds: number;
  listeners: Array<{ name: string; containerPort: number }>;
  /** Claim name of each broker's data volume; stable across pod recreations. */
  pvcNames: Record<string, string>;
  /** spec.taintedBrokersSelector.matchLabels */
  taintedBrokersSelector?: Record<string, string>;
}

/** A stable pseudo-uid for a name, for callers that do not track uids themselves. */
export function stableUid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function kafkaClusterSpec(name: string, overrides: Partial<KafkaClusterSpec> = {}): KafkaClusterSpec {
  const namespace = overrides.namespace ?? 'kafka';
  return {
    name,
    namespace,
    uid: stableUid(`kafkacluster/${namespace}/${name}`),
    image: 'ghcr.io/adobe/kafka:2.13-3.9.1',
    metricsReporterImage: 'ghcr.io/adobe/koperator/cruise-control-metrics-reporter:2.5.138',
    jmxExporterImage: 'ghcr.io/adobe/koperator/jmx-javaagent:1.0.1',
    resources: clone(DEFAULT_BROKER_RESOURCES),
    heapOpts: '-Xmx2G -Xms2G',
    oneBrokerPerNode: false,
    serviceAccountName: 'default',
    terminationGracePeriodSeconds: 120,
    listeners: [
      { name: 'tcp-internal', containerPort: 29092 },
      { name: 'tcp-controller', containerPort: 29093 },
    ],
    pvcNames: {},
    ...overrides,
  };
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The envoy wait script koperator runs as the kafka container's command (paraphrased). */
const KAFKA_COMMAND = [
  'bash',
  '-c',
  [
    'if [[ -n "$ENVOY_SIDECAR_STATUS" ]]; then',
    '  until curl -fsI http://localhost:15021/healthz/ready; do echo "waiting for envoy"; sleep 2; done',
    'fi',
    'exec /opt/kafka/bin/kafka-server-start.sh /config/broker-config',
  ].join('\n'),
];

const PRE_STOP = ['bash', '-c', 'touch /var/run/wait/do-not-wait-for-envoy; kill -s TERM $(pidof java)'];

function antiAffinity(cluster: KafkaClusterSpec): Affinity {
  const term = {
    labelSelector: { matchLabels: { app: 'kafka', kafka_cr: cluster.name } },
    topologyKey: 'kubernetes.io/hostname',
  };
  return cluster.oneBrokerPerNode
    ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } }
    : {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }],
        },
      };
}

/**
 * The desired broker pod as koperator generates it (before it stamps the last-applied
 * annotation). `cluster` may be a name, with `overrides` for the CR's settings.
 */
export function brokerPod(
  cluster: string | KafkaClusterSpec,
  brokerId: number | string,
  overrides: Partial<KafkaClusterSpec> = {},
): Pod {
  const c = typeof cluster === 'string' ? kafkaClusterSpec(cluster, overrides) : { ...cluster, ...overrides };
  const id = String(brokerId);
  const jmxConfig = `${c.name}-kafka-jmx-exporter`;
  const claim = c.pvcNames[id] ?? `${c.name}-${id}-storage-0-${stableUid(c.name + id).slice(0, 5)}`;

  const volumes: Volume[] = [
    { name: 'broker-config', configMap: { name: `${c.name}-config-${id}`, defaultMode: 420 } },
    { name: 'exitfile', emptyDir: {} },
    { name: 'extensions', emptyDir: {} },
    { name: 'jmx-jar-data', emptyDir: {} },
    { name: 'kafka-data-0', persistentVolumeClaim: { claimName: claim } },
    { name: jmxConfig, configMap: { name: jmxConfig, defaultMode: 420 } },
  ].sort(byName);

  const mounts: VolumeMount[] = [
    { name: 'broker-config', mountPath: '/config' },
    { name: 'exitfile', mountPath: '/var/run/wait' },
    { name: 'extensions', mountPath: '/opt/kafka/libs/extensions' },
    { name: 'jmx-jar-data', mountPath: '/opt/jmx-exporter/' },
    { name: 'kafka-data-0', mountPath: '/kafka-logs' },
    { name: jmxConfig, mountPath: '/etc/jmx-exporter/' },
  ].sort(byName);

  const kafka: Container = {
    name: 'kafka',
    image: c.image,
    command: KAFKA_COMMAND,
    ports: [
      ...c.listeners.map((l) => ({ name: l.name, containerPort: l.containerPort, protocol: 'TCP' })),
      { name: 'metrics', containerPort: 9020, protocol: 'TCP' },
    ],
    env: [
      { name: 'CLASSPATH', value: '/opt/kafka/libs/extensions/*' },
      {
        name: 'KAFKA_OPTS',
        value: '-javaagent:/opt/jmx-exporter/jmx_prometheus.jar=9020:/etc/jmx-exporter/config.yaml',
      },
      {
        name: 'ENVOY_SIDECAR_STATUS',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['sidecar.istio.io/status']" } },
      },
      { name: 'KAFKA_HEAP_OPTS', value: c.heapOpts },
      {
        name: 'KAFKA_JVM_PERFORMANCE_OPTS',
        value:
          '-server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -Djava.awt.headless=true',
      },
    ],
    resources: clone(c.resources),
    volumeMounts: mounts,
    lifecycle: { preStop: { exec: { command: PRE_STOP } } },
  };

  const initContainers: Container[] = [
    {
      name: 'cruise-control-reporter',
      image: c.metricsReporterImage,
      command: [
        '/bin/sh',
        '-cex',
        'cp -v /opt/cruise-control/cruise-control/build/dependant-libs/cruise-control-metrics-reporter.jar /opt/kafka/libs/extensions/cruise-control-metrics-reporter.jar',
      ],
      resources: clone(INIT_CONTAINER_RESOURCES),
      volumeMounts: [{ name: 'extensions', mountPath: '/opt/kafka/libs/extensions' }],
    },
    {
      name: 'jmx-exporter',
      image: c.jmxExporterImage,
      command: ['cp', '/jmx_prometheus_javaagent.jar', '/opt/jmx-exporter/jmx_prometheus.jar'],
      resources: clone(INIT_CONTAINER_RESOURCES),
      volumeMounts: [{ name: 'jmx-jar-data', mountPath: '/opt/jmx-exporter/' }],
    },
  ].sort(byName);

  const pod: Pod = {
    metadata: {
      generateName: `${c.name}-${id}-`,
      namespace: c.namespace,
      labels: {
        app: 'kafka',
        brokerId: id,
        isBrokerNode: 'true',
        isControllerNode: 'false',
        kafka_cr: c.name,
      },
      ownerReferences: [
        {
          apiVersion: KAFKA_CLUSTER_API_VERSION,
          kind: 'KafkaCluster',
          name: c.name,
          uid: c.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      volumes,
      initContainers,
      containers: [kafka],
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: c.terminationGracePeriodSeconds,
      serviceAccountName: c.serviceAccountName,
      affinity: antiAffinity(c),
      ...(c.tolerations && c.tolerations.length > 0 ? { tolerations: clone(c.tolerations) } : {}),
      ...(c.priorityClassName ? { priorityClassName: c.priorityClassName } : {}),
    },
    // Go marshals the zero PodStatus struct as {}; objectmatcher keeps an object that was {}.
    status: {},
  };
  return pod;
}

/** objectmatcher's stored form: the pod without the annotation itself, nulls and "" dropped, keys sorted. */
export function lastAppliedOf(desired: Pod): JsonObject {
  const json = toJson(desired);
  const meta = json.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    const annotations = meta.annotations;
    if (annotations && typeof annotations === 'object' && !Array.isArray(annotations)) {
      delete annotations[LAST_APPLIED_ANNOTATION];
      if (Object.keys(annotations).length === 0) delete meta.annotations;
    }
  }
  return sortKeys(stripNullsAndEmpty(json)) as JsonObject;
}

/** The desired pod with `banzaicloud.com/last-applied` set, as koperator creates it. */
export function stampLastApplied(desired: Pod): Pod {
  const pod = clone(desired);
  const value = encodeLastApplied(lastAppliedOf(desired));
  pod.metadata = {
    ...pod.metadata,
    annotations: { ...(pod.metadata?.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: value },
  };
  return pod;
}
