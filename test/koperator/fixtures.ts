// A koperator broker pod as koperator declares it, and the same pod as the API server stores
// it (defaults, the service-account token volume, default tolerations, status). Rows edit
// copies of these with small functions so each one shows only what it is about.
import { load } from 'js-yaml';
import type { Pod } from 'kubernetes-types/core/v1';

export function yaml<T = Pod>(s: string): T {
  return load(s) as T;
}

export const DESIRED: Pod = yaml(`
apiVersion: v1
kind: Pod
metadata:
  generateName: pipeline-kafka-4-
  namespace: kafka
  labels: { app: kafka, brokerId: "4", kafka_cr: pipeline-kafka, isBrokerNode: "true", isControllerNode: "false" }
  ownerReferences:
    - { apiVersion: kafka.banzaicloud.io/v1beta1, kind: KafkaCluster, name: pipeline-kafka, uid: 6d1a-uid, controller: true, blockOwnerDeletion: true }
spec:
  containers:
    - name: kafka
      image: ghcr.io/adobe/koperator/kafka:2.13-3.9.1
      command: [bash, -c, /opt/kafka/bin/kafka-server-start.sh /config/broker-config]
      env:
        - { name: KAFKA_HEAP_OPTS, value: -Xmx2G -Xms2G }
        - { name: CLASSPATH, value: /opt/kafka/libs/extensions/* }
      ports:
        - { name: tcp-internal, containerPort: 29092, protocol: TCP }
        - { name: tcp-controller, containerPort: 29093, protocol: TCP }
      resources:
        requests: { cpu: "1", memory: 2Gi }
        limits: { cpu: 1500m, memory: 3Gi }
      volumeMounts:
        - { name: broker-config, mountPath: /config }
        - { name: kafka-data-0, mountPath: /kafka-logs }
    - name: fluent-bit
      image: fluent/fluent-bit:3.1
      resources:
        requests: { cpu: 100m, memory: 256Mi }
        limits: { memory: 256Mi }
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: { matchLabels: { app: kafka, kafka_cr: pipeline-kafka } }
          topologyKey: kubernetes.io/hostname
  volumes:
    - { name: broker-config, configMap: { name: pipeline-kafka-config-4 } }
    - { name: kafka-data-0, persistentVolumeClaim: { claimName: pipeline-kafka-4-storage-0 } }
  terminationGracePeriodSeconds: 120
  serviceAccountName: default
`);

/** What the API server stores for `desired`: every default and injection no webhook of interest made. */
export function live(desired: Pod): Pod {
  const p = copy(desired);
  p.metadata = {
    ...p.metadata,
    name: 'pipeline-kafka-4-x7k2p',
    uid: 'pod-uid-1',
    resourceVersion: '48361499',
    creationTimestamp: '2026-11-02T10:40:06Z',
    annotations: {
      ...(p.metadata?.annotations ?? {}),
      'banzaicloud.com/last-applied': 'UEsDBBQACAAIAAAAAAAAAAAAAAAAAAAAAAAIAAAAb3JpZ2luYWw=',
    },
  };
  const spec = p.spec!;
  for (const c of spec.containers) {
    c.imagePullPolicy ??= 'IfNotPresent';
    c.terminationMessagePath = '/dev/termination-log';
    c.terminationMessagePolicy = 'File';
    c.volumeMounts = [
      ...(c.volumeMounts ?? []),
      {
        name: 'kube-api-access-9xq2m',
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
        readOnly: true,
      },
    ];
  }
  spec.volumes = [
    ...(spec.volumes ?? []),
    {
      name: 'kube-api-access-9xq2m',
      projected: {
        defaultMode: 420,
        sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }],
      },
    },
  ];
  spec.dnsPolicy = 'ClusterFirst';
  spec.restartPolicy = 'Always';
  spec.schedulerName = 'default-scheduler';
  spec.securityContext = {};
  spec.enableServiceLinks = true;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  spec.priority = 0;
  spec.tolerations = [
    ...(spec.tolerations ?? []),
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
  ];
  // status is read-only in kubernetes-types; a live pod has one all the same.
  return { ...p, status: { phase: 'Pending', qosClass: 'Burstable' } } as Pod;
}

export function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** A copy of `pod` changed by `f`. */
export function edit(pod: Pod, f: (p: Pod) => void): Pod {
  const p = copy(pod);
  f(p);
  return p;
}

export function kafka(p: Pod) {
  const c = p.spec!.containers.find((x) => x.name === 'kafka');
  if (!c) throw new Error('fixture has no kafka container');
  return c;
}
