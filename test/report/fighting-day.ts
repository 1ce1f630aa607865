// A findings document shaped like the benchmark's 300 MB fights mix (bench/generate.ts
// --mix fights: about 415 recreations and 15 loops on 5 brokers, 81 fights of 29 causes, one still
// active), with the fights' advice written by lib/fights' own recommenders, so the report
// is tested at that scale without generating and analysing 300 MB in the suite.
import type { Fight, FightTarget, FindingsDocument } from '../../lib/model/findings';
import {
  fieldFightRecommendation,
  hotLoopRecommendation,
  recreateLoopRecommendation,
} from '../../lib/fights/recommendation';
import { buildLoopingFleet } from './looping-fleet';

const SA = (ns: string, name: string): string => `system:serviceaccount:${ns}:${name}`;
const ARGO = SA('argocd', 'argocd-application-controller');
const FLUX = SA('flux-system', 'kustomize-controller');
const HELM = SA('flux-system', 'helm-controller');
const HPA = SA('kube-system', 'horizontal-pod-autoscaler');
const KEDA = SA('keda', 'keda-operator');
const CAINJECTOR = SA('cert-manager', 'cert-manager-cainjector');
const CNPG = SA('cnpg-system', 'cnpg-manager');
const OLM = SA('olm', 'olm-operator-serviceaccount');
const IRSA = 'pod-identity-webhook/iam-for-pods.amazonaws.com';
const IMAGESWAP = 'imageswap-webhook/imageswap.webhook.k8s.twr.io';
const LINKERD = 'linkerd-proxy-injector-webhook-config/linkerd-proxy-injector.linkerd.io';
const IRSA_FIELDS = [
  'spec.containers[name=postgres].env[name=AWS_ROLE_ARN]',
  'spec.containers[name=postgres].env[name=AWS_WEB_IDENTITY_TOKEN_FILE]',
  'spec.volumes[name=aws-iam-token]',
  'spec.containers[name=postgres].volumeMounts[mountPath=/var/run/secrets/eks.amazonaws.com/serviceaccount]',
];
const DEFAULTED = [
  'spec.template.spec.containers[name=vmstorage].terminationMessagePath',
  'spec.template.spec.dnsPolicy',
  'spec.template.spec.schedulerName',
  'spec.podManagementPolicy',
  'spec.revisionHistoryLimit',
];

type Cause = (
  i: number,
) => Omit<Fight, 'count' | 'firstAt' | 'lastAt' | 'periodSeconds' | 'active' | 'evidence'>;

const TEAMS = ['orders', 'billing', 'ledger', 'search', 'ingest', 'events', 'users', 'audit'];
const team = (i: number): string => TEAMS[i % TEAMS.length];

const fieldFight =
  (writers: string[], resource: string, apiGroup: string, fields: string[]): Cause =>
  (i) => {
    const target: FightTarget = { apiGroup, resource, name: `${team(i)}-${resource.slice(0, 4)}-${i}` };
    return {
      kind: 'field-fight',
      namespace: `${team(i + 3)}-prod`,
      target,
      writers,
      mutators: [],
      fields,
      recommendation: fieldFightRecommendation({ target, writers, fields, values: {} }),
    };
  };

const recreateLoop =
  (writer: string, mutator: string, resource: string, apiGroup: string, fields: string[]): Cause =>
  (i) => {
    const target: FightTarget = { apiGroup, resource, name: `pg-${team(i)}`, slot: `pg-${team(i)}-${i % 3}` };
    const writers = [writer];
    const mutators = [mutator];
    return {
      kind: 'recreate-loop',
      namespace: `${team(i + 1)}-db`,
      target,
      writers,
      mutators,
      fields,
      recommendation: recreateLoopRecommendation({ target, writers, mutators, fields }),
    };
  };

const hotLoop =
  (writer: string): Cause =>
  (i) => {
    const target: FightTarget = { apiGroup: 'apps', resource: 'statefulsets', name: `vmstorage-${team(i)}` };
    return {
      kind: 'hot-loop',
      namespace: 'monitoring',
      target,
      writers: [writer],
      mutators: [],
      fields: DEFAULTED,
      recommendation: hotLoopRecommendation({ target, writer, fields: DEFAULTED }),
    };
  };

/** The mix's causes and how many fights each had. */
const CAUSES: Array<[Cause, number]> = [
  [
    recreateLoop(OLM, IMAGESWAP, 'catalogsources', 'operators.coreos.com', [
      'spec.containers[name=registry-server].image',
    ]),
    16,
  ],
  [recreateLoop(CNPG, IRSA, 'clusters', 'postgresql.cnpg.io', IRSA_FIELDS), 6],
  [
    recreateLoop(CNPG, IMAGESWAP, 'clusters', 'postgresql.cnpg.io', ['spec.containers[name=postgres].image']),
    5,
  ],
  [recreateLoop(CNPG, LINKERD, 'clusters', 'postgresql.cnpg.io', ['spec.containers[name=linkerd-proxy]']), 5],
  [fieldFight([FLUX, KEDA], 'deployments', 'apps', []), 5],
  [fieldFight([FLUX, HPA], 'deployments', 'apps', ['spec.replicas']), 5],
  [hotLoop(SA('monitoring', 'vm-operator')), 5],
  [
    fieldFight([ARGO, CAINJECTOR], 'mutatingwebhookconfigurations', 'admissionregistration.k8s.io', [
      'webhooks[name=x].clientConfig.caBundle',
    ]),
    4,
  ],
  [fieldFight([ARGO, HPA], 'deployments', 'apps', ['spec.replicas']), 4],
  [
    fieldFight(
      [ARGO, SA('istio-system', 'istiod')],
      'validatingwebhookconfigurations',
      'admissionregistration.k8s.io',
      ['webhooks[name=x].clientConfig.caBundle'],
    ),
    3,
  ],
  [fieldFight([ARGO, KEDA], 'deployments', 'apps', []), 2],
  [hotLoop(SA('clickhouse', 'clickhouse-operator')), 2],
  [
    fieldFight(
      [HELM, SA('istio-system', 'istiod')],
      'mutatingwebhookconfigurations',
      'admissionregistration.k8s.io',
      ['webhooks[name=x].clientConfig.caBundle'],
    ),
    2,
  ],
  [
    fieldFight([CAINJECTOR, HELM], 'mutatingwebhookconfigurations', 'admissionregistration.k8s.io', [
      'webhooks[name=x].clientConfig.caBundle',
    ]),
    2,
  ],
  // Crossplane providers, each its own writer: a cause each.
  ...Array.from({ length: 15 }, (_, k): [Cause, number] => [
    fieldFight(
      [ARGO, SA('crossplane-system', `provider-${team(k)}-${(k * 7919).toString(16).slice(0, 6)}`)],
      'buckets',
      's3.aws.upbound.io',
      [],
    ),
    1,
  ]),
];

export function buildFightingDay(): FindingsDocument {
  const doc = buildLoopingFleet({
    loopingBrokers: 5,
    loopsPerBroker: 3,
    perLoop: 25,
    steadyBrokers: 3,
    perSteadyBroker: 13,
    seed: 300,
  });
  const start = Date.parse('2026-11-02T00:00:30Z');
  const fights: Fight[] = [];
  for (const [cause, n] of CAUSES) {
    for (let k = 0; k < n; k++) {
      const i = fights.length;
      const first = start + i * 8.3 * 60000;
      const count = 9 + ((i * 7) % 30);
      const period = 3 + ((i * 13) % 31);
      fights.push({
        ...cause(i),
        count,
        firstAt: new Date(first).toISOString(),
        lastAt: new Date(first + count * period * 1000).toISOString(),
        periodSeconds: period,
        active: false,
        evidence: Array.from(
          { length: Math.min(count, 5) },
          (_, e) => `00000000-0000-4000-8000-${String(i * 100 + e).padStart(12, '0')}`,
        ),
      });
    }
  }
  // The last fight of the day is still going at the end of the logs.
  fights[fights.length - 1].active = true;
  return { ...doc, fights };
}
