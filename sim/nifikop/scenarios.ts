// NiFiKop beside koperator in one simulated cluster (sim/index.ts `nifikop`): one NiFiKop
// operator, of one version, reconciling a NifiCluster per scenario, each in its own namespace
// with its own injector (issue 30): Istio's proxy and istio-init, Istio as a native sidecar
// before a declared init container (an order-only initContainers patch), Istio's HTTP probe
// rewrite, Linkerd, Zarf, another image rewriter (a registry mirror), and a node's configuration
// rewritten (its Secret, then ConfigOutOfSync). What each version decides is the simulator's own
// model (./reconcile.ts); the truth is in the findings contract's shape for an operator other
// than koperator (`operator`, `nifiCluster`, `nodeId`, `wouldRestart` by version range).
import type { OperatorLine } from '../../lib/model/operator-line';
import { humanActor, serviceAccountActor, type Actor } from '../audit-event';
import { MIN, MS, SEC, type Micros } from '../time';
import type { WebhookDef } from '../webhooks';
import type { World } from '../world';
import { nifiClusterSpec, type NifiClusterSpec } from './cluster';
import { NifikopOperator, type NifiRecreation } from './operator';
import { istioSidecar, linkerdProxy, registryMirror, zarfAgent } from './webhooks';

export type NifiScenarioName =
  | 'istio-sidecar'
  | 'istio-native-order'
  | 'istio-http-probe'
  | 'linkerd'
  | 'zarf'
  | 'image-mirror'
  | 'config-change';

interface NifiScenario {
  namespace: string;
  cluster: string;
  hooks: () => WebhookDef[];
  spec?: Partial<NifiClusterSpec>;
  /** The node's configuration is rewritten this long after it is ready. */
  configChangeAfter?: Micros;
}

// As Go marshals a corev1.Container: `resources` is no omitempty field, so `{}` stays.
const INIT_PERMS = {
  name: 'init-perms',
  image: 'busybox:1.36',
  command: ['sh', '-c', 'chown -R 1000 /data'],
  resources: {},
};
const HTTP_READINESS = {
  httpGet: { path: '/nifi-api', port: 8080, scheme: 'HTTP' },
  initialDelaySeconds: 60,
  periodSeconds: 20,
  failureThreshold: 5,
};

const SCENARIOS: Readonly<Record<NifiScenarioName, NifiScenario>> = {
  'istio-sidecar': { namespace: 'nifi-mesh', cluster: 'flows', hooks: () => [istioSidecar()] },
  'istio-native-order': {
    namespace: 'nifi-native',
    cluster: 'ingest',
    hooks: () => [istioSidecar({ native: true })],
    spec: { initContainers: [INIT_PERMS] },
  },
  'istio-http-probe': {
    namespace: 'nifi-probes',
    cluster: 'etl',
    hooks: () => [istioSidecar()],
    spec: { readinessProbe: HTTP_READINESS },
  },
  linkerd: { namespace: 'nifi-linkerd', cluster: 'search-nifi', hooks: () => [linkerdProxy()] },
  zarf: { namespace: 'nifi-airgap', cluster: 'edge', hooks: () => [zarfAgent()] },
  'image-mirror': { namespace: 'nifi-mirror', cluster: 'batch', hooks: () => [registryMirror()] },
  'config-change': { namespace: 'nifi', cluster: 'prod', hooks: () => [], configChangeAfter: 40 * SEC },
};

export const NIFI_SCENARIO_ORDER: readonly NifiScenarioName[] = Object.keys(SCENARIOS) as NifiScenarioName[];

export interface NifikopSimOptions {
  /** NiFiKop's version (`1.13.0`): the simulator's model of that version decides. */
  version: string;
  /**
   * Its Deployment is rolled out (a Helm upgrade to this version's image) at the start, so the
   * audit log shows the version (default true).
   */
  rollout?: boolean;
  /** Scenarios to play, in order (default: all). */
  scenarios?: readonly NifiScenarioName[];
  /** Debug logging (`resource diffs`); a Metadata-level cluster needs it to show the pods' states. */
  debug?: boolean;
}

export const NIFIKOP_USER = 'system:serviceaccount:nifikop:nifikop';

export interface SimulatedNifikop {
  recreations: NifiRecreation[];
  lines: OperatorLine[];
  end: Micros;
}

/** The operator's image as its Helm chart names it (`image.tag: v1.17.0-release`). */
export function nifikopImage(version: string): string {
  return `ghcr.io/konpyutaika/docker-images/nifikop:v${version}-release`;
}

/** `helm upgrade nifikop` to `version`: a patch of the operator's Deployment with its image. */
function rolloutNifikop(world: World, version: string, at: Micros): Micros {
  return world.request({
    at,
    latency: 12 * MS,
    actor: { ...humanActor('platform-ci@example.com', '10.0.8.21'), userAgent: 'Helm/3.16.2' },
    verb: 'patch',
    resource: 'deployments',
    apiGroup: 'apps',
    apiVersion: 'v1',
    namespace: 'nifikop',
    name: 'nifikop',
    requestObject: {
      spec: { template: { spec: { containers: [{ name: 'nifikop', image: nifikopImage(version) }] } } },
    },
    code: 200,
  }).doneAt;
}

/** Every NiFi scenario from `start`, one after the other, by one NiFiKop. */
export function simulateNifikop(world: World, opts: NifikopSimOptions, start: Micros): SimulatedNifikop {
  const rng = world.rng.fork('nifikop');
  const actor: Actor = serviceAccountActor(rng, 'nifikop', 'nifikop', {
    userAgent: 'manager/v0.0.0 (linux/amd64) kubernetes/$Format',
    sourceIP: `10.244.${rng.int(0, 7)}.${rng.int(2, 250)}`,
    node: world.nodes[0].name,
    podName: `nifikop-${rng.nameSuffix(10)}-${rng.nameSuffix()}`,
  });
  const recreations: NifiRecreation[] = [];
  const lines: OperatorLine[] = [];
  let t = start;
  if (opts.rollout !== false) t = rolloutNifikop(world, opts.version, t) + rng.int(20, 40) * SEC;
  for (const name of opts.scenarios ?? NIFI_SCENARIO_ORDER) {
    const s = SCENARIOS[name];
    for (const h of s.hooks()) world.installWebhook(h, [s.namespace], t);
    const nodeId = String(rng.int(0, 3));
    const spec = nifiClusterSpec(s.cluster, { namespace: s.namespace, nodes: [nodeId], ...s.spec });
    const op = new NifikopOperator(world, spec, { version: opts.version, debug: opts.debug ?? true, actor });
    const { readyAt } = op.createNode(nodeId, t + rng.int(5, 20) * SEC);
    let end: Micros;
    if (s.configChangeAfter !== undefined) {
      const changeAt = op.run(nodeId, readyAt + 5 * SEC, readyAt + s.configChangeAfter);
      const outOfSync = op.changeConfig(nodeId, changeAt + rng.int(2, 4) * SEC);
      end = op.run(nodeId, outOfSync + rng.int(3, 9) * SEC, outOfSync + MIN);
    } else end = op.run(nodeId, readyAt + 5 * SEC, readyAt + 150 * SEC);
    recreations.push(...op.recreations);
    lines.push(...op.log.lines);
    t = end + rng.int(30, 60) * SEC;
  }
  return { recreations, lines, end: t };
}
