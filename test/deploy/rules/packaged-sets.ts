// The parameter sets the template checks run over, each packaged by `npm run package`
// exactly as a user would. The default set bundles; the others reuse its bundles
// (serverless-esbuild's skipBuild), since the bundles do not depend on parameters, so all
// of them cost one bundling; and every set is packaged at most once for a tree, shared
// with the other deploy suites (../package-cache.ts).
import { inputsHash, packaged } from '../package-cache';
import type { Template } from './template';

export interface ParameterSet {
  name: string;
  stage: string;
  params: Record<string, string>;
}

export const KMS_KEY = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
export const WEBHOOK_KEY = 'arn:aws:kms:us-east-1:123456789012:key/abcd1234-ab12-cd34-ef56-abcdef123456';

/** The name of the bucket the stack creates, as the template builds it: <service>-<stage>-<12 hex digits of the stack id>. */
export const CREATED_BUCKET_NAME = {
  'Fn::Join': [
    '-',
    [
      'koperator-audit',
      'test',
      {
        'Fn::Select': [
          4,
          { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
        ],
      },
    ],
  ],
};

export const EKS_TWO = 'prod-eu,prod_us';

/** `n` cluster names as a fleet would have them, of a realistic length (eks-<region>-<team>-NNN). */
export function eksClusterNames(n: number): string {
  return Array.from({ length: n }, (_, i) => `eks-eu-west-1-team-kafka-${String(i).padStart(4, '0')}`).join(
    ',',
  );
}

/**
 * The fleet the deploy checks package (issue 27: 200 clusters in one stack within every
 * limit). The most one stack takes is MAX_EKS_CLUSTERS (lib/deploy/stack-limits.ts;
 * test/deploy/stack-limits.test.ts shows one more refused).
 */
export const EKS_LARGEST_FLEET = 200;

export const PARAMETER_SETS: readonly ParameterSet[] = [
  { name: 'default', stage: 'test', params: {} },
  { name: 'existing bucket', stage: 'test', params: { existingBucketName: 'acme-eks-audit-logs' } },
  { name: 'KMS', stage: 'test', params: { kmsKeyArn: KMS_KEY, slackWebhookKmsKeyArn: WEBHOOK_KEY } },
  { name: 'EventBridge', stage: 'test', params: { eventBridge: 'true' } },
  // No Slack notifier: nothing that exists only for it (infra/slack.cjs).
  { name: 'no Slack', stage: 'test', params: { slackWebhookParameter: 'none' } },
  // 31 characters: the longest stage infra/names.cjs admits.
  { name: 'long stage', stage: 'production-eu-west-1-team-kafka', params: {} },
  { name: 'hyphenated stage', stage: 'team-a-prod', params: {} },
  // Pre-signed links: no report-link function, no link secret.
  { name: 'presigned links', stage: 'test', params: { reportLink: 'presigned' } },
  {
    name: 'links under a base URL',
    stage: 'test',
    params: { reportLink: 'url', reportBaseUrl: 'https://reports.example.com/' },
  },
  // The set eks-package.test.ts reads too: one packaging for both.
  { name: 'EKS, 2 clusters', stage: 'test', params: { eksClusters: EKS_TWO, reservedConcurrency: 'true' } },
  { name: 'EKS, 20 clusters', stage: 'test', params: { eksClusters: eksClusterNames(20) } },
  {
    name: 'EKS, a fleet of 200',
    stage: 'test',
    params: { eksClusters: eksClusterNames(EKS_LARGEST_FLEET) },
  },
  {
    name: 'EKS with KMS',
    stage: 'test',
    // Operator logs from Container Insights' default groups (eksOperatorLogs).
    params: {
      eksClusters: EKS_TWO,
      eksOperatorLogs: 'containerinsights',
      kmsKeyArn: KMS_KEY,
      slackWebhookKmsKeyArn: WEBHOOK_KEY,
    },
  },
  // The stack keeps the existing bucket's policy too (existingBucketPolicy=true), under its key.
  {
    name: 'EKS on an existing bucket',
    stage: 'test',
    params: {
      eksClusters: EKS_TWO,
      // One cluster's operator logs in a group its own Fluent Bit writes.
      eksOperatorLogs: 'prod_us=/fluent-bit/prod_us/kafka-operator',
      existingBucketName: 'acme-eks-audit-logs',
      existingBucketPolicy: 'true',
      kmsKeyArn: KMS_KEY,
    },
  },
];

export interface Packaged {
  set: ParameterSet;
  template: Template;
}

/** Every set packaged (test/deploy/package-cache.ts: each at most once per tree, shared between suites). */
export async function packageAll(sets: readonly ParameterSet[] = PARAMETER_SETS): Promise<Packaged[]> {
  const inputs = inputsHash();
  const out: Packaged[] = [];
  // One after another: osls runs take turns through the checkout's lock anyway.
  for (const set of sets) out.push({ set, template: (await packaged(set, { inputs })).template as Template });
  return out;
}
