// Other teams' workloads in the background: ReplicaSet pods coming and going through their own
// namespaces' webhooks, and config maps and secrets written where a careless audit rule logs their
// bodies. Those bodies carry secret-like values on purpose: every one contains SECRET_CANARY (or is
// the base64 of a string that does), so tests can prove none ever reaches a report.
import type { Pod } from 'kubernetes-types/core/v1';
import { apiDefaults, builtinAdmission, storePod } from './admission';
import { nodeActor, type Actor, type ApiRequest } from './audit-event';
import type { JsonObject, JsonValue } from './json';
import { podJson } from './pod-json';
import { newContainerIDs, podStatus, statusPatchBody } from './pod-status';
import type { Rng } from './rng';
import { fmtSeconds, MIN, MS, SEC, type Micros } from './time';
import {
  istioInjector,
  passThrough,
  runWebhooks,
  workloadIdentityInjector,
  type WebhookDef,
} from './webhooks';
import { KUBELET_VERSION, type NodeInfo } from './world';

/** Every secret-like value the noise writes contains this (plain values) or encodes it (base64). */
export const SECRET_CANARY = 'XqZ7';

export const NOISE_NAMESPACES = ['shop', 'payments', 'ci-runners', 'monitoring', 'search-frontend'];

/** Where the workloads' requests go: the noise stream's emitter and scheduler. */
export interface NoiseSink {
  readonly rng: Rng;
  readonly nodes: readonly NodeInfo[];
  emit(r: Omit<ApiRequest, 'level'> & { level?: ApiRequest['level'] }): {
    receivedAt: Micros;
    doneAt: Micros;
  };
  schedule(at: Micros, job: (at: Micros) => void): void;
  onSecret?: (value: string) => void;
}

export interface AppActors {
  rs: Actor;
  scheduler: Actor;
  argocd: Actor;
  vault: Actor;
}

interface Workload {
  namespace: string;
  app: string;
  image: string;
  hash: string;
  rsUid: string;
  env: Array<{ name: string; value: string }>;
}

export class TeamApps {
  private readonly rng: Rng;
  private readonly workloads: Workload[];
  private readonly webhooks: Array<{ def: WebhookDef; namespaces: string[] }>;
  private livePods = 0;

  constructor(
    private readonly sink: NoiseSink,
    private readonly actors: AppActors,
  ) {
    this.rng = sink.rng;
    this.workloads = NOISE_NAMESPACES.flatMap((ns) =>
      ['api', 'worker'].map((role): Workload => ({
        namespace: ns,
        app: `${ns}-${role}`,
        image: `registry.example.com/${ns}/${role}:${this.rng.int(1, 9)}.${this.rng.int(0, 30)}.${this.rng.int(0, 9)}`,
        hash: this.rng.nameSuffix(10),
        rsUid: this.rng.uuid(),
        env:
          ns === 'payments' || ns === 'ci-runners'
            ? [{ name: 'DB_PASSWORD', value: this.secretValue('password') }]
            : [{ name: 'LOG_LEVEL', value: 'info' }],
      })),
    );
    // Ordered by configuration name, as the API server calls them.
    this.webhooks = [
      { def: workloadIdentityInjector(), namespaces: ['payments'] },
      {
        def: passThrough('gatekeeper-mutating-webhook-configuration', 'mutation.gatekeeper.sh'),
        namespaces: NOISE_NAMESPACES,
      },
      { def: istioInjector(), namespaces: ['shop', 'search-frontend'] },
    ];
  }

  /** Pods created and not yet deleted. */
  get running(): number {
    return this.livePods;
  }

  private ms(min: number, max: number): Micros {
    return Math.round(this.rng.float(min, max) * MS);
  }

  /** A secret-looking value carrying the canary, reported to `onSecret`. */
  private secretValue(kind: 'password' | 'token' | 'jwt' | 'dsn'): string {
    const r = this.rng;
    const password = `${r.base62(5)}${SECRET_CANARY}${r.base62(9)}!`;
    const value =
      kind === 'password'
        ? password
        : kind === 'token'
          ? `tok_${SECRET_CANARY}${r.base62(28)}`
          : kind === 'jwt'
            ? `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: r.uuid(), iat: 1761000000 })).toString('base64url')}.${SECRET_CANARY}${r.base62(39)}`
            : `postgres://app_${r.hex(4)}:${password}@db-${r.hex(4)}.payments.svc:5432/ledger?sslmode=require`;
    this.sink.onSecret?.(value);
    return value;
  }

  /** A ReplicaSet's pod: create (through its namespace's webhooks), binding, status, later its deletion. */
  podLifecycle(at: Micros): void {
    const r = this.rng;
    const w = r.pick(this.workloads);
    const node = r.pick(
      this.sink.nodes.filter((n) => n.pool === 'apps').length > 0
        ? this.sink.nodes.filter((n) => n.pool === 'apps')
        : this.sink.nodes,
    );
    const desired: Pod = {
      metadata: {
        generateName: `${w.app}-${w.hash}-`,
        namespace: w.namespace,
        labels: { app: w.app, 'pod-template-hash': w.hash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: `${w.app}-${w.hash}`,
            uid: w.rsUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        containers: [
          {
            name: w.app,
            image: w.image,
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            env: w.env,
            resources: { limits: { memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
          },
        ],
      },
      status: {},
    };
    const requested = apiDefaults(desired);
    const hooks = this.webhooks
      .map((h, index) => ({ index, ...h }))
      .filter((h) => h.namespaces.includes(w.namespace));
    const admission = runWebhooks(builtinAdmission(requested, r.nameSuffix()), hooks, r);
    const name = `${desired.metadata?.generateName ?? ''}${r.nameSuffix()}`;
    const uid = r.uuid();
    const stored = storePod(admission.pod, {
      name,
      uid,
      resourceVersion: String(r.int(40_000_000, 60_000_000)),
      createdAt: at,
      manager: 'kube-controller-manager',
    });
    const created = this.sink.emit({
      at,
      latency: this.ms(8, 40),
      actor: this.actors.rs,
      verb: 'create',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: w.namespace,
      requestObject: podJson(requested, { nullCreationTimestamp: true }),
      responseObject: podJson(stored),
      code: 201,
      admission: admission.annotations,
    });
    this.livePods++;
    const bindAt = created.doneAt + this.ms(10, 200);
    this.sink.schedule(bindAt, (t) => {
      this.sink.emit({
        at: t,
        latency: this.ms(5, 20),
        actor: this.actors.scheduler,
        verb: 'create',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: w.namespace,
        name,
        uid,
        subresource: 'binding',
        requestObject: {
          kind: 'Binding',
          apiVersion: 'v1',
          metadata: { name, namespace: w.namespace, uid, creationTimestamp: null },
          target: { kind: 'Node', name: node.name },
        },
        responseObject: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
        code: 201,
      });
    });
    const ids = newContainerIDs(stored, r);
    const podIP = `10.244.${r.int(16, 31)}.${r.int(2, 250)}`;
    const started = bindAt + this.ms(400, 1500);
    const kubelet = nodeActor(node.name, node.ip, KUBELET_VERSION);
    const report =
      (view: 'initializing' | 'running' | 'terminating') =>
      (t: Micros): void => {
        const status = podStatus(stored, view, {
          hostIP: node.ip,
          podIP,
          startedAt: started,
          now: t,
          containerIDs: ids,
        });
        this.sink.emit({
          at: t,
          latency: this.ms(4, 20),
          actor: kubelet,
          verb: 'patch',
          resource: 'pods',
          apiVersion: 'v1',
          namespace: w.namespace,
          name,
          subresource: 'status',
          requestObject: statusPatchBody(uid, status),
          code: 200,
        });
      };
    this.sink.schedule(started, report('initializing'));
    this.sink.schedule(started + this.ms(2000, 6000), report('running'));
    const deleteAt = at + Math.round(r.float(2, 25) * MIN);
    this.sink.schedule(deleteAt, (t) => {
      const deleting = (grace: number): JsonValue => {
        const p = podJson(stored);
        return {
          ...p,
          metadata: {
            ...(p.metadata as JsonObject),
            deletionTimestamp: fmtSeconds(t + 30 * SEC),
            deletionGracePeriodSeconds: grace,
          },
        };
      };
      // The ReplicaSet's delete and the kubelet's final one differ only in who sends them, the
      // delete options and the grace period the returned pod shows.
      const deletePod = (when: Micros, latency: Micros, actor: Actor, options: JsonObject, grace: number) =>
        this.sink.emit({
          at: when,
          latency,
          actor,
          verb: 'delete',
          resource: 'pods',
          apiVersion: 'v1',
          namespace: w.namespace,
          name,
          requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...options },
          responseObject: deleting(grace),
          code: 200,
        });
      const del = deletePod(t, this.ms(8, 30), this.actors.rs, { propagationPolicy: 'Background' }, 30);
      const finalAt = del.doneAt + this.ms(1500, 9000);
      this.sink.schedule(finalAt - this.ms(100, 400), report('terminating'));
      this.sink.schedule(finalAt, (tf) => {
        deletePod(tf, this.ms(5, 20), kubelet, { gracePeriodSeconds: 0, preconditions: { uid } }, 0);
        this.livePods--;
      });
    });
  }

  configMapWrite(at: Micros): void {
    const r = this.rng;
    const ns = r.pick(['payments', 'ci-runners']);
    const name = `${ns}-settings`;
    const data = {
      'application.properties': `spring.datasource.url=jdbc:postgresql://db.${ns}.svc:5432/app\nspring.datasource.username=app\nspring.datasource.password=${this.secretValue('password')}\nfeature.flags=checkout-v2,${r.pick(['fast-refunds', 'new-ledger'])}`,
      DATABASE_URL: this.secretValue('dsn'),
      LOG_LEVEL: r.pick(['info', 'debug']),
    };
    const obj: JsonObject = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace: ns,
        uid: r.uuid(),
        resourceVersion: String(r.int(40_000_000, 60_000_000)),
        creationTimestamp: fmtSeconds(at - 90 * 24 * 3600 * SEC),
      },
      data,
    };
    this.sink.emit({
      at,
      latency: this.ms(5, 20),
      actor: this.actors.argocd,
      verb: 'update',
      resource: 'configmaps',
      apiVersion: 'v1',
      namespace: ns,
      name,
      requestObject: obj,
      responseObject: obj,
      code: 200,
    });
  }

  secretWrite(at: Micros): void {
    const r = this.rng;
    const ns = r.pick(['payments', 'ci-runners']);
    const name = r.pick(['db-credentials', 'registry-token', 'webhook-signing-key']);
    const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
    const plain = {
      username: 'app',
      password: this.secretValue('password'),
      token: this.secretValue(r.chance(0.5) ? 'token' : 'jwt'),
    };
    const data = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, b64(v)]));
    this.sink.onSecret?.(data.password);
    this.sink.onSecret?.(data.token);
    const obj = {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name, namespace: ns, creationTimestamp: null },
      data,
      type: 'Opaque',
    };
    this.sink.emit({
      at,
      latency: this.ms(5, 20),
      actor: this.actors.vault,
      verb: r.chance(0.3) ? 'create' : 'update',
      resource: 'secrets',
      apiVersion: 'v1',
      namespace: ns,
      name,
      requestObject: obj,
      responseObject: obj,
      code: 200,
    });
  }

  /** A GitOps controller touching one of the workloads' Deployments. */
  deploymentPatch(at: Micros): void {
    const w = this.rng.pick(this.workloads);
    this.sink.emit({
      at,
      latency: this.ms(8, 30),
      actor: this.actors.argocd,
      verb: 'patch',
      resource: 'deployments',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: w.namespace,
      name: w.app,
      requestObject: {
        metadata: {
          annotations: {
            'argocd.argoproj.io/tracking-id': `${w.namespace}:apps/Deployment:${w.namespace}/${w.app}`,
          },
        },
      },
      code: 200,
    });
  }
}
