// Broker pods the way koperator builds them, and what the API server makes of them.
//
//   brokerPod()        the desired pod koperator generates from the KafkaCluster (pod.go)
//   lastAppliedOf()    what objectmatcher stores in `banzaicloud.com/last-applied`
//   apiDefaults()      API defaulting: the create's audit `requestObject` (before admission)
//   builtinAdmission() the built-in mutating admission plugins that run before any webhook
//                      (ServiceAccount token volume, DefaultTolerationSeconds, Priority)
//   storePod()         what the registry adds on create (name, uid, resourceVersion, status)
//
// This is the simulator's own model: close to koperator and Kubernetes where it matters for
// the restart decision (declared fields, list order, defaults only in the live pod), simplified
// elsewhere (one data volume, no SSL listeners, no KRaft controllers).
import { createHash } from 'crypto';
import type {
  Affinity,
  Container,
  ContainerStatus,
  Pod,
  PodCondition,
  PodStatus,
  ResourceRequirements,
  Toleration,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import {
  clone,
  orderKeys,
  sortKeys,
  stripNullsAndEmpty,
  toJson,
  type JsonObject,
  type JsonValue,
} from './json';
import { canonicalQuantity, parseQuantityMilli } from './quantity';
import type { Rng } from './rng';
import { fmtSeconds, type Micros } from './time';

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

function defaultContainer(c: Container): Container {
  const out = clone(c);
  out.ports = out.ports?.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' }));
  out.env = out.env?.map((e) =>
    e.valueFrom?.fieldRef
      ? { ...e, valueFrom: { ...e.valueFrom, fieldRef: { apiVersion: 'v1', ...e.valueFrom.fieldRef } } }
      : e,
  );
  out.resources = out.resources ?? {};
  out.terminationMessagePath = out.terminationMessagePath ?? '/dev/termination-log';
  out.terminationMessagePolicy = out.terminationMessagePolicy ?? 'File';
  const tagged = /:[^/]+$/.test(out.image ?? '') && !(out.image ?? '').endsWith(':latest');
  out.imagePullPolicy = out.imagePullPolicy ?? (tagged ? 'IfNotPresent' : 'Always');
  return out;
}

function defaultVolume(v: Volume): Volume {
  const out = clone(v);
  if (out.configMap) out.configMap.defaultMode = out.configMap.defaultMode ?? 420;
  if (out.secret) out.secret.defaultMode = out.secret.defaultMode ?? 420;
  if (out.projected) out.projected.defaultMode = out.projected.defaultMode ?? 420;
  if (out.downwardAPI) out.downwardAPI.defaultMode = out.downwardAPI.defaultMode ?? 420;
  return out;
}

/** API defaulting, as decoded before admission: the create's audit `requestObject`. */
export function apiDefaults(pod: Pod): Pod {
  const out = clone(pod);
  const spec = out.spec ?? { containers: [] };
  spec.volumes = spec.volumes?.map(defaultVolume);
  spec.initContainers = spec.initContainers?.map(defaultContainer);
  spec.containers = spec.containers.map(defaultContainer);
  spec.restartPolicy = spec.restartPolicy ?? 'Always';
  spec.terminationGracePeriodSeconds = spec.terminationGracePeriodSeconds ?? 30;
  spec.dnsPolicy = spec.dnsPolicy ?? 'ClusterFirst';
  spec.securityContext = spec.securityContext ?? {};
  spec.schedulerName = spec.schedulerName ?? 'default-scheduler';
  spec.enableServiceLinks = spec.enableServiceLinks ?? true;
  out.spec = spec;
  return { ...out, status: out.status ?? {} };
}

export const SA_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The built-in mutating admission plugins, which run before any webhook: the ServiceAccount
 * plugin (token volume and mounts), DefaultTolerationSeconds and Priority. Webhook patches are
 * relative to this object, not to the audit `requestObject`.
 */
export function builtinAdmission(pod: Pod, tokenVolumeSuffix: string, priority = 0): Pod {
  const out = clone(pod);
  const spec = out.spec ?? { containers: [] };
  spec.serviceAccountName = spec.serviceAccountName ?? 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const volumeName = `kube-api-access-${tokenVolumeSuffix}`;
  spec.volumes = [
    ...(spec.volumes ?? []),
    {
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
        defaultMode: 420,
      },
    },
  ];
  const mount: VolumeMount = { name: volumeName, readOnly: true, mountPath: SA_TOKEN_MOUNT_PATH };
  spec.initContainers = spec.initContainers?.map((c) => ({
    ...c,
    volumeMounts: [...(c.volumeMounts ?? []), mount],
  }));
  spec.containers = spec.containers.map((c) => ({ ...c, volumeMounts: [...(c.volumeMounts ?? []), mount] }));
  const tolerations = spec.tolerations ?? [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => t.key === key))
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tolerations;
  spec.priority = priority;
  spec.preemptionPolicy = 'PreemptLowerPriority';
  out.spec = spec;
  return out;
}

function milli(q: string | undefined): number | null {
  return q === undefined ? null : parseQuantityMilli(q);
}

/** The pod's QoS class (Guaranteed / Burstable / BestEffort), as the registry computes it on create. */
export function qosClass(pod: Pod): string {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length + Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = milli(lim[r]);
      const q = milli(req[r]) ?? l;
      if (l === null || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Quantities as the API server stores them (canonical spelling). */
export function canonicalizeResources(pod: Pod): Pod {
  const out = clone(pod);
  const fix = (c: Container): void => {
    for (const kind of ['requests', 'limits'] as const) {
      const m = c.resources?.[kind];
      if (m) for (const k of Object.keys(m)) m[k] = canonicalQuantity(m[k]);
    }
  };
  out.spec?.containers.forEach(fix);
  out.spec?.initContainers?.forEach(fix);
  return out;
}

export interface StoreMeta {
  name: string;
  uid: string;
  resourceVersion: string;
  createdAt: Micros;
  manager: string;
}

/** What the registry adds to an admitted pod on create. */
export function storePod(admitted: Pod, meta: StoreMeta): Pod {
  const pod = canonicalizeResources(admitted);
  const m = pod.metadata ?? {};
  pod.metadata = {
    ...m,
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    creationTimestamp: fmtSeconds(meta.createdAt),
    managedFields: [
      {
        manager: meta.manager,
        operation: 'Update',
        apiVersion: 'v1',
        time: fmtSeconds(meta.createdAt),
        fieldsType: 'FieldsV1',
        fieldsV1: managedFieldsOf(admitted),
      },
    ],
  };
  return { ...pod, status: { phase: 'Pending', qosClass: qosClass(pod) } };
}

/** A compact FieldsV1 set: top-level keys and list keys only (enough to look real, not exhaustive). */
function managedFieldsOf(pod: Pod): JsonObject {
  const f = (keys: string[]): JsonObject => Object.fromEntries(keys.map((k) => [`f:${k}`, {}]));
  const named = (items: Array<{ name: string }> | undefined): JsonObject =>
    Object.fromEntries([
      ['.', {}],
      ...(items ?? []).map((i): [string, JsonValue] => [`k:{"name":"${i.name}"}`, { '.': {}, 'f:name': {} }]),
    ]);
  return {
    'f:metadata': {
      ...f(['generateName', 'namespace']),
      'f:labels': { '.': {}, ...f(Object.keys(pod.metadata?.labels ?? {})) },
      ...(pod.metadata?.ownerReferences
        ? {
            'f:ownerReferences': {
              '.': {},
              ...Object.fromEntries(pod.metadata.ownerReferences.map((o) => [`k:{"uid":"${o.uid}"}`, {}])),
            },
          }
        : {}),
    },
    'f:spec': {
      'f:containers': named(pod.spec?.containers),
      ...(pod.spec?.initContainers ? { 'f:initContainers': named(pod.spec.initContainers) } : {}),
      'f:volumes': named(pod.spec?.volumes),
      ...f([
        'restartPolicy',
        'terminationGracePeriodSeconds',
        'dnsPolicy',
        'serviceAccountName',
        'affinity',
        'schedulerName',
        'enableServiceLinks',
      ]),
    },
  };
}

// --- status, as the kubelet reports it -------------------------------------------------

export type PodPhaseView = 'initializing' | 'running' | 'oom-killed' | 'terminating';

export interface StatusContext {
  hostIP: string;
  podIP: string;
  startedAt: Micros;
  now: Micros;
  /** containerd ids by container name, stable for the pod's life. */
  containerIDs: Record<string, string>;
}

/** A stable, fake image digest (a real one is a content hash, so it must not vary per pod). */
export function imageID(image: string): string {
  const repo = image.replace(/:[^/:]+$/, '');
  return `${repo}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

function condition(
  type: string,
  status: boolean,
  at: Micros,
  reason?: string,
  message?: string,
): PodCondition {
  return {
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null as unknown as string,
    lastTransitionTime: fmtSeconds(at),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/**
 * The pod status the kubelet would report for a phase of the broker's life. `lastProbeTime`
 * is null on the wire (a zero metav1.Time), hence the cast.
 */
export function podStatus(pod: Pod, view: PodPhaseView, ctx: StatusContext): PodStatus {
  const containers = pod.spec?.containers ?? [];
  const inits = pod.spec?.initContainers ?? [];
  const started = fmtSeconds(ctx.startedAt);
  const initDone = view !== 'initializing';
  const ready = view === 'running';
  const unready = containers
    .filter((c) => !(view === 'running' || (view === 'oom-killed' && c.name !== 'kafka')))
    .map((c) => c.name);
  const notReadyMsg = `containers with unready status: [${unready.join(' ')}]`;
  const conditions: PodCondition[] = [
    condition('PodReadyToStartContainers', view !== 'terminating', ctx.startedAt),
    condition(
      'Initialized',
      initDone,
      ctx.startedAt,
      initDone ? undefined : 'ContainersNotInitialized',
      initDone ? undefined : `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
    ),
    condition(
      'Ready',
      ready,
      ready ? ctx.startedAt : ctx.now,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : notReadyMsg,
    ),
    condition(
      'ContainersReady',
      ready,
      ready ? ctx.startedAt : ctx.now,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : notReadyMsg,
    ),
    condition('PodScheduled', true, ctx.startedAt),
  ];
  const status = (c: Container, init: boolean): ContainerStatus => {
    const id = ctx.containerIDs[c.name];
    const base = { name: c.name, image: c.image ?? '', restartCount: 0, lastState: {} };
    if (init) {
      return initDone
        ? {
            ...base,
            imageID: imageID(c.image ?? ''),
            containerID: id,
            ready: false,
            started: false,
            state: {
              terminated: {
                exitCode: 0,
                reason: 'Completed',
                startedAt: started,
                finishedAt: started,
                containerID: id,
              },
            },
          }
        : {
            ...base,
            imageID: '',
            ready: false,
            started: false,
            state: { waiting: { reason: 'PodInitializing' } },
          };
    }
    if (view === 'initializing')
      return {
        ...base,
        imageID: '',
        ready: false,
        started: false,
        state: { waiting: { reason: 'PodInitializing' } },
      };
    if ((view === 'oom-killed' && c.name === 'kafka') || view === 'terminating') {
      const oom = view === 'oom-killed';
      return {
        ...base,
        imageID: imageID(c.image ?? ''),
        containerID: id,
        ready: false,
        started: false,
        state: {
          terminated: {
            exitCode: oom ? 137 : 143,
            reason: oom ? 'OOMKilled' : 'Error',
            startedAt: started,
            finishedAt: fmtSeconds(ctx.now),
            containerID: id,
          },
        },
      };
    }
    return {
      ...base,
      imageID: imageID(c.image ?? ''),
      containerID: id,
      ready: true,
      started: true,
      state: { running: { startedAt: started } },
    };
  };
  return {
    phase: view === 'initializing' ? 'Pending' : 'Running',
    conditions,
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    podIP: ctx.podIP,
    podIPs: [{ ip: ctx.podIP }],
    startTime: started,
    initContainerStatuses: inits.map((c) => status(c, true)),
    containerStatuses: containers.map((c) => status(c, false)),
    qosClass: pod.status?.qosClass ?? qosClass(pod),
  };
}

/** The kubelet's status patch body: strategic merge, keyed by uid, with the conditions' order. */
export function statusPatchBody(uid: string, status: PodStatus): JsonObject {
  const s = toJson(status);
  delete s.qosClass;
  return {
    metadata: { uid },
    status: {
      '$setElementOrder/conditions': (status.conditions ?? []).map((c) => ({ type: c.type })),
      ...s,
    },
  };
}

export function newContainerIDs(pod: Pod, rng: Rng): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])])
    ids[c.name] = `containerd://${rng.hex(64)}`;
  return ids;
}

// --- key order: the API server writes objects in Go struct field order ---------------------

const POD_ORDER = ['kind', 'apiVersion', 'metadata', 'spec', 'status'];
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];
const SPEC_ORDER = [
  'volumes',
  'initContainers',
  'containers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'nodeName',
  'hostNetwork',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'priorityClassName',
  'priority',
  'enableServiceLinks',
  'preemptionPolicy',
];
const CONTAINER_ORDER = [
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
];
const STATUS_ORDER = [
  'phase',
  'conditions',
  'message',
  'reason',
  'hostIP',
  'hostIPs',
  'podIP',
  'podIPs',
  'startTime',
  'initContainerStatuses',
  'containerStatuses',
  'qosClass',
];

function orderContainers(v: JsonValue | undefined): JsonValue | undefined {
  return Array.isArray(v)
    ? v.map((c) => (c && typeof c === 'object' && !Array.isArray(c) ? orderKeys(c, CONTAINER_ORDER) : c))
    : v;
}

/** The pod as JSON in the order the API server would write it (creationTimestamp null kept if asked). */
export function podJson(
  pod: Pod,
  opts: { kind?: boolean; nullCreationTimestamp?: boolean } = {},
): JsonObject {
  const json = toJson(opts.kind === false ? pod : { kind: 'Pod', apiVersion: 'v1', ...pod });
  const meta = json.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    if (opts.nullCreationTimestamp && meta.creationTimestamp === undefined) meta.creationTimestamp = null;
    json.metadata = orderKeys(meta, META_ORDER);
  }
  const spec = json.spec;
  if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
    const s = orderKeys(spec, SPEC_ORDER);
    for (const k of ['containers', 'initContainers']) if (k in s) s[k] = orderContainers(s[k]) ?? s[k];
    json.spec = s;
  }
  const status = json.status;
  if (status && typeof status === 'object' && !Array.isArray(status))
    json.status = orderKeys(status, STATUS_ORDER);
  return orderKeys(json, POD_ORDER);
}
