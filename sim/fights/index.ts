// Clusters where controllers fight (fights.md): the chosen fights and negatives played one after
// another, as audit events, with the truth of each fight. Seeded and pure like simulateCluster.
//
//   simulateFights({ seed, start, level, fights, negatives })
//   variedFights(rng)   a cluster's worth of fights with names, periods and webhooks drawn from rng
import type { AuditEvent } from '../../lib/model/audit';
import { Rng } from '../rng';
import { parseTime, SEC, type Micros } from '../time';
import { FightSink, type FightLevel } from './emit';
import { NEGATIVES, type NegativeName } from './negatives';
import {
  annotationFight,
  caBundleFight,
  customResourceFight,
  hotLoop,
  replicasFight,
  type AnnotationFightSpec,
  type CaBundleFightSpec,
  type CustomResourceFightSpec,
  type FightTruth,
  type HotLoopSpec,
  type ReplicasFightSpec,
} from './objects';
import { recreateLoop, type RecreateLoopSpec } from './recreate';
import { imageSwap, irsaInjector, sidecarInjector } from './webhooks';

export type { FightLevel } from './emit';
export type { FightTruth } from './objects';
export { NEGATIVES, METADATA_SILENT, type NegativeName } from './negatives';
export type { RecreateLoopSpec } from './recreate';
export type { HotLoopSend, HotLoopSpec } from './objects';
export type { FightWebhook } from './webhooks';

export type FightSpec =
  | { kind: 'recreate-loop'; spec: RecreateLoopSpec }
  | { kind: 'replicas'; spec: ReplicasFightSpec }
  | { kind: 'ca-bundle'; spec: CaBundleFightSpec }
  | { kind: 'custom-resource'; spec: CustomResourceFightSpec }
  | { kind: 'hot-loop'; spec: HotLoopSpec }
  | { kind: 'annotation'; spec: AnnotationFightSpec };

export interface FightSimOptions {
  seed: number;
  start: string;
  level: FightLevel;
  fights: FightSpec[];
  negatives?: NegativeName[];
  /** Seconds between two scenarios (default 900: longer than --loop-max-gap's default). */
  gapSeconds?: number;
}

export interface SimulatedFights {
  /** Sorted by stageTimestamp. */
  audit: AuditEvent[];
  truth: FightTruth[];
  /** The last requestReceivedTimestamp (the end of the data). */
  endAt: Micros;
}

export function simulateFights(opts: FightSimOptions): SimulatedFights {
  const rng = new Rng(opts.seed);
  const sink = new FightSink(rng.fork('events'), opts.level);
  const gap = (opts.gapSeconds ?? 900) * SEC;
  let t = parseTime(opts.start);
  const truth: FightTruth[] = [];
  for (const f of opts.fights) {
    const r =
      f.kind === 'recreate-loop'
        ? recreateLoop(sink, f.spec, t)
        : f.kind === 'replicas'
          ? replicasFight(sink, f.spec, t)
          : f.kind === 'ca-bundle'
            ? caBundleFight(sink, f.spec, t)
            : f.kind === 'custom-resource'
              ? customResourceFight(sink, f.spec, t)
              : f.kind === 'annotation'
                ? annotationFight(sink, f.spec, t)
                : hotLoop(sink, f.spec, t);
    if (r.truth) truth.push(r.truth);
    t = r.end + gap;
  }
  for (const n of opts.negatives ?? []) t = NEGATIVES[n](sink, t) + gap;
  const audit = sink.audit
    .map((e, i) => ({ e, i, k: parseTime(e.stageTimestamp) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.e);
  const endAt = audit.reduce((m, e) => Math.max(m, parseTime(e.requestReceivedTimestamp)), 0);
  return { audit, truth, endAt };
}

/** Fights with names, periods and webhooks drawn from `rng`: the corpus is a sample, this is the family. */
export function variedFights(rng: Rng): FightSpec[] {
  const word = () =>
    rng.pick(['ledger', 'orders', 'billing', 'search', 'events', 'ingest', 'audit', 'users']);
  const ns = () => `${word()}-${rng.pick(['prod', 'db', 'apps', 'core'])}`;
  const period = (lo: number, hi: number) => rng.int(lo, hi);
  const cnpg = word();
  const webhooks = [
    irsaInjector({
      region: rng.pick(['eu-west-1', 'us-east-2']),
      roleArn: `arn:aws:iam::123456789012:role/${cnpg}`,
    }),
    sidecarInjector({ proxy: rng.pick(['linkerd-proxy', 'istio-proxy']) }),
    imageSwap({ mirror: rng.pick(['mirror.example.com', 'registry.corp.example']) }),
  ];
  const instance = rng.int(1, 3);
  return [
    {
      kind: 'recreate-loop',
      spec: {
        namespace: ns(),
        user: 'system:serviceaccount:cnpg-system:cnpg-manager',
        owner: { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', name: `pg-${cnpg}`, uid: rng.uuid() },
        name: `pg-${cnpg}-${instance}`,
        labels: { 'cnpg.io/cluster': `pg-${cnpg}`, 'cnpg.io/instanceName': `pg-${cnpg}-${instance}` },
        containers: [
          { name: 'bootstrap-controller', image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.24.1', init: true },
          {
            name: 'postgres',
            image: 'ghcr.io/cloudnative-pg/postgresql:16.4',
            env: [{ name: 'PGDATA', value: '/var/lib/postgresql/data/pgdata' }],
          },
        ],
        webhooks: [rng.pick(webhooks)],
        cycles: rng.int(4, 12),
        periodSeconds: period(15, 45),
        startedBy: rng.chance(0.5) ? 'frank@example.com' : undefined,
      },
    },
    {
      kind: 'recreate-loop',
      spec: {
        namespace: 'olm',
        user: 'system:serviceaccount:olm:olm-operator-serviceaccount',
        owner: {
          apiVersion: 'operators.coreos.com/v1alpha1',
          kind: 'CatalogSource',
          name: `${word()}-catalog`,
          uid: rng.uuid(),
        },
        generateName: `${word()}-catalog-`,
        labels: { 'olm.catalogSource': 'catalog' },
        containers: [{ name: 'registry-server', image: 'quay.io/operatorhubio/catalog:latest' }],
        webhooks: [imageSwap({ mirror: rng.pick(['mirror.example.com', 'registry.corp.example']) })],
        cycles: rng.int(5, 40),
        periodSeconds: period(2, 8),
      },
    },
    {
      kind: 'replicas',
      spec: {
        namespace: ns(),
        name: `${word()}-api`,
        gitops: rng.pick([
          'system:serviceaccount:argocd:argocd-application-controller',
          'system:serviceaccount:flux-system:kustomize-controller',
        ]),
        scaler: rng.pick([
          'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
          'system:serviceaccount:keda:keda-operator',
        ]),
        gitReplicas: rng.int(1, 3),
        scaledReplicas: rng.int(5, 12),
        rounds: rng.int(4, 20),
        periodSeconds: period(8, 60),
      },
    },
    {
      kind: 'ca-bundle',
      spec: {
        configuration: `${word()}-webhook`,
        webhooks: Array.from({ length: rng.int(1, 3) }, (_, i) => `w${i}.${word()}.example.com`),
        renderer: rng.pick([
          'system:serviceaccount:argocd:argocd-application-controller',
          'system:serviceaccount:flux-system:helm-controller',
        ]),
        injector: rng.pick([
          'system:serviceaccount:cert-manager:cert-manager-cainjector',
          'system:serviceaccount:istio-system:istiod',
        ]),
        rounds: rng.int(4, 20),
        periodSeconds: period(3, 30),
      },
    },
    {
      kind: 'custom-resource',
      spec: {
        apiGroup: rng.pick(['rds.aws.upbound.io', 'sql.cnrm.cloud.google.com', 'example.crossplane.io']),
        resource: rng.pick(['instances', 'databases', 'buckets']),
        namespace: rng.chance(0.5) ? null : ns(),
        name: `${word()}-db`,
        writers: [
          'system:serviceaccount:argocd:argocd-application-controller',
          `system:serviceaccount:crossplane-system:provider-${word()}-${rng.hex(6)}`,
        ],
        writes: rng.int(6, 30),
        periodSeconds: period(5, 40),
      },
    },
    {
      kind: 'hot-loop',
      spec: {
        namespace: ns(),
        name: `${word()}-store`,
        user: rng.pick([
          'system:serviceaccount:monitoring:vm-operator',
          'system:serviceaccount:clickhouse:clickhouse-operator',
        ]),
        container: rng.pick(['vmstorage', 'clickhouse']),
        writes: rng.int(10, 40),
        periodSeconds: period(2, 20),
      },
    },
  ];
}
