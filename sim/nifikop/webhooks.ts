// The injectors NiFiKop's version steps are about, as mutating webhooks writing JSON patches the
// way each really mutates a pod (lib/nifikop/README.md says which NiFiKop version copes with
// which):
//   - Istio's sidecar injector (pkg/kube/inject reorderPod): `istio-init` last among the init
//     containers (Istio CNI: `istio-validation` first) and the proxy last among the containers;
//     native sidecar: `istio-init`/`istio-validation`, then the proxy with restartPolicy Always,
//     first among the init containers; HTTP and TCP probes of the app containers rewritten to pilot-agent's
//     `/app-health/<container>/<livez|readyz>` on 15020 (exec probes left alone); the
//     Prometheus annotations replaced by the merged-metrics ones; `istio.io/rev`,
//     `sidecar.istio.io/status`, the mesh labels, its volumes.
//   - Linkerd's proxy injector (no CNI): its annotations and labels, `linkerd-proxy` first among
//     the containers (since stable-2.11, linkerd/linkerd2 #7122), `linkerd-init` last among the
//     init containers (#7999: the PR to put it first was closed), volumes.
//   - Zarf's agent: every image moved to its registry with a `-zarf-<crc32>` tag suffix, and the
//     `zarf-agent: patched` label.
//   - a registry mirror policy (Kyverno-style): every image moved to a private mirror.
import type { Operation } from 'fast-json-patch';
import { isObject, type JsonObject, type JsonValue } from '../json';
import { mapOps, type WebhookDef } from '../webhooks';

function list(pod: JsonObject, field: string): JsonObject[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const l = spec[field];
  return Array.isArray(l) ? (l.filter(isObject) as JsonObject[]) : [];
}

/** Items added at `at` (0: first; 'end': last), creating the list when the pod has none. */
function insert(pod: JsonObject, field: string, items: JsonValue[], at: number | 'end'): Operation[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  if (!Array.isArray(spec[field])) return [{ op: 'add', path: `/spec/${field}`, value: items }];
  return items.map((value, i): Operation => ({
    op: 'add',
    path: `/spec/${field}/${at === 'end' ? '-' : at + i}`,
    value,
  }));
}

const ISTIO_IMAGE = 'docker.io/istio/proxyv2:1.24.2';
const ISTIO_RESOURCES = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } };

function istioProxy(): JsonObject {
  return {
    name: 'istio-proxy',
    image: ISTIO_IMAGE,
    args: ['proxy', 'sidecar', '--domain', '$(POD_NAMESPACE).svc.cluster.local'],
    ports: [{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }],
    readinessProbe: { httpGet: { path: '/healthz/ready', port: 15021 }, periodSeconds: 15 },
    resources: ISTIO_RESOURCES,
    volumeMounts: [
      { name: 'istio-envoy', mountPath: '/etc/istio/proxy' },
      { name: 'istio-token', mountPath: '/var/run/secrets/tokens' },
    ],
  };
}

function rewrittenProbe(probe: unknown, container: string, kind: 'livez' | 'readyz'): JsonObject | null {
  if (!isObject(probe) || (!isObject(probe.httpGet) && !isObject(probe.tcpSocket))) return null;
  const p: JsonObject = { ...probe };
  delete p.tcpSocket;
  p.httpGet = { path: `/app-health/${container}/${kind}`, port: 15020, scheme: 'HTTP' };
  return p;
}

function init0(opts: { cni?: boolean }): string {
  return opts.cni ? 'istio-validation' : 'istio-init';
}

export function istioSidecar(opts: { native?: boolean; cni?: boolean } = {}): WebhookDef {
  return {
    configuration: 'istio-revision-tag-default',
    webhook: 'rev.namespace.sidecar-injector.istio.io',
    mutate(pod) {
      const containers = list(pod, 'containers');
      const inits = list(pod, 'initContainers');
      if ([...containers, ...inits].some((c) => c.name === 'istio-proxy')) return [];
      const first = typeof containers[0]?.name === 'string' ? containers[0].name : 'app';
      const ops: Operation[] = [
        ...mapOps(pod, '/metadata/labels', {
          'security.istio.io/tlsMode': 'istio',
          'service.istio.io/canonical-name': first,
          'service.istio.io/canonical-revision': 'latest',
        }),
        ...mapOps(pod, '/metadata/annotations', {
          'istio.io/rev': 'default',
          'kubectl.kubernetes.io/default-container': first,
          'prometheus.io/path': '/stats/prometheus',
          'prometheus.io/port': '15020',
          'prometheus.io/scrape': 'true',
          'sidecar.istio.io/status': JSON.stringify({
            initContainers: opts.native ? [init0(opts), 'istio-proxy'] : [init0(opts)],
            containers: opts.native ? [] : ['istio-proxy'],
            volumes: ['istio-envoy', 'istio-data', 'istio-token', 'istiod-ca-cert'],
            revision: 'default',
          }),
        }),
      ];
      containers.forEach((c, i) => {
        const name = typeof c.name === 'string' ? c.name : '';
        for (const [field, kind] of [
          ['livenessProbe', 'livez'],
          ['readinessProbe', 'readyz'],
        ] as const) {
          const p = rewrittenProbe(c[field], name, kind);
          if (p !== null) ops.push({ op: 'replace', path: `/spec/containers/${i}/${field}`, value: p });
        }
      });
      const init: JsonObject = {
        name: opts.cni ? 'istio-validation' : 'istio-init',
        image: ISTIO_IMAGE,
        args: ['istio-iptables', '-p', '15001', '-z', '15006', '-u', '1337'],
        resources: ISTIO_RESOURCES,
      };
      if (opts.native) {
        ops.push(...insert(pod, 'initContainers', [init, { ...istioProxy(), restartPolicy: 'Always' }], 0));
      } else {
        ops.push(...insert(pod, 'initContainers', [init], opts.cni ? 0 : 'end'));
      }
      if (!opts.native) ops.push(...insert(pod, 'containers', [istioProxy()], 'end'));
      ops.push(
        ...insert(
          pod,
          'volumes',
          [
            { name: 'istio-envoy', emptyDir: { medium: 'Memory' } },
            { name: 'istio-data', emptyDir: {} },
            {
              name: 'istio-token',
              projected: {
                sources: [
                  {
                    serviceAccountToken: {
                      audience: 'istio-ca',
                      expirationSeconds: 43200,
                      path: 'istio-token',
                    },
                  },
                ],
              },
            },
            { name: 'istiod-ca-cert', configMap: { name: 'istio-ca-root-cert' } },
          ],
          'end',
        ),
      );
      return ops;
    },
  };
}

export function linkerdProxy(): WebhookDef {
  return {
    configuration: 'linkerd-proxy-injector-webhook-config',
    webhook: 'linkerd-proxy-injector.linkerd.io',
    mutate(pod) {
      if (list(pod, 'containers').some((c) => c.name === 'linkerd-proxy')) return [];
      return [
        ...mapOps(pod, '/metadata/annotations', {
          'linkerd.io/created-by': 'linkerd/proxy-injector edge-25.4.1',
          'linkerd.io/proxy-version': 'edge-25.4.1',
          'linkerd.io/trust-root-sha256': '3b2f0e6c0a4b6f7e',
          'linkerd.io/identity-mode': 'default',
        }),
        ...mapOps(pod, '/metadata/labels', {
          'linkerd.io/control-plane-ns': 'linkerd',
          'linkerd.io/workload-ns': 'nifi',
        }),
        ...insert(
          pod,
          'containers',
          [
            {
              name: 'linkerd-proxy',
              image: 'cr.l5d.io/linkerd/proxy:edge-25.4.1',
              ports: [
                { name: 'linkerd-proxy', containerPort: 4143 },
                { name: 'linkerd-admin', containerPort: 4191 },
              ],
              securityContext: {
                runAsUser: 2102,
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
              },
              volumeMounts: [
                { name: 'linkerd-identity-end-entity', mountPath: '/var/run/linkerd/identity/end-entity' },
                { name: 'linkerd-identity-token', mountPath: '/var/run/secrets/tokens' },
              ],
            },
          ],
          0,
        ),
        ...insert(
          pod,
          'initContainers',
          [
            {
              name: 'linkerd-init',
              image: 'cr.l5d.io/linkerd/proxy-init:v2.4.2',
              args: ['--incoming-proxy-port', '4143', '--outgoing-proxy-port', '4140', '--proxy-uid', '2102'],
              securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] }, runAsUser: 65534 },
              volumeMounts: [{ name: 'linkerd-proxy-init-xtables-lock', mountPath: '/run' }],
            },
          ],
          'end',
        ),
        ...insert(
          pod,
          'volumes',
          [
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
          ],
          'end',
        ),
      ];
    },
  };
}

function imageOps(pod: JsonObject, rewrite: (image: string) => string | null): Operation[] {
  const ops: Operation[] = [];
  for (const field of ['initContainers', 'containers']) {
    list(pod, field).forEach((c, i) => {
      if (typeof c.image !== 'string') return;
      const to = rewrite(c.image);
      if (to !== null && to !== c.image)
        ops.push({ op: 'replace', path: `/spec/${field}/${i}/image`, value: to });
    });
  }
  return ops;
}

function crc32(text: string): number {
  let c = 0xffffffff;
  for (const b of Buffer.from(text, 'utf8')) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Zarf's ImageTransformHost (src/pkg/transform/image.go): the reference normalised as Docker does
 * (`nifi` is `docker.io/library/nifi`), moved to `<registry>/<path>:<tag>-zarf-<crc32 of the full
 * name>`, or `<registry>/<path>@<digest>`; an image already on the registry is left alone.
 */
export function zarfImage(image: string, registry = '127.0.0.1:31999'): string | null {
  if (image.startsWith(`${registry}/`)) return null;
  const [named, digest] = image.split('@');
  const slash = named.indexOf('/');
  const first = slash < 0 ? '' : named.slice(0, slash);
  const hasHost = first.includes('.') || first.includes(':') || first === 'localhost';
  const host = hasHost ? first : 'docker.io';
  let rest = hasHost ? named.slice(slash + 1) : named;
  const colon = rest.lastIndexOf(':');
  const tag = digest === undefined && colon > rest.lastIndexOf('/') ? rest.slice(colon + 1) : 'latest';
  if (colon > rest.lastIndexOf('/')) rest = rest.slice(0, colon);
  const path = host === 'docker.io' && !rest.includes('/') ? `library/${rest}` : rest;
  if (digest !== undefined) return `${registry}/${path}@${digest}`;
  return `${registry}/${path}:${tag}-zarf-${crc32(`${host}/${path}`)}`;
}

export function zarfAgent(): WebhookDef {
  return {
    configuration: 'zarf',
    webhook: 'agent-pod.zarf.dev',
    mutate(pod) {
      const ops = imageOps(pod, (image) => zarfImage(image));
      if (ops.length === 0) return [];
      return [...mapOps(pod, '/metadata/labels', { 'zarf-agent': 'patched' }), ...ops];
    },
  };
}

export function registryMirror(mirror = 'registry.corp.example/mirror'): WebhookDef {
  return {
    configuration: 'kyverno-resource-mutating-webhook-cfg',
    webhook: 'mutate.kyverno.svc-fail',
    mutate(pod) {
      return imageOps(pod, (image) =>
        image.startsWith(`${mirror}/`) ? null : `${mirror}/${image.replace(/^docker\.io\//, '')}`,
      );
    },
  };
}
