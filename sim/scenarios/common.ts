// Building blocks the scenarios share: people and controllers, writes to the KafkaCluster and
// its ConfigMaps, webhook configuration changes, koperator's upscale, and the revert loop.
import { humanActor, serviceAccountActor, type Actor, type RequestRecord } from '../audit-event';
import type { JsonObject } from '../json';
import { kubeletFinalDelete } from '../kube';
import {
  externalLoss,
  operatorCreate,
  operatorRestart,
  reconcile,
  setClusterState,
  statusUpdate,
  type Created,
  type Restart,
} from '../operator';
import type { Rng } from '../rng';
import { MS, SEC, type Micros } from '../time';
import type { WebhookDef } from '../webhooks';
import type { ClusterState, InstalledWebhook, LivePod, World } from '../world';

export interface ScenarioContext {
  world: World;
  /** The scenario's own random stream (independent of the other scenarios' draws). */
  rng: Rng;
  /** The scenario ends the timeline: a loop is left running, still active when the data ends. */
  leaveRunning: boolean;
}

/** A scenario plays from `start` and returns when its last event happened. */
export type Scenario = (ctx: ScenarioContext, start: Micros) => Micros;

export function secs(rng: Rng, min: number, max: number): Micros {
  return Math.round(rng.float(min, max) * SEC);
}

export function person(world: World, email: string): Actor {
  return humanActor(email, `198.51.100.${((email.length * 37) % 200) + 20}`);
}

export function controller(world: World, namespace: string, name: string, userAgent: string): Actor {
  return serviceAccountActor(world.rng, namespace, name, {
    userAgent,
    sourceIP: world.podIP(),
    podName: `${name}-${world.rng.nameSuffix(9)}-${world.rng.nameSuffix()}`,
    node: world.rng.pick(world.nodes.filter((n) => n.pool === 'system')).name,
  });
}

/** The Vertical Pod Autoscaler's updater, as its service account calls the API server. */
export function vpaUpdater(world: World): Actor {
  return controller(world, 'kube-system', 'vpa-updater', 'updater/v0.0.0 (linux/amd64) kubernetes/$Format');
}

/** A write to the KafkaCluster's spec (custom resources are logged at Metadata level). */
export function patchKafkaCluster(
  world: World,
  cluster: ClusterState,
  actor: Actor,
  at: Micros,
  fieldManager: string,
): RequestRecord {
  const rec = world.request({
    at,
    latency: Math.round(world.rng.float(10, 30) * MS),
    actor,
    verb: 'patch',
    resource: 'kafkaclusters',
    apiGroup: 'kafka.banzaicloud.io',
    apiVersion: 'v1beta1',
    namespace: cluster.spec.namespace,
    name: cluster.spec.name,
    query: `fieldManager=${fieldManager}`,
    code: 200,
  });
  cluster.specWrites.push({ user: actor.username, at: rec.receivedAt, auditID: rec.auditID });
  return rec;
}

/** koperator writes one of its per-cluster objects (ConfigMaps and PVCs are logged at Metadata level). */
export function operatorWrite(
  world: World,
  cluster: ClusterState,
  verb: 'create' | 'update' | 'delete',
  resource: 'configmaps' | 'persistentvolumeclaims',
  name: string,
  at: Micros,
): RequestRecord {
  return world.request({
    at,
    latency: Math.round(world.rng.float(4, 18) * MS),
    actor: world.operator,
    verb,
    resource,
    apiVersion: 'v1',
    namespace: cluster.spec.namespace,
    ...(verb === 'create' ? { name } : { name }),
    code: verb === 'create' ? 201 : 200,
  });
}

/** A change to a MutatingWebhookConfiguration (cluster-scoped; logged with bodies). */
export function webhookConfigWrite(
  world: World,
  actor: Actor,
  at: Micros,
  verb: 'create' | 'patch' | 'delete',
  def: WebhookDef,
  body: JsonObject | undefined,
): RequestRecord {
  return world.request({
    at,
    latency: Math.round(world.rng.float(8, 25) * MS),
    actor,
    verb,
    resource: 'mutatingwebhookconfigurations',
    apiGroup: 'admissionregistration.k8s.io',
    apiVersion: 'v1',
    ...(verb === 'create' ? {} : { name: def.configuration }),
    ...(body ? { requestObject: body } : {}),
    responseObject:
      verb === 'delete'
        ? {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Success',
            details: {
              name: def.configuration,
              group: 'admissionregistration.k8s.io',
              kind: 'mutatingwebhookconfigurations',
            },
          }
        : undefined,
    code: verb === 'create' ? 201 : 200,
  });
}

/** The MutatingWebhookConfiguration object a webhook's installer would create. */
export function webhookConfigObject(
  def: WebhookDef,
  serviceNamespace: string,
  namespaceSelector?: JsonObject,
): JsonObject {
  return {
    kind: 'MutatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: { name: def.configuration, creationTimestamp: null },
    webhooks: [
      {
        name: def.webhook,
        clientConfig: {
          service: {
            namespace: serviceNamespace,
            name: def.configuration.replace(/-webhook.*$/, ''),
            path: '/mutate',
            port: 443,
          },
        },
        rules: [
          { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' },
        ],
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        ...(namespaceSelector ? { namespaceSelector } : {}),
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1'],
        reinvocationPolicy: 'Never',
      },
    ],
  };
}

/**
 * A mutating webhook installed by `actor`: its configuration is created at `at` and it starts
 * being called for pods in `namespace` at `activeFrom` (the API server's cache lags the write).
 */
export function installMutator(
  world: World,
  actor: Actor,
  hook: WebhookDef,
  serviceNamespace: string,
  namespace: string,
  at: Micros,
  activeFrom: Micros,
): InstalledWebhook {
  webhookConfigWrite(world, actor, at, 'create', hook, webhookConfigObject(hook, serviceNamespace));
  return world.installWebhook(hook, [namespace], activeFrom);
}

/**
 * The fix that ends a loop by scoping the webhook away from the brokers: `actor` patches the
 * configuration with `selector` (an object or namespace selector) and the webhook stops being
 * called from then on.
 */
export function scopeWebhookAway(
  world: World,
  actor: Actor,
  hook: WebhookDef,
  installed: InstalledWebhook,
  selector: JsonObject,
): (at: Micros) => void {
  return (at) => {
    const body = { webhooks: [{ name: hook.webhook, ...selector }] };
    webhookConfigWrite(world, actor, at, 'patch', hook, body);
    installed.until = at;
  };
}

/**
 * A broker pod removed by someone other than koperator (a chaos experiment's delete, an
 * autoscaler's eviction): `remove` makes the request, the kubelet's final delete follows
 * `finalDelay` seconds later, and koperator creates the successor (the loop's first pod).
 */
export function externalRemoval(
  ctx: ScenarioContext,
  pod: LivePod,
  actor: Actor,
  remove: (pod: LivePod) => RequestRecord,
  finalDelay: readonly [number, number],
): Restart {
  const { world, rng } = ctx;
  const req = remove(pod);
  const gone = kubeletFinalDelete(world, pod, req.doneAt + secs(rng, finalDelay[0], finalDelay[1]));
  return externalLoss(
    world,
    pod.cluster,
    pod,
    {
      at: req.receivedAt,
      doneAt: req.doneAt,
      by: actor.username,
      auditID: req.auditID,
      evidence: [req.auditID],
    },
    gone.doneAt,
  );
}

/**
 * A broker added to the KafkaCluster: koperator creates its ConfigMap and PVC, then its pod
 * (no pod matched the broker's labels, so this is a creation, not a recreation).
 */
export function upscale(ctx: ScenarioContext, cluster: ClusterState, brokerId: string, at: Micros): Created {
  const { world, rng } = ctx;
  const rctx = reconcile(world, cluster, at);
  let t = at + secs(rng, 0.2, 0.6);
  const cm = operatorWrite(
    world,
    cluster,
    'create',
    'configmaps',
    `${cluster.spec.name}-config-${brokerId}`,
    t,
  );
  world.log.line(cm.doneAt + MS, rctx, 'resource created', [], { resourceKind: '*v1.ConfigMap' });
  const claim = `${cluster.spec.name}-${brokerId}-storage-0-${world.rng.nameSuffix()}`;
  cluster.spec.pvcNames[brokerId] = claim;
  const pvc = operatorWrite(
    world,
    cluster,
    'create',
    'persistentvolumeclaims',
    claim,
    cm.doneAt + secs(rng, 0.05, 0.2),
  );
  world.log.line(pvc.doneAt + MS, rctx, 'resource created', [], {
    resourceKind: '*v1.PersistentVolumeClaim',
  });
  t = statusUpdate(world, cluster, pvc.doneAt + secs(rng, 0.05, 0.2)).doneAt;
  return operatorCreate(world, cluster, brokerId, t + secs(rng, 0.2, 0.8), rctx);
}

/**
 * koperator fighting a mutation: after each pod is up it finds the live pod differs from what
 * it declares, deletes it and creates it again, which the mutator changes again. `fix` (called
 * between the last deletion and its successor's create) ends the loop; without it the loop is
 * still running when the scenario returns.
 */
export function revertLoop(
  ctx: ScenarioContext,
  clusterName: string,
  brokerId: string,
  first: { createdAt: Micros; readyAt: Micros },
  iterations: number,
  fix: ((at: Micros) => void) | null,
): { restarts: Restart[]; end: Micros } {
  const { world, rng } = ctx;
  const cluster = world.cluster(clusterName);
  const restarts: Restart[] = [];
  let createdAt = first.createdAt;
  let readyAt = first.readyAt;
  let prevDeletion: Micros | null = null;
  for (let i = 0; i < iterations; i++) {
    // While the new pod starts, each reconcile stops at the rolling-upgrade gate.
    for (let g = createdAt + secs(rng, 1.2, 2); g < readyAt - 0.5 * SEC; g += secs(rng, 1.8, 2.6)) {
      world.log.line(g + 30 * MS, reconcile(world, cluster, g), 'Rolling Upgrade in Progress');
    }
    const earliest = readyAt + secs(rng, 0.4, 1.1);
    const at: Micros = prevDeletion === null ? earliest : Math.max(earliest, prevDeletion + secs(rng, 8, 10));
    const last = i === iterations - 1;
    const r = operatorRestart(world, clusterName, brokerId, at, {
      shutdown: [0.8, 2.0],
      createDelay: [0.3, 0.9],
      keepRolling: !(last && fix),
      onDeleted: last && fix ? fix : undefined,
    });
    restarts.push(r);
    prevDeletion = r.deletedAt;
    createdAt = r.createdAt;
    readyAt = r.readyAt;
  }
  if (!fix) {
    // Left running: the data ends after the last successor started, before the next deletion.
    return { restarts, end: readyAt + secs(rng, 0.3, 0.9) };
  }
  return { restarts, end: readyAt + secs(rng, 2, 4) };
}

export function clusterRunning(ctx: ScenarioContext, cluster: ClusterState, at: Micros): Micros {
  if (cluster.state === 'ClusterRunning') return at;
  return setClusterState(
    ctx.world,
    cluster,
    reconcile(ctx.world, cluster, at),
    at + 40 * MS,
    'ClusterRunning',
  );
}
