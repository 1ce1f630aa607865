// The EKS cluster ARN an alert names: the one eksClusterArns gives, else, when the stack
// ships EKS clusters (eksClusters), derived from the stack's account and region and the
// cluster's name, so the analysis environment stays the same size for any fleet.
import { eksClusterArnOf } from '../../lib/aws/alert-sinks';
import { analyzeConfigFromEnv } from '../../lib/aws/env-config';

const PREFIX = 'arn:aws:eks:eu-west-1:123456789012:cluster/';

describe('eksClusterArnOf', () => {
  it.each<[string, Parameters<typeof eksClusterArnOf>[0], string, string | undefined]>([
    [
      'given',
      { eksClusterArns: { prod: 'arn:aws:eks:us-east-1:210987654321:cluster/p' } },
      'prod',
      'arn:aws:eks:us-east-1:210987654321:cluster/p',
    ],
    [
      'given wins over derived',
      { eksClusterArns: { prod: `${PREFIX}other` }, eksClusterArnPrefix: PREFIX },
      'prod',
      `${PREFIX}other`,
    ],
    [
      'derived',
      { eksClusterArns: {}, eksClusterArnPrefix: PREFIX },
      'eks-eu-west-1-team-kafka-0199',
      `${PREFIX}eks-eu-west-1-team-kafka-0199`,
    ],
    ['not an EKS name: none', { eksClusterArnPrefix: PREFIX }, 'on-prem.dc1', undefined],
    ['no prefix (no eksClusters): none', { eksClusterArns: {} }, 'prod', undefined],
  ])('%s', (_, config, cluster, arn) => {
    expect(eksClusterArnOf(config, cluster)).toBe(arn);
  });

  it('reads the prefix from the environment', () => {
    expect(
      analyzeConfigFromEnv({ BUCKET: 'b', TOPIC_ARN: 't', EKS_CLUSTER_ARN_PREFIX: PREFIX })
        .eksClusterArnPrefix,
    ).toBe(PREFIX);
    expect(analyzeConfigFromEnv({ BUCKET: 'b', TOPIC_ARN: 't' }).eksClusterArnPrefix).toBe('');
  });
});
