// Hand-built alert events for the notify tests.
import type { LoopAlert, RecreationAlert } from '../../lib/alerts/types';
import type { Loop, Recreation } from '../../lib/model/findings';

export const recreation: Recreation = {
  namespace: 'kafka',
  kafkaCluster: 'pipeline-kafka',
  brokerId: '4',
  deletedPod: {
    name: 'pipeline-kafka-4-x7k2p',
    uid: 'u-4',
    deletedAt: '2026-11-02T10:40:14.691760Z',
    deletedBy: 'system:serviceaccount:kafka:kafka-operator',
  },
  createdPod: { name: 'pipeline-kafka-4-q9z8w', uid: 'u-5', createdAt: '2026-11-02T10:40:16.100000Z' },
  classification: 'external-mutation-revert',
  fields: [
    {
      path: 'spec.containers[name=kafka].resources.requests.cpu',
      from: '2',
      to: '1200m',
      by: 'scaleops-mutating-webhook-configuration/pods.scaleops.sh',
    },
    {
      path: 'spec.containers[name=fluent-bit].resources.requests.memory',
      from: '128Mi',
      to: '96Mi',
      by: 'scaleops-mutating-webhook-configuration/pods.scaleops.sh',
    },
  ],
  wouldRestart: { threeWayMerge: true, intentDiff: false },
  evidence: ['a1', 'a2'],
};

export const loop: Loop = {
  namespace: 'kafka',
  kafkaCluster: 'pipeline-kafka',
  brokerId: '4',
  classification: 'external-mutation-revert',
  count: 12,
  firstAt: '2026-11-02T10:38:28.770183Z',
  lastAt: '2026-11-02T10:40:14.691760Z',
  periodSeconds: 9.6,
  fields: [
    'spec.containers[name=kafka].resources.requests.cpu',
    'spec.containers[name=fluent-bit].resources.requests.memory',
  ],
  mutators: ['scaleops-mutating-webhook-configuration/pods.scaleops.sh'],
  active: true,
  recommendation:
    'Exclude the kafka namespace from the ScaleOps webhook, or set these requests in the KafkaCluster.',
};

export const loopEvent: LoopAlert = {
  kind: 'loop',
  event: 'loop-started',
  id: 'id-loop',
  cluster: 'eks-prod',
  threadId: 'koperator-audit-thread-loop',
  loop,
  totalCount: 12,
  latest: recreation,
};
export const recreationEvent: RecreationAlert = {
  kind: 'recreation',
  event: 'recreation',
  id: 'id-rec',
  cluster: 'eks-prod',
  recreation,
};
export const ctx = {
  window: { from: '2026-11-02T05:31:00.000Z', to: '2026-11-02T11:31:00.000Z' },
  report: {
    uri: 's3://b/reports/cluster=eks-prod/r.json',
    url: 'https://b.s3.eu-west-1.amazonaws.com/reports/cluster%3Deks-prod/r.json?X-Amz-Expires=86400',
    expiresAt: '2026-11-03T11:31:00.000Z',
    // Signed in Lambda: temporary credentials whose end the function is not told.
    expiry: 'at-most' as const,
  },
};
