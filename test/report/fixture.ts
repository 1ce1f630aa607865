// A fixed findings document covering what the reports must draw: every class, an
// active and an ended loop, a downscale (createdPod null), an `unknown` recreation with
// wouldRestart null, and field values that try HTML and Markdown injection.
import type {
  Classification,
  Drift,
  Fight,
  FindingsDocument,
  Loop,
  Recreation,
} from '../../lib/model/findings';

export const INJECTION = '<img src=x onerror=alert(1)>';
export const SCRIPT_BREAKOUT = '</script><script>alert(2)</script>';

const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
const SCALEOPS = 'scaleops-mutating-webhook-configuration/pods.scaleops.sh';
const ZONES = 'zone-spread-injector/affinity.spread.example.com';

function at(hhmmss: string, ms = 0): string {
  return `2026-11-02T${hhmmss}.${String(ms).padStart(3, '0')}000Z`;
}

function rec(
  p: Partial<Recreation> &
    Pick<Recreation, 'kafkaCluster' | 'brokerId' | 'classification'> & {
      pod: string;
      next?: string | null;
      time: string;
      createdTime?: string;
    },
): Recreation {
  const { pod, next, time, createdTime, ...rest } = p;
  const uid = (name: string): string =>
    `00000000-0000-4000-8000-${[...name]
      .reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1e12, 7)
      .toString()
      .padStart(12, '0')}`;
  return {
    namespace: 'kafka',
    deletedPod: { name: pod, uid: uid(pod), deletedAt: time, deletedBy: OPERATOR },
    createdPod:
      next === null
        ? null
        : { name: next ?? `${pod}-next`, uid: uid(next ?? `${pod}-next`), createdAt: createdTime ?? time },
    fields: [],
    wouldRestart: { threeWayMerge: false, intentDiff: false },
    evidence: [`audit:${pod}-delete`],
    ...rest,
  };
}

/** Five reverts of a CPU request set by a webhook, ten seconds apart: the active loop. */
function pipelineLoop(): Recreation[] {
  const pods = [
    'pipeline-kafka-4-a1b2c',
    'pipeline-kafka-4-d3e4f',
    'pipeline-kafka-4-g5h6i',
    'pipeline-kafka-4-j7k8l',
    'pipeline-kafka-4-m9n0p',
    'pipeline-kafka-4-q1r2s',
  ];
  return pods.slice(0, 5).map((pod, i) =>
    rec({
      kafkaCluster: 'pipeline-kafka',
      brokerId: '4',
      classification: 'external-mutation-revert',
      pod,
      next: pods[i + 1],
      time: at(`11:2${i}:0${i}`, 100 * i),
      createdTime: at(`11:2${i}:0${i + 1}`),
      fields: [
        { path: 'spec.containers[name=kafka].resources.requests.cpu', from: '2', to: '350m', by: SCALEOPS },
        {
          path: 'spec.containers[name=fluent-bit].resources.requests.memory',
          from: '128Mi',
          to: '64Mi',
          by: SCALEOPS,
        },
      ],
      wouldRestart: { threeWayMerge: true, intentDiff: false },
      evidence: [`audit:${pod}-delete`, `operator:pod-diff:${pod}`],
    }),
  );
}

/** Three reverts of an injected anti-affinity term, then the webhook was fixed: the ended loop. */
function eventsLoop(): Recreation[] {
  const declared = [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } }];
  const live = [...declared, { weight: 50, podAffinityTerm: { topologyKey: 'topology.kubernetes.io/zone' } }];
  const pods = [
    'events-kafka-5-vqf5j',
    'events-kafka-5-gxgxf',
    'events-kafka-5-h9l49',
    'events-kafka-5-zt7wq',
  ];
  return pods.slice(0, 3).map((pod, i) =>
    rec({
      kafkaCluster: 'events-kafka',
      brokerId: '5',
      classification: 'external-mutation-revert',
      pod,
      next: pods[i + 1],
      time: new Date(Date.parse(at('10:37:39', 690)) + 11000 * i).toISOString(),
      fields: [
        {
          path: 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
          from: declared,
          to: live,
          by: ZONES,
        },
      ],
      wouldRestart: { threeWayMerge: true, intentDiff: false },
    }),
  );
}

export function buildFixture(): FindingsDocument {
  const recreations: Recreation[] = [
    rec({
      kafkaCluster: 'orders-kafka',
      brokerId: '1',
      classification: 'external-deletion',
      pod: 'orders-kafka-1-65jhm',
      next: 'orders-kafka-1-dbqls',
      time: at('09:58:21', 400),
      deletedPod: {
        name: 'orders-kafka-1-65jhm',
        uid: null,
        deletedAt: at('09:58:21', 400),
        deletedBy: 'bob@example.com',
      },
    }),
    rec({
      kafkaCluster: 'events-kafka',
      brokerId: '1',
      classification: 'container-terminated',
      pod: 'events-kafka-1-sbhv5',
      next: 'events-kafka-1-mwgcz',
      time: at('10:06:13', 263),
      evidence: [
        'audit:events-kafka-1-sbhv5-status',
        'containerStatuses[kafka].lastState.terminated.reason=OOMKilled',
      ],
    }),
    rec({
      kafkaCluster: 'orders-kafka',
      brokerId: '2',
      classification: 'config-change',
      pod: 'orders-kafka-2-678ct',
      next: 'orders-kafka-2-bqrf8',
      time: at('10:14:43', 897),
      evidence: ['audit:configmap orders-kafka-config-2 update'],
    }),
    ...eventsLoop(),
    rec({
      kafkaCluster: 'events-kafka',
      brokerId: '2',
      classification: 'tainted-restart',
      pod: 'events-kafka-2-7fb8q',
      next: 'events-kafka-2-x2k9d',
      time: at('10:52:07', 120),
      evidence: ['operator:tainted broker pod labels matched'],
    }),
    rec({
      kafkaCluster: 'orders-kafka',
      brokerId: '0',
      classification: 'intent-change',
      pod: 'orders-kafka-0-5r7kk',
      next: 'orders-kafka-0-w8h2m',
      time: at('11:02:14', 187),
      fields: [
        {
          path: 'spec.containers[name=kafka].image',
          from: 'ghcr.io/adobe/kafka:2.13-3.7.0',
          to: 'ghcr.io/adobe/kafka:2.13-3.7.1',
          by: 'alice@example.com',
        },
        {
          path: 'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
          from: '-Xmx2G -Xms2G',
          to: '-Xmx4G -Xms4G',
          by: null,
        },
      ],
      wouldRestart: { threeWayMerge: true, intentDiff: true },
    }),
    rec({
      kafkaCluster: 'orders-kafka',
      brokerId: '3',
      classification: 'intent-change',
      pod: 'orders-kafka-3-p4q8z',
      next: null,
      time: at('11:05:30', 5),
      evidence: ['audit:kafkacluster orders-kafka patch (brokers 0..2)', 'operator:broker removed'],
    }),
    rec({
      kafkaCluster: 'events-kafka',
      brokerId: '0',
      classification: 'external-mutation-revert',
      pod: 'events-kafka-0-inj3c',
      next: 'events-kafka-0-t9v2x',
      time: at('11:12:45', 500),
      fields: [
        {
          path: 'metadata.annotations["note|x"]',
          from: null,
          to: INJECTION,
          by: `evil-hook/${SCRIPT_BREAKOUT}`,
        },
        {
          path: 'metadata.labels["app.kubernetes.io/name"]',
          from: 'kafka',
          to: '`kafka` **bold** [link](javascript:alert(3))',
          by: 'mallory',
        },
      ],
      wouldRestart: { threeWayMerge: true, intentDiff: false },
    }),
    ...pipelineLoop(),
    {
      namespace: 'staging',
      kafkaCluster: 'logs-kafka',
      brokerId: '0',
      deletedPod: { name: 'logs-kafka-0-9zz8y', uid: null, deletedAt: at('11:24:10', 999), deletedBy: null },
      createdPod: { name: 'logs-kafka-0-c4d5e', uid: null, createdAt: at('11:24:13') },
      classification: 'unknown',
      fields: [],
      wouldRestart: null,
      evidence: ['successor pod spec not in the data and a KafkaCluster write was seen before the deletion'],
    },
  ];
  const loops: Loop[] = [
    {
      namespace: 'kafka',
      kafkaCluster: 'pipeline-kafka',
      brokerId: '4',
      classification: 'external-mutation-revert',
      count: 5,
      firstAt: at('11:20:00'),
      lastAt: at('11:24:04', 400),
      periodSeconds: 61,
      fields: [
        'spec.containers[name=kafka].resources.requests.cpu',
        'spec.containers[name=fluent-bit].resources.requests.memory',
      ],
      mutators: [SCALEOPS],
      active: true,
      recommendation:
        'Exclude broker pods from the scaleops webhook (objectSelector on kafka_cr), or upgrade koperator to a release that compares intent only.',
    },
    {
      namespace: 'kafka',
      kafkaCluster: 'events-kafka',
      brokerId: '5',
      classification: 'external-mutation-revert',
      count: 3,
      firstAt: at('10:37:39', 690),
      lastAt: at('10:38:01', 690),
      periodSeconds: 11,
      fields: ['spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution'],
      mutators: [ZONES],
      active: false,
      recommendation:
        'Declare the zone anti-affinity term in the KafkaCluster spec so the webhook has nothing to add.',
    },
  ];
  // Other controllers' fights (fights.md), one of each kind, one with hostile text.
  const fights: Fight[] = [
    {
      kind: 'recreate-loop',
      namespace: 'payments-db',
      target: {
        apiGroup: 'postgresql.cnpg.io',
        resource: 'clusters',
        name: 'pg-ledger',
        slot: 'pg-ledger-2',
      },
      writers: ['system:serviceaccount:cnpg-system:cnpg-manager'],
      mutators: ['pod-identity-webhook/iam-for-pods.amazonaws.com'],
      fields: ['spec.volumes[name=aws-iam-token]', 'spec.containers[name=postgres].env[name=AWS_ROLE_ARN]'],
      count: 9,
      firstAt: at('11:05:01', 255),
      lastAt: at('11:09:00', 355),
      periodSeconds: 30,
      active: false,
      recommendation:
        'pod-identity-webhook/iam-for-pods.amazonaws.com changes env AWS_ROLE_ARN of every re-created pg-ledger-2 pod: make the webhook skip these pods.',
      evidence: ['24c21cd6-d447-4e88-8b1b-c49e6e133c6c'],
    },
    {
      kind: 'field-fight',
      namespace: 'checkout',
      target: { apiGroup: 'apps', resource: 'deployments', name: `checkout-${INJECTION}` },
      writers: [
        'system:serviceaccount:argocd:argocd-application-controller',
        'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
      ],
      mutators: [],
      fields: ['spec.replicas'],
      count: 33,
      firstAt: at('10:21:18', 263),
      lastAt: at('10:54:48', 215),
      periodSeconds: 9.4,
      active: true,
      recommendation: `add ignoreDifferences for /spec/replicas ${SCRIPT_BREAKOUT}`,
      evidence: ['9b408c66-84dd-4b7c-b6d4-71594ecb5ffc'],
    },
    {
      kind: 'hot-loop',
      namespace: 'monitoring',
      target: { apiGroup: 'apps', resource: 'statefulsets', name: 'vmstorage-longterm' },
      writers: ['system:serviceaccount:monitoring:vm-operator'],
      mutators: [],
      fields: ['spec.podManagementPolicy', 'spec.template.spec.dnsPolicy'],
      count: 30,
      firstAt: at('11:29:40'),
      lastAt: at('11:33:36', 18),
      periodSeconds: 8.2,
      active: false,
      recommendation:
        'vm-operator re-sends the StatefulSet without the defaulted fields: set them explicitly.',
      evidence: ['bae4b64b-4dbf-472c-9d39-67c69d41fd56'],
    },
  ];
  // Live drift (drift.md): a standing image tamper, an autoscaler resize reverted, a debug
  // container ended by the pod's deletion, one with hostile text.
  const drifts: Drift[] = [
    {
      namespace: 'kafka',
      kafkaCluster: 'events',
      brokerId: '0',
      pod: { name: 'events-0-xklrp', uid: '0f2879d5-c96d-497b-b203-51901f5f8d11' },
      at: at('10:40:13', 53),
      by: 'bob@corp.example',
      verb: 'patch',
      subresource: '',
      kind: 'image',
      fields: [
        {
          path: 'spec.containers[name=kafka].image',
          declared: 'ghcr.io/adobe/kafka:2.13-3.9.1',
          to: 'ghcr.io/adobe/kafka:2.13-4.0.0',
        },
      ],
      severity: 'tamper',
      ended: null,
      preFixWouldRevert: true,
      evidence: ['c5d0c0be-a6e2-4009-9d18-b69983b13b50'],
    },
    {
      namespace: 'kafka-seed',
      kafkaCluster: 'pipeline-kafka',
      brokerId: '201',
      pod: { name: 'pipeline-kafka-201-q8s7d', uid: null },
      at: at('10:12:40'),
      by: 'system:serviceaccount:kube-system:vpa-updater',
      verb: 'patch',
      subresource: 'resize',
      kind: 'resources',
      fields: [{ path: 'spec.containers[name=kafka].resources.requests.cpu', declared: '2', to: '2500m' }],
      severity: 'autoscaler',
      ended: { at: at('10:20:00'), how: 'reverted' },
      preFixWouldRevert: true,
      evidence: ['5b5e0d55-7a47-4b8c-9a55-0f1f3fb1a001', '5b5e0d55-7a47-4b8c-9a55-0f1f3fb1a002'],
    },
    {
      namespace: 'kafka',
      kafkaCluster: 'events',
      brokerId: '1',
      pod: { name: 'events-1-n7l72', uid: 'f863a499-8466-49b4-bc47-a1555b936403' },
      at: at('10:45:09', 86),
      by: `carol ${INJECTION}`,
      verb: 'update',
      subresource: 'ephemeralcontainers',
      kind: 'ephemeral-container',
      fields: [
        {
          path: 'spec.ephemeralContainers[name=debugger-65rkw]',
          declared: null,
          to: {
            name: 'debugger-65rkw',
            image: `busybox:1.36${SCRIPT_BREAKOUT}`,
            targetContainerName: 'kafka',
          },
        },
      ],
      severity: 'tamper',
      ended: { at: at('10:50:00'), how: 'pod-deleted' },
      preFixWouldRevert: false,
      evidence: ['939c7c8b-af8e-4882-981c-38403c896cc7', '939c7c8b-af8e-4882-981c-38403c896cc8'],
    },
  ];
  return {
    recreations,
    loops,
    fights,
    drifts,
    summary: {
      files: 4,
      filesSkipped: 1,
      eventsRead: 12873,
      operatorLines: 5521,
      byFormat: { 'audit-jsonl': 2, 'audit-jsonl.gz': 1, 'operator-json': 1 },
      skipped: [{ file: 'notes/README.txt', reason: 'not an audit or operator log' }],
    },
  };
}

export const FIXTURE_OPTIONS = {
  inputs: ['logs/audit/', 'logs/operator.log.gz'],
  generatedAt: '2026-11-02T12:00:00Z',
  reportUrl: 'https://reports.example.com/incident-42.html',
};

const CLASSES: Classification[] = [
  'external-mutation-revert',
  'external-mutation-revert',
  'external-mutation-revert',
  'intent-change',
  'config-change',
  'tainted-restart',
  'container-terminated',
  'external-deletion',
  'unknown',
];

/**
 * A large deterministic document: `n` recreations over 24 brokers of 3 clusters, one
 * every 7 seconds, with a loop on every fourth broker.
 */
export function buildLarge(n: number): FindingsDocument {
  const start = Date.parse('2026-11-02T00:00:00Z');
  const recreations: Recreation[] = [];
  for (let i = 0; i < n; i++) {
    const cluster = ['orders-kafka', 'events-kafka', 'pipeline-kafka'][i % 3];
    const brokerId = String(Math.floor(i / 3) % 8);
    const classification = CLASSES[i % CLASSES.length];
    const pod = `${cluster}-${brokerId}-p${String(i).padStart(5, '0')}`;
    recreations.push({
      namespace: 'kafka',
      kafkaCluster: cluster,
      brokerId,
      deletedPod: {
        name: pod,
        uid: `uid-${String(i).padStart(6, '0')}`,
        deletedAt: new Date(start + i * 7000).toISOString(),
        deletedBy: classification === 'external-deletion' ? 'ops@example.com' : OPERATOR,
      },
      createdPod: {
        name: `${pod}-n`,
        uid: `uid-${String(i).padStart(6, '0')}-n`,
        createdAt: new Date(start + i * 7000 + 2000).toISOString(),
      },
      classification,
      fields:
        classification === 'external-mutation-revert'
          ? [
              {
                path: 'spec.containers[name=kafka].resources.requests.cpu',
                from: '2',
                to: `${i % 900}m`,
                by: SCALEOPS,
              },
            ]
          : [],
      wouldRestart:
        classification === 'unknown'
          ? null
          : { threeWayMerge: true, intentDiff: classification === 'intent-change' },
      evidence: [`audit:${i}`],
    });
  }
  const loops: Loop[] = [];
  for (let b = 0; b < 24; b += 4) {
    const cluster = ['orders-kafka', 'events-kafka', 'pipeline-kafka'][b % 3];
    const brokerId = String(b % 8);
    const mine = recreations.filter((r) => r.kafkaCluster === cluster && r.brokerId === brokerId);
    if (mine.length < 3) continue;
    loops.push({
      namespace: 'kafka',
      kafkaCluster: cluster,
      brokerId,
      classification: 'external-mutation-revert',
      count: mine.length,
      firstAt: mine[0].deletedPod.deletedAt,
      lastAt: mine[mine.length - 1].deletedPod.deletedAt,
      periodSeconds: 168,
      fields: ['spec.containers[name=kafka].resources.requests.cpu'],
      mutators: [SCALEOPS],
      active: b % 8 === 0,
      recommendation: 'Exclude broker pods from the scaleops webhook.',
    });
  }
  return { recreations, loops, summary: { files: 1, eventsRead: n * 40 } };
}
