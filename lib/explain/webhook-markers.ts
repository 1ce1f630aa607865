// Traces popular mutating webhooks leave on the pods they mutate. A live pod carries no
// audit annotations, so during an incident these marks are the only hint of who
// touched it without the audit log.
import { formatPath } from '../k8s/paths';

export interface WebhookMarker {
  name: string;
  annotationPrefixes?: string[];
  labelPrefixes?: string[];
  containerNames?: string[];
}

export const WEBHOOK_MARKERS: WebhookMarker[] = [
  {
    name: 'Istio sidecar injector',
    annotationPrefixes: ['sidecar.istio.io/status'],
    containerNames: ['istio-proxy'],
  },
  {
    name: 'Linkerd proxy injector',
    annotationPrefixes: ['linkerd.io/proxy-version'],
    containerNames: ['linkerd-proxy'],
  },
  {
    name: 'ScaleOps',
    annotationPrefixes: ['scaleops.sh/', 'scaleops.com/'],
    labelPrefixes: ['scaleops.sh/'],
  },
  {
    name: 'Vertical Pod Autoscaler admission controller',
    annotationPrefixes: ['vpaUpdates', 'vpaObservedContainers'],
  },
  {
    name: 'Vault agent injector',
    annotationPrefixes: ['vault.hashicorp.com/agent-inject-status'],
    containerNames: ['vault-agent'],
  },
  { name: 'Datadog admission controller', labelPrefixes: ['admission.datadoghq.com/'] },
  { name: 'Kyverno mutate policy', annotationPrefixes: ['policies.kyverno.io/'] },
  {
    name: 'Gatekeeper mutation',
    annotationPrefixes: ['gatekeeper.sh/mutation-id', 'gatekeeper.sh/mutations'],
  },
];

export interface MarkerHit {
  webhook: string;
  evidence: string;
}

export function detectWebhookMarkers(pod: Record<string, unknown>): MarkerHit[] {
  const meta = (pod.metadata ?? {}) as Record<string, unknown>;
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  const labels = (meta.labels ?? {}) as Record<string, unknown>;
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const containers = [
    ...(Array.isArray(spec.containers) ? spec.containers : []),
    ...(Array.isArray(spec.initContainers) ? spec.initContainers : []),
  ].map((c) => (c && typeof c === 'object' ? String((c as Record<string, unknown>).name) : ''));
  const hits: MarkerHit[] = [];
  for (const m of WEBHOOK_MARKERS) {
    const ann = Object.keys(annotations).find((k) => m.annotationPrefixes?.some((p) => k.startsWith(p)));
    const lab = Object.keys(labels).find((k) => m.labelPrefixes?.some((p) => k.startsWith(p)));
    const con = containers.find((c) => m.containerNames?.includes(c));
    const evidence = ann ? `annotation ${ann}` : lab ? `label ${lab}` : con ? `container ${con}` : null;
    if (evidence) hits.push({ webhook: m.name, evidence });
  }
  return hits;
}

/** A field a webhook's own record on the pod says it wrote. */
export interface RecordedChange {
  webhook: string;
  path: string;
}

const VPA = 'Vertical Pod Autoscaler admission controller';

/**
 * The fields webhooks record having written, where they record it: the VPA admission
 * controller's `vpaUpdates` annotation ("Pod resources updated by <vpa>: container 0: cpu
 * request, memory limit; container 1: …", indexes into spec.containers). Other webhooks leave
 * only a mark that they ran, which says nothing about which field they changed; so does the
 * webhook's own annotation (the mark itself), which is recorded as its change.
 */
export function recordedChanges(pod: Record<string, unknown>): RecordedChange[] {
  const meta = (pod.metadata ?? {}) as Record<string, unknown>;
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  const labels = (meta.labels ?? {}) as Record<string, unknown>;
  const out: RecordedChange[] = [];
  for (const m of WEBHOOK_MARKERS) {
    for (const k of Object.keys(annotations))
      if (m.annotationPrefixes?.some((p) => k.startsWith(p)))
        out.push({ webhook: m.name, path: formatPath(['metadata', 'annotations', k]) });
    for (const k of Object.keys(labels))
      if (m.labelPrefixes?.some((p) => k.startsWith(p)))
        out.push({ webhook: m.name, path: formatPath(['metadata', 'labels', k]) });
  }
  const vpa = annotations.vpaUpdates;
  if (typeof vpa !== 'string') return out;
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  const body = vpa.slice(vpa.indexOf(': ') + 2);
  for (const part of body.split(';')) {
    const m = /^\s*container (\d+): (.*)$/.exec(part);
    const c = m ? (containers[Number(m[1])] as Record<string, unknown> | undefined) : undefined;
    if (!m || typeof c?.name !== 'string') continue;
    for (const what of m[2].split(',')) {
      const r = /^\s*(cpu|memory) (request|limit)\s*$/.exec(what);
      if (!r) continue;
      const list = r[2] === 'request' ? 'requests' : 'limits';
      out.push({
        webhook: VPA,
        path: formatPath(['spec', 'containers', { key: 'name', value: c.name }, 'resources', list, r[1]]),
      });
    }
  }
  return out;
}
