// What to do about a NiFiKop restart loop: the first NiFiKop version whose steps keep the pod,
// and, for each injector found on the live pod, the way to keep it off NiFi pods. The opt-outs
// are each injector's own: Istio's `sidecar.istio.io/inject` label and
// `sidecar.istio.io/rewriteAppHTTPProbers` annotation (pkg/kube/inject: ShouldRewriteAppHTTPProbers),
// Linkerd's `linkerd.io/inject: disabled` annotation, Zarf's `zarf.dev/agent: ignore` label
// (its agent's ShouldMutate). NiFi pods get labels and annotations from the NifiCluster's
// `spec.pod.labels` / `spec.pod.annotations`.
import { getIn, isObject } from '../k8s/json-value';
import type { Classification } from '../model/findings';
import type { WrittenField } from '../operators/profile';
import { firstVersionInSync, isLinkerdInjected, type NifikopGates, type NifikopPods } from './steps';
import { NIFIKOP_VERSION_RANGES, parseNifikopVersion } from './versions';

export type Injector = 'istio' | 'linkerd' | 'zarf';

function meta(pod: unknown, key: 'labels' | 'annotations'): Record<string, unknown> {
  const m = getIn(pod, ['metadata', key]);
  return isObject(m) ? m : {};
}

/** The injectors whose marks the live pod carries. */
export function injectorsOf(live: unknown): Injector[] {
  const out: Injector[] = [];
  const annotations = meta(live, 'annotations');
  if ('istio.io/rev' in annotations || 'sidecar.istio.io/status' in annotations) out.push('istio');
  if (isObject(live) && isLinkerdInjected(live)) out.push('linkerd');
  if ('zarf-agent' in meta(live, 'labels')) out.push('zarf');
  return out;
}

const OPT_OUT: Readonly<Record<Injector, string>> = {
  istio: 'label the NiFi pods `sidecar.istio.io/inject: "false"` (NifiCluster `spec.pod.labels`)',
  linkerd: 'annotate the NiFi pods `linkerd.io/inject: disabled` (NifiCluster `spec.pod.annotations`)',
  zarf: "label the NiFi pods `zarf.dev/agent: ignore` (NifiCluster `spec.pod.labels`), or write the image as Zarf's registry holds it",
};

function httpReadinessRewritten(live: unknown): boolean {
  const containers = getIn(live, ['spec', 'containers']);
  if (!Array.isArray(containers)) return false;
  return containers.some((c) => {
    const path = getIn(c, ['readinessProbe', 'httpGet', 'path']);
    return typeof path === 'string' && path.startsWith('/app-health/');
  });
}

export interface NifikopRecommendation {
  /** A released version of the first range from which the pod is kept, or null. */
  upgradeTo: string | null;
  injectors: Injector[];
  text: string;
}

/**
 * Advice for a pod NiFiKop deletes: the version that would keep it (when newer than the running
 * one, if known) and each injector's opt-out.
 */
export function nifikopRecommendation(
  pods: NifikopPods,
  runningVersion: string | null = null,
  gates: NifikopGates = {},
): NifikopRecommendation {
  const first = firstVersionInSync(pods, gates);
  const running = runningVersion === null ? null : parseNifikopVersion(runningVersion);
  const firstV = first === null ? null : parseNifikopVersion(first);
  const newer =
    firstV !== null &&
    (running === null ||
      running[0] < firstV[0] ||
      (running[0] === firstV[0] &&
        (running[1] < firstV[1] || (running[1] === firstV[1] && running[2] < firstV[2]))));
  const injectors = injectorsOf(pods.live);
  const parts: string[] = [];
  if (first !== null && newer) {
    const range = NIFIKOP_VERSION_RANGES.find((r) => r.representative === first);
    parts.push(`NiFiKop ${first} or later keeps this pod (${range?.source ?? 'its steps'})`);
  } else if (first === null) {
    parts.push('no NiFiKop version keeps this pod: the difference is not one its steps tolerate');
  }
  for (const i of injectors) parts.push(OPT_OUT[i]);
  if (injectors.includes('istio') && httpReadinessRewritten(pods.live)) {
    parts.push(
      'or keep Istio from rewriting the HTTP readiness probe: annotate the NiFi pods `sidecar.istio.io/rewriteAppHTTPProbers: "false"`',
    );
  }
  return { upgradeTo: newer ? first : null, injectors, text: parts.join('; ') + '.' };
}

/** The injector a writer's name points at (its webhook configuration or service account), if any. */
export function injectorOfWriter(by: string): Injector | null {
  const w = by.toLowerCase();
  if (w.includes('istio') || w.includes('sidecar-injector')) return 'istio';
  if (w.includes('linkerd')) return 'linkerd';
  if (w.includes('zarf')) return 'zarf';
  return null;
}

/**
 * Advice for a NiFiKop loop, from its class and the fields' writers: each known injector's
 * opt-out for NiFi pods; the version that would stop the loop is the analysis' (the loop's
 * `stoppedByVersion`), added by the caller.
 */
export function nifikopLoopRecommendation(
  classification: Classification,
  written: readonly WrittenField[],
): string {
  switch (classification) {
    case 'external-mutation-revert': {
      const writers = [...new Set(written.map((w) => w.by).filter((b): b is string => b !== null))];
      const optOuts = [
        ...new Set(writers.map(injectorOfWriter).filter((i): i is Injector => i !== null)),
      ].map((i) => OPT_OUT[i]);
      const named = writers.length > 0 ? writers.join(', ') : 'a writer the logs do not name';
      const paths = [...new Set(written.map((w) => w.path))].join(', ');
      return (
        `NiFiKop re-creates the node pod because ${named} changed ${paths || 'fields'} it declares. ` +
        (optOuts.length > 0
          ? `Keep the injector off NiFi pods: ${optOuts.join('; ')}.`
          : 'Exclude the NiFi pods from that writer, or declare the same value in the NifiCluster spec.')
      );
    }
    case 'config-change':
      return 'The node configuration (Secret <cluster>-config-<id>) changed repeatedly: find who rewrites the NifiCluster config.';
    case 'intent-change':
      return 'The NifiCluster spec keeps changing: find who writes it (a GitOps tool and a person fighting?).';
    default:
      return 'NiFiKop re-creates this node pod repeatedly; the logs do not show why. Log NiFiKop at debug (`resource diffs`) and pod writes at RequestResponse.';
  }
}
