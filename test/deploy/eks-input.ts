// The EKS shipping template's input as the deploy tests build it (lib/deploy/eks-shipping.ts):
// one default, each test overriding what it is about.
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import type { EksShippingInput } from '../../lib/deploy/eks-shipping';

export function eksInput(clusters: string, extra: Partial<EksShippingInput> = {}): EksShippingInput {
  return {
    service: 'koperator-audit',
    stage: 'prod',
    clusters: parseEksClusters(clusters),
    bucket: { Ref: 'LogsBucket' },
    logsPrefix: 'logs/',
    bufferIntervalSeconds: 60,
    bufferSizeMiB: 5,
    filterPattern: '{ $.verb != "get" }',
    silenceHours: 6,
    alarmActions: [{ Ref: 'AlarmTopic' }],
    kmsCondition: 'UseKms',
    kmsKeyArn: '',
    logGroupsFunction: 'EksLogGroupsLambdaFunction',
    statePrefix: 'state/',
    bucketPolicyCondition: 'PolicyOnExistingBucket',
    errorLogRetentionDays: 30,
    logGroupRetentionDays: 14,
    ...extra,
  };
}
