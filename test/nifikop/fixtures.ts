// Hand-made NiFi node pods: what NiFiKop generates (pkg/resources/nifi/pod.go: generateName
// `<cluster>-<id>-node`, labels app/nifi_cr/nodeId, a `nifi` container with a TCP liveness probe
// and an exec readiness probe, the node's configuration from the Secret `<cluster>-config-<id>`)
// and what the API server and the mesh injectors make of it.
import type { Container, Pod, Volume } from 'kubernetes-types/core/v1';
import { lastAppliedConfiguration } from '../../lib/koperator/pod-diff';
import { parseTime } from '../../sim/time';
import type { WebhookDef } from '../../sim/webhooks';
import { World } from '../../sim/world';

export const CLUSTER = 'search-nifi';
export const NODE_ID = '2';
export const POD_NAME = `${CLUSTER}-${NODE_ID}-nodeq7x2k`;

/** When the simulated NiFiKop tests start. */
export const SIM_START = parseTime('2026-08-13T09:00:00Z');

/** The simulator's world of the NiFiKop tests: namespace `nifi`, NiFiKop's user, `hooks` installed there. */
export function nifiWorld(hooks: readonly WebhookDef[]): World {
  const world = new World({
    seed: 715,
    start: SIM_START,
    namespace: 'nifi',
    metadataNamespace: 'telemetry',
    operatorUser: 'system:serviceaccount:nifikop:nifikop',
    podLevel: 'RequestResponse',
    logStyle: 'current',
  });
  for (const h of hooks) world.installWebhook(h, ['nifi'], SIM_START);
  return world;
}

export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export function edit(pod: Pod, f: (p: Pod) => void): Pod {
  const p = clone(pod);
  f(p);
  return p;
}

const nifiContainer: Container = {
  name: 'nifi',
  image: 'apache/nifi:2.0.0',
  imagePullPolicy: 'IfNotPresent',
  command: ['bash', '-ce', 'exec bin/nifi.sh run'],
  ports: [
    { name: 'http', containerPort: 8080, protocol: 'TCP' },
    { name: 'cluster', containerPort: 6007, protocol: 'TCP' },
  ],
  env: [{ name: 'NIFI_ZOOKEEPER_CONNECT_STRING', value: 'zk:2181' }],
  resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '2', memory: '4Gi' } },
  livenessProbe: {
    tcpSocket: { port: 8080 },
    initialDelaySeconds: 90,
    timeoutSeconds: 20,
    periodSeconds: 60,
    failureThreshold: 5,
  },
  readinessProbe: {
    exec: { command: ['bash', '-c', 'curl -kv http://$(hostname -f):8080/nifi-api'] },
    initialDelaySeconds: 60,
    timeoutSeconds: 10,
    periodSeconds: 20,
    failureThreshold: 5,
  },
  volumeMounts: [
    { name: 'node-config', mountPath: '/opt/nifi/nifi-current/tmp' },
    { name: 'node-tmp', mountPath: '/tmp' },
  ],
};

/** What NiFiKop generates for node 2 of NifiCluster nifi/search-nifi. */
export const DESIRED: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    generateName: `${CLUSTER}-${NODE_ID}-node`,
    namespace: 'nifi',
    labels: { app: 'nifi', nifi_cr: CLUSTER, nodeId: NODE_ID },
    annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9020' },
    ownerReferences: [
      {
        apiVersion: 'nifi.konpyutaika.com/v1',
        kind: 'NifiCluster',
        name: CLUSTER,
        uid: '5e0d3f2a-8d8e-4c1e-9a57-0c0ffee00002',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  },
  spec: {
    containers: [nifiContainer],
    volumes: [
      { name: 'node-config', secret: { secretName: `${CLUSTER}-config-${NODE_ID}`, defaultMode: 420 } },
      { name: 'node-tmp', emptyDir: {} },
    ],
    hostname: `${CLUSTER}-${NODE_ID}-node`,
    subdomain: `${CLUSTER}-headless`,
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
              labelSelector: { matchLabels: { app: 'nifi', nifi_cr: CLUSTER } },
              topologyKey: 'kubernetes.io/hostname',
            },
          },
        ],
      },
    },
  },
};

const TOKEN_VOLUME: Volume = {
  name: 'kube-api-access-9f2lc',
  projected: {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    ],
  },
};

function defaulted(c: Container): Container {
  return {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
    ...clone(c),
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: TOKEN_VOLUME.name, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    ],
  };
}

/**
 * The pod the API server stores for `desired` with no webhook: a name, defaults, the service
 * account token volume and its mounts, the default NoExecute tolerations, a status.
 */
export function live(desired: Pod): Pod {
  const p = clone(desired);
  p.spec!.containers = p.spec!.containers.map(defaulted);
  if (p.spec!.initContainers) p.spec!.initContainers = p.spec!.initContainers.map(defaulted);
  p.spec!.volumes = [...(p.spec!.volumes ?? []), clone(TOKEN_VOLUME)];
  p.spec!.serviceAccountName = 'default';
  p.spec!.schedulerName = 'default-scheduler';
  p.spec!.nodeName = 'ip-10-0-3-17.ec2.internal';
  p.spec!.enableServiceLinks = true;
  p.spec!.preemptionPolicy = 'PreemptLowerPriority';
  p.spec!.priority = 0;
  p.spec!.tolerations = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
  ];
  return {
    ...p,
    metadata: { ...p.metadata, name: POD_NAME, uid: 'a1b2c3d4-0000-4000-8000-000000000002' },
    status: { phase: 'Running', podIP: '10.0.3.44', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** The three states of a pod NiFiKop created from `created` and now wants as `desired`. */
export function states(created: Pod, liveNow: Pod, desired: Pod = created) {
  return { lastApplied: lastAppliedConfiguration(created), desired, live: liveNow };
}

// ---- injectors, as each really writes the pod ----

const ISTIO_PROXY: Container = {
  name: 'istio-proxy',
  image: 'docker.io/istio/proxyv2:1.24.2',
  args: ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local'],
  ports: [{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }],
  env: [{ name: 'ISTIO_META_POD_PORTS', value: '[{"name":"http","containerPort":8080,"protocol":"TCP"}]' }],
  readinessProbe: { httpGet: { path: '/healthz/ready', port: 15021 }, periodSeconds: 15 },
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } },
  volumeMounts: [
    { name: 'istio-envoy', mountPath: '/etc/istio/proxy' },
    { name: 'istio-token', mountPath: '/var/run/secrets/tokens' },
  ],
};

const ISTIO_INIT: Container = {
  name: 'istio-init',
  image: 'docker.io/istio/proxyv2:1.24.2',
  args: ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337'],
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } },
};

const ISTIO_VOLUMES: Volume[] = [
  { name: 'istio-envoy', emptyDir: { medium: 'Memory' } },
  { name: 'istio-data', emptyDir: {} },
  {
    name: 'istio-token',
    projected: {
      sources: [
        { serviceAccountToken: { audience: 'istio-ca', expirationSeconds: 43200, path: 'istio-token' } },
      ],
    },
  },
  { name: 'istiod-ca-cert', configMap: { name: 'istio-ca-root-cert' } },
];

/** Istio's app-probe rewrite (pilot-agent serves `/app-health/<container>/<livez|readyz>` on 15020). */
function rewriteProbe(probe: Container['livenessProbe'], container: string, kind: 'livez' | 'readyz') {
  if (!probe || (!probe.httpGet && !probe.tcpSocket)) return probe; // exec probes are left alone
  const rewritten = { ...probe };
  delete rewritten.tcpSocket;
  rewritten.httpGet = { path: `/app-health/${container}/${kind}`, port: 15020, scheme: 'HTTP' };
  return rewritten;
}

export interface IstioOptions {
  /** The proxy as a native sidecar: an init container with restartPolicy Always. */
  native?: boolean;
  /** Istio CNI: `istio-validation` instead of `istio-init`. */
  cni?: boolean;
}

/**
 * Istio's sidecar injector (pkg/kube/inject: reorderPod, applyRewrite, applyPrometheusMerge):
 * native sidecar: `istio-init` (or `istio-validation`), then `istio-proxy`, then the pod's init
 * containers; otherwise `istio-validation` first or `istio-init` last among the init containers and
 * the proxy last among the containers. HTTP and TCP probes of the app containers rewritten to
 * pilot-agent's; Prometheus annotations replaced by the merged-metrics ones; `istio.io/rev`, the
 * status annotation, the mesh labels, its volumes.
 */
export function istio(pod: Pod, opts: IstioOptions = {}): Pod {
  return edit(pod, (p) => {
    const ann = p.metadata!.annotations ?? {};
    ann['prometheus.io/port'] = '15020';
    ann['prometheus.io/path'] = '/stats/prometheus';
    ann['prometheus.io/scrape'] = 'true';
    ann['istio.io/rev'] = 'default';
    ann['kubectl.kubernetes.io/default-container'] = 'nifi';
    ann['sidecar.istio.io/status'] = '{"initContainers":["istio-init"],"containers":["istio-proxy"]}';
    p.metadata!.annotations = ann;
    p.metadata!.labels = {
      ...p.metadata!.labels,
      'security.istio.io/tlsMode': 'istio',
      'service.istio.io/canonical-name': 'search-nifi',
      'service.istio.io/canonical-revision': 'latest',
    };
    p.spec!.containers = p.spec!.containers.map((c) => ({
      ...c,
      livenessProbe: rewriteProbe(c.livenessProbe, c.name, 'livez'),
      readinessProbe: rewriteProbe(c.readinessProbe, c.name, 'readyz'),
    }));
    const userInits = p.spec!.initContainers ?? [];
    const init = opts.cni ? { ...clone(ISTIO_INIT), name: 'istio-validation' } : clone(ISTIO_INIT);
    if (opts.native) {
      p.spec!.initContainers = [init, { ...clone(ISTIO_PROXY), restartPolicy: 'Always' }, ...userInits];
    } else {
      p.spec!.initContainers = opts.cni ? [init, ...userInits] : [...userInits, init];
      p.spec!.containers = [...p.spec!.containers, clone(ISTIO_PROXY)];
    }
    p.spec!.volumes = [...(p.spec!.volumes ?? []), ...clone(ISTIO_VOLUMES)];
  });
}

const LINKERD_PROXY: Container = {
  name: 'linkerd-proxy',
  image: 'cr.l5d.io/linkerd/proxy:edge-25.4.1',
  ports: [
    { name: 'linkerd-proxy', containerPort: 4143 },
    { name: 'linkerd-admin', containerPort: 4191 },
  ],
  env: [{ name: 'LINKERD2_PROXY_LOG', value: 'warn,linkerd=info' }],
  securityContext: { runAsUser: 2102, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false },
  volumeMounts: [
    { name: 'linkerd-identity-end-entity', mountPath: '/var/run/linkerd/identity/end-entity' },
    { name: 'linkerd-identity-token', mountPath: '/var/run/secrets/tokens' },
  ],
};

const LINKERD_INIT: Container = {
  name: 'linkerd-init',
  image: 'cr.l5d.io/linkerd/proxy-init:v2.4.2',
  args: ['--incoming-proxy-port', '4143', '--outgoing-proxy-port', '4140', '--proxy-uid', '2102'],
  securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] }, runAsUser: 65534 },
  volumeMounts: [{ name: 'linkerd-proxy-init-xtables-lock', mountPath: '/run' }],
};

/**
 * Linkerd's proxy injector (no CNI): annotations and labels, `linkerd-proxy` first among the
 * containers (since stable-2.11, linkerd/linkerd2 #7122), `linkerd-init` last among the init
 * containers (linkerd/linkerd2 #7999: PR #8034 to put it first was closed), its volumes.
 */
export function linkerd(pod: Pod): Pod {
  return edit(pod, (p) => {
    p.metadata!.annotations = {
      ...p.metadata!.annotations,
      'linkerd.io/created-by': 'linkerd/proxy-injector edge-25.4.1',
      'linkerd.io/proxy-version': 'edge-25.4.1',
      'linkerd.io/trust-root-sha256': '3b2f0e6c0a4b6f7e',
      'linkerd.io/identity-mode': 'default',
    };
    p.metadata!.labels = {
      ...p.metadata!.labels,
      'linkerd.io/control-plane-ns': 'linkerd',
      'linkerd.io/workload-ns': 'nifi',
    };
    p.spec!.containers = [clone(LINKERD_PROXY), ...p.spec!.containers];
    p.spec!.initContainers = [...(p.spec!.initContainers ?? []), clone(LINKERD_INIT)];
    p.spec!.volumes = [
      ...(p.spec!.volumes ?? []),
      { name: 'linkerd-proxy-init-xtables-lock', emptyDir: {} },
      { name: 'linkerd-identity-end-entity', emptyDir: { medium: 'Memory' } },
      {
        name: 'linkerd-identity-token',
        projected: {
          sources: [
            {
              serviceAccountToken: {
                audience: 'identity.l5d.io',
                expirationSeconds: 86400,
                path: 'linkerd-identity-token',
              },
            },
          ],
        },
      },
    ];
  });
}

/**
 * Zarf's agent: every image moved to its registry, the tag suffixed with `-zarf-<crc32>`, and the
 * `zarf-agent: patched` label.
 */
export function zarf(pod: Pod): Pod {
  const rewrite = (image: string) => {
    const ref = image.replace(/^docker\.io\//, '');
    const [name, tag = 'latest'] = ref.split(':');
    return `127.0.0.1:31999/${name}:${tag}-zarf-2823281104`;
  };
  return edit(pod, (p) => {
    p.metadata!.labels = { ...p.metadata!.labels, 'zarf-agent': 'patched' };
    for (const c of [...p.spec!.containers, ...(p.spec!.initContainers ?? [])])
      if (c.image) c.image = rewrite(c.image);
  });
}

/** A registry-mirror policy (Kyverno-style) that moves every image to a private mirror. */
export function mirror(pod: Pod): Pod {
  return edit(pod, (p) => {
    for (const c of [...p.spec!.containers, ...(p.spec!.initContainers ?? [])]) {
      if (c.image) c.image = `registry.corp.example/mirror/${c.image.replace(/^docker\.io\//, '')}`;
    }
  });
}
