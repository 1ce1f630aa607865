// A NifiCluster (nifi.konpyutaika.com/v1) and the node pods NiFiKop builds for it, as
// pkg/resources/nifi/pod.go does: generateName and hostname `<cluster>-<id>-node`, labels
// `app: nifi`, `nifi_cr`, `nodeId`, the CR's pod annotations plus the monitoring ones, init
// containers and containers (the `nifi` one and the CR's sidecars) sorted by name, volumes and
// mounts sorted by name, the node's configuration from the Secret `<cluster>-config-<id>`, a TCP
// liveness probe and an exec readiness probe unless the CR overrides them.
import type { Container, Pod, Probe, Volume, VolumeMount } from 'kubernetes-types/core/v1';
import { stableUid } from '../pods';

export const NIFI_CLUSTER_API_VERSION = 'nifi.konpyutaika.com/v1';
export const NIFI_CLUSTER_KIND = 'NifiCluster';

export interface NifiClusterSpec {
  name: string;
  namespace: string;
  uid: string;
  /** Node ids, as `spec.nodes[].id`. */
  nodes: string[];
  image: string;
  /** `spec.listenersConfig` internal HTTP port. */
  httpPort: number;
  /** `spec.listenersConfig` prometheus port: adds the monitoring annotations. */
  metricsPort: number | null;
  /** `spec.pod.annotations`. */
  podAnnotations: Record<string, string>;
  /** `spec.initContainers`. */
  initContainers: Container[];
  /** `spec.sidecarConfigs`. */
  sidecars: Container[];
  /** `spec.pod.readinessProbe` / `livenessProbe` overrides. */
  readinessProbe: Probe | null;
  livenessProbe: Probe | null;
}

export function nifiClusterSpec(name: string, overrides: Partial<NifiClusterSpec> = {}): NifiClusterSpec {
  return {
    name,
    namespace: 'nifi',
    uid: stableUid(`nificluster/${name}`),
    nodes: ['0', '1', '2'],
    image: 'apache/nifi:2.0.0',
    httpPort: 8080,
    metricsPort: 9020,
    podAnnotations: {},
    initContainers: [],
    sidecars: [],
    readinessProbe: null,
    livenessProbe: null,
    ...overrides,
  };
}

export function nodeName(cluster: string, nodeId: string): string {
  return `${cluster}-${nodeId}-node`;
}

/** The Secret holding a node's nifi.properties and friends (templates.NodeConfigTemplate). */
export function nodeConfigSecretName(cluster: string, nodeId: string): string {
  return `${cluster}-config-${nodeId}`;
}

const byName = <T extends { name?: string }>(a: T, b: T): number =>
  (a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0;

/** The pod NiFiKop generates for a node now (no last-applied annotation yet). */
export function nifiNodePod(spec: NifiClusterSpec, nodeId: string): Pod {
  const mounts: VolumeMount[] = [
    { name: 'node-config', mountPath: '/opt/nifi/nifi-current/tmp' },
    { name: 'node-tmp', mountPath: '/tmp' },
  ].sort(byName);
  const volumes: Volume[] = [
    {
      name: 'node-config',
      secret: { secretName: nodeConfigSecretName(spec.name, nodeId), defaultMode: 420 },
    },
    { name: 'node-tmp', emptyDir: {} },
  ].sort(byName);
  const nifi: Container = {
    name: 'nifi',
    image: spec.image,
    imagePullPolicy: 'IfNotPresent',
    command: ['bash', '-ce', 'exec bin/nifi.sh run'],
    ports: [{ name: 'http', containerPort: spec.httpPort, protocol: 'TCP' }],
    resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '2', memory: '4Gi' } },
    livenessProbe: spec.livenessProbe ?? {
      tcpSocket: { port: spec.httpPort },
      initialDelaySeconds: 90,
      timeoutSeconds: 20,
      periodSeconds: 60,
      failureThreshold: 5,
    },
    readinessProbe: spec.readinessProbe ?? {
      exec: { command: ['bash', '-c', `curl -kv http://$(hostname -f):${spec.httpPort}/nifi-api`] },
      initialDelaySeconds: 60,
      timeoutSeconds: 10,
      periodSeconds: 20,
      failureThreshold: 5,
    },
    volumeMounts: mounts,
  };
  const annotations: Record<string, string> = { ...spec.podAnnotations };
  if (spec.metricsPort !== null) {
    annotations['prometheus.io/scrape'] = 'true';
    annotations['prometheus.io/port'] = String(spec.metricsPort);
  }
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: nodeName(spec.name, nodeId),
      namespace: spec.namespace,
      labels: { app: 'nifi', nifi_cr: spec.name, nodeId },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [
        {
          apiVersion: NIFI_CLUSTER_API_VERSION,
          kind: NIFI_CLUSTER_KIND,
          name: spec.name,
          uid: spec.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [nifi, ...spec.sidecars].sort(byName),
      volumes,
      hostname: nodeName(spec.name, nodeId),
      subdomain: `${spec.name}-headless`,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 120,
      dnsPolicy: 'ClusterFirst',
      securityContext: {
        runAsUser: 1000,
        runAsNonRoot: true,
        fsGroup: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                labelSelector: { matchLabels: { app: 'nifi', nifi_cr: spec.name } },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
    },
    // Go marshals the zero PodStatus as {}: the last-applied annotation keeps it.
    status: {},
  };
  if (spec.initContainers.length > 0) pod.spec!.initContainers = [...spec.initContainers].sort(byName);
  return JSON.parse(JSON.stringify(pod)) as Pod;
}
