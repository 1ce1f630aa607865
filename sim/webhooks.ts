// Mutating admission webhooks and what the API server records about them.
//
// The API server calls the webhooks of every MutatingWebhookConfiguration (sorted by name) whose
// selectors match; each sees the object as the built-in plugins and the previous webhooks left
// it. For each call it annotates the audit event with `mutation.webhook.admission.k8s.io/
// round_0_index_N` ({configuration, webhook, mutated}) and, from Request level up, with the
// webhook's own JSON patch under `patch.webhook.admission.k8s.io/round_0_index_N`. N is the
// webhook's position in the whole ordered list, so indexes have gaps where hooks did not match.
import { applyPatch, type Operation } from 'fast-json-patch';
import type { Pod } from 'kubernetes-types/core/v1';
import { clone, fromJson, isObject, toJson, type JsonObject, type JsonValue } from './json';
import { pointerToPath } from './paths';
import { parseQuantityMilli } from './quantity';
import type { Rng } from './rng';

export interface WebhookDef {
  configuration: string;
  webhook: string;
  /** The webhook's JSON patch for the pod it is sent (empty: admitted unchanged). */
  mutate(pod: JsonObject, rng: Rng): Operation[];
}

/** A write to a live object's field, for attributing differences to whoever made them. */
export interface FieldWrite {
  path: string;
  by: string;
}

export interface AdmissionResult {
  pod: Pod;
  annotations: Record<string, string>;
  writes: FieldWrite[];
  /** The `configuration/webhook` names that reported mutated:true. */
  mutatedBy: string[];
}

export function webhookName(def: Pick<WebhookDef, 'configuration' | 'webhook'>): string {
  return `${def.configuration}/${def.webhook}`;
}

function escapeToken(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Patch operations adding `entries` to the pod's labels or annotations (the map made if absent). */
export function mapOps(
  pod: JsonObject,
  base: '/metadata/labels' | '/metadata/annotations',
  entries: Record<string, string>,
): Operation[] {
  const meta = isObject(pod.metadata) ? pod.metadata : {};
  const key = base === '/metadata/labels' ? 'labels' : 'annotations';
  if (!isObject(meta[key])) return [{ op: 'add', path: base, value: entries }];
  return Object.entries(entries).map(([k, v]): Operation => ({
    op: 'add',
    path: `${base}/${escapeToken(k)}`,
    value: v,
  }));
}

function listAppend(
  pod: JsonObject,
  field: 'volumes' | 'initContainers' | 'containers' | 'tolerations',
  items: JsonValue[],
): Operation[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  if (!Array.isArray(spec[field])) return [{ op: 'add', path: `/spec/${field}`, value: items }];
  return items.map((value): Operation => ({ op: 'add', path: `/spec/${field}/-`, value }));
}

function containerIndex(pod: JsonObject, name: string): number {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const list = Array.isArray(spec.containers) ? spec.containers : [];
  return list.findIndex((c) => isObject(c) && c.name === name);
}

function labelsOf(pod: JsonObject): Record<string, string> {
  const meta = isObject(pod.metadata) ? pod.metadata : {};
  const labels = isObject(meta.labels) ? meta.labels : {};
  return Object.fromEntries(
    Object.entries(labels).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

function namespaceOf(pod: JsonObject): string {
  const meta = isObject(pod.metadata) ? pod.metadata : {};
  return typeof meta.namespace === 'string' ? meta.namespace : 'default';
}

// --- an Istio-like sidecar injector (benign for koperator: everything it adds is new) -------

const PROXY_IMAGE = 'docker.io/istio/proxyv2:1.25.2';

export function istioInjector(
  configuration = 'istio-revision-tag-default',
  webhook = 'rev.namespace.sidecar-injector.istio.io',
): WebhookDef {
  return {
    configuration,
    webhook,
    mutate(pod) {
      const labels = labelsOf(pod);
      const spec = isObject(pod.spec) ? pod.spec : {};
      const containers = Array.isArray(spec.containers) ? spec.containers : [];
      if (containers.some((c) => isObject(c) && c.name === 'istio-proxy')) return [];
      const first =
        isObject(containers[0]) && typeof containers[0].name === 'string' ? containers[0].name : 'app';
      const canonical = labels['app.kubernetes.io/name'] ?? labels.app ?? 'workload';
      const status = JSON.stringify({
        initContainers: ['istio-init'],
        containers: ['istio-proxy'],
        volumes: ['istio-envoy', 'istio-data', 'istio-podinfo', 'istio-token', 'istiod-ca-cert'],
        imagePullSecrets: null,
        revision: 'default',
      });
      const proxyResources = {
        limits: { cpu: '2', memory: '1Gi' },
        requests: { cpu: '100m', memory: '128Mi' },
      };
      return [
        ...mapOps(pod, '/metadata/labels', {
          'security.istio.io/tlsMode': 'istio',
          'service.istio.io/canonical-name': canonical,
          'service.istio.io/canonical-revision': 'latest',
        }),
        ...mapOps(pod, '/metadata/annotations', {
          'kubectl.kubernetes.io/default-container': first,
          'sidecar.istio.io/status': status,
        }),
        ...listAppend(pod, 'volumes', [
          { name: 'istio-envoy', emptyDir: { medium: 'Memory' } },
          { name: 'istio-data', emptyDir: {} },
          {
            name: 'istio-podinfo',
            downwardAPI: {
              items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }],
              defaultMode: 420,
            },
          },
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
              defaultMode: 420,
            },
          },
          { name: 'istiod-ca-cert', configMap: { name: 'istio-ca-root-cert', defaultMode: 420 } },
        ]),
        ...listAppend(pod, 'initContainers', [
          {
            name: 'istio-init',
            image: PROXY_IMAGE,
            args: [
              'istio-iptables',
              '-p',
              '15001',
              '-z',
              '15006',
              '-u',
              '1337',
              '-m',
              'REDIRECT',
              '-i',
              '*',
              '-b',
              '*',
            ],
            resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '10m', memory: '40Mi' } },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ]),
        ...listAppend(pod, 'containers', [
          {
            name: 'istio-proxy',
            image: PROXY_IMAGE,
            args: [
              'proxy',
              'sidecar',
              '--domain',
              `${namespaceOf(pod)}.svc.cluster.local`,
              '--proxyLogLevel=warning',
            ],
            ports: [{ name: 'http-envoy-prom', containerPort: 15090, protocol: 'TCP' }],
            resources: proxyResources,
            volumeMounts: [
              { name: 'istio-envoy', mountPath: '/etc/istio/proxy' },
              { name: 'istio-data', mountPath: '/var/lib/istio/data' },
              { name: 'istio-podinfo', mountPath: '/etc/istio/pod' },
              { name: 'istio-token', mountPath: '/var/run/secrets/tokens' },
              { name: 'istiod-ca-cert', mountPath: '/var/run/secrets/istio' },
            ],
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ]),
      ];
    },
  };
}

// --- a ScaleOps-like rightsizer: rewrites the main container's requests at every create ----

function containerResources(pod: JsonObject, idx: number): JsonObject {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const c = Array.isArray(spec.containers) && isObject(spec.containers[idx]) ? spec.containers[idx] : {};
  return isObject(c.resources) ? c.resources : {};
}

function setResource(
  pod: JsonObject,
  idx: number,
  kind: 'requests' | 'limits',
  name: string,
  value: string,
): Operation {
  const res = containerResources(pod, idx);
  const map = isObject(res[kind]) ? res[kind] : null;
  const path = `/spec/containers/${idx}/resources/${kind}`;
  if (!map) return { op: 'add', path, value: { [name]: value } };
  return { op: name in map ? 'replace' : 'add', path: `${path}/${name}`, value };
}

function resourceOf(pod: JsonObject, idx: number, kind: 'requests' | 'limits', name: string): string | null {
  const res = containerResources(pod, idx);
  const map = isObject(res[kind]) ? res[kind] : {};
  const v = map[name];
  return typeof v === 'string' ? v : null;
}

/** The container's cpu and memory limits in milli-units (2 cores and 4Gi when it sets none). */
function limitsMilli(pod: JsonObject, idx: number): { cpu: number; memory: number } {
  return {
    cpu: parseQuantityMilli(resourceOf(pod, idx, 'limits', 'cpu') ?? '2') ?? 2000,
    memory: parseQuantityMilli(resourceOf(pod, idx, 'limits', 'memory') ?? '4Gi') ?? 4 * 2 ** 30 * 1000,
  };
}

/**
 * What a rightsizing webhook does to the container's requests: new cpu and memory values under
 * the limits, each unlike the current one, so every admission is a mutation (cpu drawn first).
 */
function recommendRequests(
  pod: JsonObject,
  idx: number,
  rng: Rng,
  limits: { cpu: number; memory: number },
): Operation[] {
  return [
    setResource(
      pod,
      idx,
      'requests',
      'cpu',
      recommendCpu(rng, limits.cpu, parseQuantityMilli(resourceOf(pod, idx, 'requests', 'cpu') ?? '0')),
    ),
    setResource(
      pod,
      idx,
      'requests',
      'memory',
      recommendMemory(
        rng,
        limits.memory,
        parseQuantityMilli(resourceOf(pod, idx, 'requests', 'memory') ?? '0'),
      ),
    ),
  ];
}

/** A cpu recommendation in millicores, a step of 10m, within (10%, 90%) of the limit and unlike `avoid`. */
function recommendCpu(rng: Rng, limitMilli: number, avoidMilli: number | null): string {
  for (;;) {
    const m = Math.round((rng.float(0.15, 0.85) * limitMilli) / 10) * 10;
    if (m !== avoidMilli && m > 0) return `${m}m`;
  }
}

/** A memory recommendation in Mi, a step of 16Mi, under the limit and unlike `avoid`. */
function recommendMemory(rng: Rng, limitMilli: number, avoidMilli: number | null): string {
  const limitMi = limitMilli / 1000 / 2 ** 20;
  for (;;) {
    const mi = Math.round((rng.float(0.55, 0.95) * limitMi) / 16) * 16;
    const milli = mi * 2 ** 20 * 1000;
    if (milli !== avoidMilli && mi > 0 && mi % 1024 !== 0) return `${mi}Mi`;
  }
}

export function rightsizer(
  configuration = 'kube-rightsizer-webhook',
  webhook = 'pods.rightsizer.dev',
  opts: { container?: string; policy?: string } = {},
): WebhookDef {
  const name = opts.container ?? 'kafka';
  return {
    configuration,
    webhook,
    mutate(pod, rng) {
      const idx = containerIndex(pod, name);
      if (idx < 0) return [];
      const limits = limitsMilli(pod, idx);
      const ops = recommendRequests(pod, idx, rng, limits);
      // The rightsizer re-states the memory limit in Mi: the same value, another spelling. The
      // API server stores it canonically, so koperator sees no change there.
      const memLimitRaw = resourceOf(pod, idx, 'limits', 'memory');
      if (memLimitRaw && /Gi$/.test(memLimitRaw))
        ops.push(setResource(pod, idx, 'limits', 'memory', `${limits.memory / 1000 / 2 ** 20}Mi`));
      ops.push(
        ...mapOps(pod, '/metadata/annotations', {
          'rightsizer.dev/applied-policy': opts.policy ?? 'balanced',
        }),
      );
      return ops;
    },
  };
}

// --- a topology defaulter that appends a preferred anti-affinity term (an atomic list) ------

export function affinityDefaulter(
  configuration = 'topology-spread-defaulter',
  webhook = 'affinity.topology.example.org',
): WebhookDef {
  return {
    configuration,
    webhook,
    mutate(pod) {
      const spec = isObject(pod.spec) ? pod.spec : {};
      const aff = isObject(spec.affinity) ? spec.affinity : null;
      const anti = aff && isObject(aff.podAntiAffinity) ? aff.podAntiAffinity : null;
      const preferred =
        anti && Array.isArray(anti.preferredDuringSchedulingIgnoredDuringExecution)
          ? anti.preferredDuringSchedulingIgnoredDuringExecution
          : null;
      const labels = labelsOf(pod);
      const selector: Record<string, string> = labels.kafka_cr
        ? { app: labels.app ?? 'kafka', kafka_cr: labels.kafka_cr }
        : { ...labels };
      const term = {
        weight: 50,
        podAffinityTerm: {
          labelSelector: { matchLabels: selector },
          topologyKey: 'topology.kubernetes.io/zone',
        },
      };
      if (!preferred) return [];
      if (
        preferred.some(
          (t) =>
            isObject(t) &&
            isObject(t.podAffinityTerm) &&
            t.podAffinityTerm.topologyKey === 'topology.kubernetes.io/zone',
        )
      )
        return [];
      return [
        {
          op: 'add',
          path: '/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/-',
          value: term,
        },
      ];
    },
  };
}

// --- a toleration injector: appends a toleration (benign: koperator merges live tolerations) --

export const SPOT_TOLERATION = {
  key: 'node.example.net/spot',
  operator: 'Equal',
  value: 'true',
  effect: 'NoSchedule',
};

export function tolerationInjector(
  configuration = 'spot-toleration-injector',
  webhook = 'tolerations.spot.example.net',
): WebhookDef {
  return {
    configuration,
    webhook,
    mutate(pod) {
      const spec = isObject(pod.spec) ? pod.spec : {};
      const list = Array.isArray(spec.tolerations) ? spec.tolerations : [];
      if (list.some((t) => isObject(t) && t.key === SPOT_TOLERATION.key)) return [];
      // The webhook sees the tolerations DefaultTolerationSeconds added, so it appends with `-`;
      // that pointer does not resolve against the audit requestObject when the pod declared none.
      return listAppend(pod, 'tolerations', [SPOT_TOLERATION]);
    },
  };
}

// --- a VPA-like admission controller: sets requests from a recommendation --------------------

export function vpaAdmission(
  configuration = 'vpa-webhook-config',
  webhook = 'vpa.k8s.io',
  vpaName = 'broker-vpa',
): WebhookDef {
  return {
    configuration,
    webhook,
    mutate(pod, rng) {
      const idx = containerIndex(pod, 'kafka');
      if (idx < 0) return [];
      return [
        ...recommendRequests(pod, idx, rng, limitsMilli(pod, idx)),
        ...mapOps(pod, '/metadata/annotations', {
          vpaObservedContainers: 'kafka',
          vpaUpdates: `Pod resources updated by ${vpaName}: container ${idx}: cpu request, memory request`,
        }),
      ];
    },
  };
}

// --- a workload-identity injector for other teams' pods (noise) -------------------------------

export function workloadIdentityInjector(
  configuration = 'azure-wi-webhook-mutating-webhook-configuration',
  webhook = 'mutation.azure-workload-identity.io',
): WebhookDef {
  return {
    configuration,
    webhook,
    mutate(pod) {
      const i = Math.max(0, containerIndex(pod, labelsOf(pod).app ?? ''));
      const spec = isObject(pod.spec) ? pod.spec : {};
      const list = Array.isArray(spec.containers) ? spec.containers : [];
      const c = list[i];
      if (!isObject(c)) return [];
      const env = [
        { name: 'AZURE_CLIENT_ID', value: '3b7f0c2e-5d1a-4f7e-9c21-7a0e5d9b1c44' },
        { name: 'AZURE_TENANT_ID', value: '8f2d4c6a-1b3e-4a5f-8d7c-9e0a1b2c3d4e' },
        { name: 'AZURE_FEDERATED_TOKEN_FILE', value: '/var/run/secrets/azure/tokens/azure-identity-token' },
        { name: 'AZURE_AUTHORITY_HOST', value: 'https://login.microsoftonline.com/' },
      ];
      const envOps: Operation[] = Array.isArray(c.env)
        ? env.map((value): Operation => ({ op: 'add', path: `/spec/containers/${i}/env/-`, value }))
        : [{ op: 'add', path: `/spec/containers/${i}/env`, value: env }];
      return [
        ...envOps,
        ...listAppend(pod, 'volumes', [
          {
            name: 'azure-identity-token',
            projected: {
              sources: [
                {
                  serviceAccountToken: {
                    audience: 'api://AzureADTokenExchange',
                    expirationSeconds: 3600,
                    path: 'azure-identity-token',
                  },
                },
              ],
              defaultMode: 420,
            },
          },
        ]),
      ];
    },
  };
}

/** A webhook that inspects and never changes anything (policy engines in audit mode). */
export function passThrough(configuration: string, webhook: string): WebhookDef {
  return { configuration, webhook, mutate: () => [] };
}

/**
 * Runs the called webhooks in order on the pod as the built-in plugins left it. `hooks` pairs
 * each called webhook with its index in the API server's full ordered list.
 */
export function runWebhooks(
  pod: Pod,
  hooks: ReadonlyArray<{ index: number; def: WebhookDef }>,
  rng: Rng,
): AdmissionResult {
  let doc = toJson(pod);
  const annotations: Record<string, string> = {};
  const writes: FieldWrite[] = [];
  const mutatedBy: string[] = [];
  for (const { index, def } of hooks) {
    const ops = def.mutate(clone(doc), rng);
    const mutated = ops.length > 0;
    const key = `round_0_index_${index}`;
    annotations[`mutation.webhook.admission.k8s.io/${key}`] = JSON.stringify({
      configuration: def.configuration,
      webhook: def.webhook,
      mutated,
    });
    if (!mutated) continue;
    annotations[`patch.webhook.admission.k8s.io/${key}`] = JSON.stringify({
      configuration: def.configuration,
      webhook: def.webhook,
      patch: ops,
      patchType: 'JSONPatch',
    });
    mutatedBy.push(webhookName(def));
    for (const op of ops) {
      const value = 'value' in op ? (op.value as JsonValue) : undefined;
      writes.push({ path: pointerToPath(doc, op.path, value), by: webhookName(def) });
    }
    doc = applyPatch(doc, ops, false, false).newDocument;
  }
  return { pod: fromJson<Pod>(doc), annotations, writes, mutatedBy };
}
