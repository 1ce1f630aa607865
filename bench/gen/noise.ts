// Background API traffic that a real EKS audit log is mostly made of: kubelet node leases,
// leader-election leases, controller gets/lists/watches, node status patches and other
// teams' pods. lib/sim has no `noiseEvents` yet, so this builds the requests here from the
// simulator's own request builder (lib/sim/audit-event), so stages, levels and annotations
// look exactly like the koperator events they surround.
import type { AuditEvent } from '../../lib/model/audit';
import {
  auditRequest,
  levelFor,
  nodeActor,
  serviceAccountActor,
  systemActor,
  type Actor,
  type ApiRequest,
  type AuditPolicy,
} from '../../lib/sim/audit-event';
import type { JsonObject } from '../../lib/sim/json';
import { Rng } from '../../lib/sim/rng';
import { MS, type Micros } from '../../lib/sim/time';

const POLICY: AuditPolicy = {
  podLevel: 'RequestResponse',
  metadataPodNamespaces: new Set(['monitoring']),
  bodiesNamespaces: new Set(),
};
const APP_NAMESPACES = ['payments', 'checkout', 'search-api', 'ci-runners', 'monitoring', 'ingress'];
const NODES = Array.from({ length: 24 }, (_, i) => ({
  name: `ip-10-0-${i >> 3}-${20 + i}.eu-west-1.compute.internal`,
  ip: `10.0.${i >> 3}.${20 + i}`,
}));

type Pick = (rng: Rng, at: Micros) => Omit<ApiRequest, 'level'>;

/** A noise source: its weight in the mix and how it builds one request. */
interface Source {
  weight: number;
  make: Pick;
}

export class NoiseGenerator {
  private readonly rng: Rng;
  private readonly sources: Source[];
  private readonly total: number;
  private readonly controllers: Actor[];
  private readonly kubelets: Actor[];

  constructor(seed: number) {
    this.rng = new Rng(seed).fork('bench-noise');
    const r = this.rng;
    this.kubelets = NODES.map((n) => nodeActor(n.name, n.ip, 'v1.33.3-eks-1'));
    this.controllers = [
      systemActor(
        'system:kube-controller-manager',
        'kube-controller-manager/v1.33.3 (linux/amd64) kubernetes/3f2b1c7/leader-election',
        '10.0.200.11',
      ),
      systemActor(
        'system:kube-scheduler',
        'kube-scheduler/v1.33.3 (linux/amd64) kubernetes/3f2b1c7/leader-election',
        '10.0.200.12',
      ),
      serviceAccountActor(r, 'kube-system', 'aws-load-balancer-controller', {
        userAgent: 'controller/v2.8.1',
        sourceIP: '10.0.3.14',
      }),
      serviceAccountActor(r, 'kube-system', 'coredns', {
        userAgent: 'coredns/v1.11.3',
        sourceIP: '10.0.3.15',
      }),
      serviceAccountActor(r, 'karpenter', 'karpenter', {
        userAgent: 'karpenter/v1.1.0',
        sourceIP: '10.0.3.16',
      }),
      serviceAccountActor(r, 'monitoring', 'prometheus', {
        userAgent: 'prometheus/2.54.1',
        sourceIP: '10.0.3.17',
      }),
    ];
    this.sources = [
      { weight: 34, make: (g, at) => this.nodeLease(g, at) },
      { weight: 10, make: (g, at) => this.leaderLease(g, at) },
      { weight: 20, make: (g, at) => this.controllerGet(g, at) },
      { weight: 8, make: (g, at) => this.watch(g, at) },
      { weight: 8, make: (g, at) => this.nodeStatus(g, at) },
      { weight: 4, make: (g, at) => this.listPods(g, at) },
      { weight: 12, make: (g, at) => this.appPod(g, at) },
      { weight: 4, make: (g, at) => this.coreEvent(g, at) },
    ];
    this.total = this.sources.reduce((s, x) => s + x.weight, 0);
  }

  /** The stages of one background request at `at`. */
  request(at: Micros): AuditEvent[] {
    let w = this.rng.next() * this.total;
    let src = this.sources[0];
    for (const s of this.sources) {
      if ((w -= s.weight) < 0) {
        src = s;
        break;
      }
    }
    const req = src.make(this.rng, at);
    return auditRequest(this.rng, { ...req, level: levelFor(POLICY, req) }).events;
  }

  private latency(g: Rng, lo = 1, hi = 15): Micros {
    return Math.round(g.float(lo, hi) * MS);
  }

  private nodeLease(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const n = g.int(0, NODES.length - 1);
    const name = NODES[n].name;
    const renew = new Date(at / 1000).toISOString().replace('Z', '000Z');
    return {
      at,
      latency: this.latency(g),
      actor: this.kubelets[n],
      verb: 'update',
      resource: 'leases',
      apiGroup: 'coordination.k8s.io',
      apiVersion: 'v1',
      namespace: 'kube-node-lease',
      name,
      code: 200,
      requestObject: {
        kind: 'Lease',
        apiVersion: 'coordination.k8s.io/v1',
        metadata: { name, namespace: 'kube-node-lease', resourceVersion: String(g.int(1e7, 9e7)) },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: renew },
      },
    };
  }

  private leaderLease(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const a = this.controllers[g.int(0, 1)];
    const name = a.username.endsWith('scheduler') ? 'kube-scheduler' : 'kube-controller-manager';
    return {
      at,
      latency: this.latency(g),
      actor: a,
      verb: g.chance(0.5) ? 'get' : 'update',
      resource: 'leases',
      apiGroup: 'coordination.k8s.io',
      apiVersion: 'v1',
      namespace: 'kube-system',
      name,
      code: 200,
    };
  }

  private controllerGet(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const a = this.controllers[g.int(2, this.controllers.length - 1)];
    const resource = g.pick(['configmaps', 'secrets', 'endpoints', 'services', 'serviceaccounts']);
    const ns = g.pick(APP_NAMESPACES);
    return {
      at,
      latency: this.latency(g),
      actor: a,
      verb: 'get',
      resource,
      apiVersion: 'v1',
      namespace: ns,
      name: `${ns}-${resource.slice(0, 6)}-${g.int(0, 40)}`,
      code: g.chance(0.05) ? 404 : 200,
    };
  }

  private watch(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const a = this.controllers[g.int(0, this.controllers.length - 1)];
    const resource = g.pick(['pods', 'nodes', 'endpointslices', 'configmaps']);
    const apiGroup = resource === 'endpointslices' ? 'discovery.k8s.io' : undefined;
    return {
      at,
      latency: Math.round(g.float(60, 600) * 1000 * MS),
      actor: a,
      verb: 'watch',
      resource,
      ...(apiGroup ? { apiGroup } : {}),
      apiVersion: 'v1',
      query: `allowWatchBookmarks=true&resourceVersion=${g.int(1e7, 9e7)}&timeout=${g.int(5, 9)}m${g.int(0, 59)}s&timeoutSeconds=${g.int(300, 600)}&watch=true`,
      code: 200,
    };
  }

  private nodeStatus(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const n = g.int(0, NODES.length - 1);
    const t = new Date(at / 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const cond = (type: string, status: string, reason: string): JsonObject => ({
      type,
      status,
      lastHeartbeatTime: t,
      reason,
      message: `kubelet reports ${reason}`,
    });
    return {
      at,
      latency: this.latency(g, 3, 25),
      actor: this.kubelets[n],
      verb: 'patch',
      resource: 'nodes',
      apiVersion: 'v1',
      name: NODES[n].name,
      subresource: 'status',
      code: 200,
      requestObject: {
        status: {
          $setElementOrder: {
            conditions: [
              { type: 'MemoryPressure' },
              { type: 'DiskPressure' },
              { type: 'PIDPressure' },
              { type: 'Ready' },
            ],
          },
          conditions: [
            cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
            cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
            cond('PIDPressure', 'False', 'KubeletHasSufficientPID'),
            cond('Ready', 'True', 'KubeletReady'),
          ],
          // Now and then the kubelet reports its image list: the large node-status bodies.
          ...(g.chance(0.2)
            ? {
                images: Array.from({ length: 12 }, (_, i) => ({
                  names: [`123456789012.dkr.ecr.eu-west-1.amazonaws.com/app-${i}@sha256:${g.hex(64)}`],
                  sizeBytes: g.int(1e7, 9e8),
                })),
              }
            : {}),
        },
      },
    };
  }

  private listPods(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const a = this.controllers[g.int(2, this.controllers.length - 1)];
    return {
      at,
      latency: this.latency(g, 5, 80),
      actor: a,
      verb: 'list',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: g.pick(APP_NAMESPACES),
      query: 'limit=500&resourceVersion=0',
      code: 200,
    };
  }

  /** Other teams' pods: writes to `pods` the byte pre-filter must still look at closely. */
  private appPod(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const ns = g.pick(APP_NAMESPACES);
    const name = `${ns}-web-${g.nameSuffix(9)}-${g.nameSuffix()}`;
    const n = g.int(0, NODES.length - 1);
    const kind = g.int(0, 2);
    if (kind === 0) {
      const rs = serviceAccountActor(g, 'kube-system', 'replicaset-controller', {
        userAgent:
          'kube-controller-manager/v1.33.3 (linux/amd64) kubernetes/3f2b1c7/system:serviceaccount:kube-system:replicaset-controller',
        sourceIP: '10.0.200.11',
      });
      const pod = {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: {
          generateName: name.slice(0, -5),
          namespace: ns,
          labels: { app: `${ns}-web`, 'pod-template-hash': g.nameSuffix(9) },
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: name.slice(0, -6),
              uid: g.uuid(),
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: {
          containers: [
            {
              name: 'web',
              image: `123456789012.dkr.ecr.eu-west-1.amazonaws.com/${ns}/web:1.${g.int(0, 90)}.${g.int(0, 9)}`,
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } },
            },
          ],
          serviceAccountName: 'default',
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
        },
      };
      return {
        at,
        latency: this.latency(g, 5, 40),
        actor: rs,
        verb: 'create',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: ns,
        code: 201,
        requestObject: pod,
        responseObject: {
          ...pod,
          metadata: { ...pod.metadata, name, uid: g.uuid(), resourceVersion: String(g.int(1e7, 9e7)) },
        },
      };
    }
    if (kind === 1) {
      return {
        at,
        latency: this.latency(g),
        actor: this.kubelets[n],
        verb: 'patch',
        resource: 'pods',
        apiVersion: 'v1',
        namespace: ns,
        name,
        subresource: 'status',
        code: 200,
        requestObject: {
          status: {
            conditions: [
              { type: 'Ready', status: 'True', lastTransitionTime: new Date(at / 1000).toISOString() },
            ],
            podIP: `10.0.${g.int(0, 63)}.${g.int(2, 250)}`,
          },
        },
      };
    }
    return {
      at,
      latency: this.latency(g, 2, 30),
      actor: this.kubelets[n],
      verb: 'delete',
      resource: 'pods',
      apiVersion: 'v1',
      namespace: ns,
      name,
      code: 200,
      requestObject: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 },
    };
  }

  private coreEvent(g: Rng, at: Micros): Omit<ApiRequest, 'level'> {
    const n = g.int(0, NODES.length - 1);
    return {
      at,
      latency: this.latency(g),
      actor: this.kubelets[n],
      verb: 'create',
      resource: 'events',
      apiVersion: 'v1',
      namespace: g.pick(APP_NAMESPACES),
      code: 201,
    };
  }
}
