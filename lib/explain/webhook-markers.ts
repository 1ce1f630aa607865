// Traces popular mutating webhooks leave on the pods they mutate. A live pod carries no
// audit annotations, so during an incident these marks are the only hint of who
// touched it without the audit log.
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
