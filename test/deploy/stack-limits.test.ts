// AWS's static limits (lib/deploy/stack-limits.ts) on templates and params: each limit met
// at its edge, each one broken naming the parameter, and deploy-time values counted at
// their longest.
import { eksInput } from './eks-input';
import { eksShippingTemplate } from '../../lib/deploy/eks-shipping';
import {
  concurrencyProblems,
  environmentBytes,
  longestValue,
  MAX_EKS_CLUSTERS,
  MAX_ENVIRONMENT_BYTES,
  MAX_TEMPLATE_BYTES,
  retentionProblems,
  tracingProblems,
  rolePolicyCharacters,
  templateLimitProblems,
  type ConcurrencyParams,
  type LimitsTemplate,
} from '../../lib/deploy/stack-limits';
import { CREATED_BUCKET_NAME, EKS_LARGEST_FLEET, eksClusterNames } from './rules/packaged-sets';

const ctx = { envParams: { EKS_CLUSTER_ARNS: 'eksClusterArns', LOOKBACK: 'lookback' } };

function withResources(n: number, clusters = ''): LimitsTemplate {
  const Resources: LimitsTemplate['Resources'] = {};
  for (let i = 0; i < n; i++) Resources[`Queue${i}`] = { Type: 'AWS::SQS::Queue' };
  return { Resources, Outputs: clusters ? { EksClusters: { Value: clusters } } : {} };
}

function withFunction(variables: Record<string, unknown>): LimitsTemplate {
  return {
    Resources: {
      AnalyzeLambdaFunction: {
        Type: 'AWS::Lambda::Function',
        Properties: { Environment: { Variables: variables as never } },
      },
    },
  };
}

describe('longestValue', () => {
  it.each<[string, unknown, number]>([
    ['a literal', 'abc', 3],
    ['a pseudo parameter at its longest', { Ref: 'AWS::Region' }, 14],
    [
      'a part of the stack id, as the bucket name takes it',
      {
        'Fn::Select': [
          4,
          { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
        ],
      },
      12,
    ],
    ['a resource reference at its bound', { Ref: 'AnalysisQueue' }, 128],
    ['the longer branch of Fn::If', { 'Fn::If': ['C', 'ab', 'abcdef'] }, 6],
    [
      'Fn::Sub of pseudo parameters',
      { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::b' },
      'arn::s3:::b'.length + 10,
    ],
    ['Fn::Join of parts', { 'Fn::Join': ['-', ['a', { Ref: 'AWS::AccountId' }]] }, 14],
  ])('%s', (_, v, length) => {
    expect(String(longestValue(v as never)).length).toBe(length);
  });
});

describe('templateLimitProblems', () => {
  it.each<[string, LimitsTemplate, RegExp | null]>([
    ['500 resources', withResources(500, 'a'), null],
    [
      '501 resources, naming eksClusters',
      withResources(501, 'a,b,c'),
      /^eksClusters: 3 clusters make 501 resources, over CloudFormation's 500/,
    ],
    ['an environment of 4,096 B', withFunction({ LOOKBACK: 'x'.repeat(MAX_ENVIRONMENT_BYTES - 8) }), null],
    [
      'an environment of 4,097 B, naming the param that fills it',
      withFunction({ LOOKBACK: '6h', EKS_CLUSTER_ARNS: 'x'.repeat(MAX_ENVIRONMENT_BYTES) }),
      /^eksClusterArns \(EKS_CLUSTER_ARNS, 4112 B\), lookback \(LOOKBACK, 10 B\): AnalyzeLambdaFunction's environment could reach 4122 B, over Lambda's 4096 B/,
    ],
    [
      'an environment whose references could fill it',
      withFunction(Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`Q${i}`, { Ref: `Queue${i}` }]))),
      /environment could reach \d+ B, over Lambda's 4096 B/,
    ],
  ])('%s', (_, t, expected) => {
    const found = templateLimitProblems(t, ctx);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });

  it('counts a role’s inline policies without white space, at their longest, and names eksClusters past IAM’s 10,240', () => {
    const policy = (resources: unknown[]) => [
      { PolicyName: 'p', PolicyDocument: { Statement: [{ Effect: 'Allow', Resource: resources }] } },
    ];
    expect(rolePolicyCharacters(policy(['a b']) as never)).toBe(
      '{"Statement":[{"Effect":"Allow","Resource":["ab"]}]}'.length,
    );
    const big = {
      Resources: {
        EksLogsRole: {
          Type: 'AWS::IAM::Role',
          Properties: {
            Policies: policy(Array.from({ length: 80 }, (_, i) => ({ 'Fn::GetAtt': [`S${i}`, 'Arn'] }))),
          },
        },
      },
      Outputs: { EksClusters: { Value: 'a,b' } },
    } as unknown as LimitsTemplate;
    expect(templateLimitProblems(big, ctx)).toEqual([
      expect.stringMatching(
        /^eksClusters: EksLogsRole's inline policies could reach \d+ characters, over IAM's 10240 per role/,
      ),
    ]);
  });

  it('refuses a template over CloudFormation’s 1,048,576 bytes in S3, naming eksClusters when it lists clusters', () => {
    const t = withResources(2, 'a,b');
    t.Resources.Queue0!.Properties = { Tags: [{ Key: 'k', Value: 'x'.repeat(MAX_TEMPLATE_BYTES) }] };
    expect(templateLimitProblems(t, ctx)).toEqual([
      expect.stringMatching(
        /^eksClusters: the template is \d+ bytes, over CloudFormation's 1048576 for a template in S3: list fewer clusters/,
      ),
    ]);
    const small = withResources(2, 'a,b');
    small.Resources.Queue0!.Properties = {
      Tags: [{ Key: 'k', Value: 'x'.repeat(MAX_TEMPLATE_BYTES - 500) }],
    };
    expect(templateLimitProblems(small, ctx)).toEqual([]);
  });

  // The packaged set 'EKS, a fleet of 200' holds EKS_LARGEST_FLEET clusters; the shipping
  // template alone, at the largest fleet the custom resource subscribes in time and one more.
  it.each<[number, RegExp | null]>([
    [EKS_LARGEST_FLEET, null],
    [MAX_EKS_CLUSTERS, null],
    [
      MAX_EKS_CLUSTERS + 1,
      /^eksClusters: 691 clusters, over the 690 one stack subscribes within its custom resource's 900 s/,
    ],
  ])('holds the shipping template of %i clusters to the limits', (n, expected) => {
    const bucket = CREATED_BUCKET_NAME;
    const t = eksShippingTemplate(
      eksInput(eksClusterNames(n), { stage: 'test', bucket, alarmActions: [], logGroupRetentionDays: 30 }),
    ) as unknown as LimitsTemplate;
    const found = templateLimitProblems(t, ctx);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });
});

describe('environmentBytes', () => {
  it('counts names and values in bytes', () => {
    expect(environmentBytes({ AB: 'é' })).toBe(4);
  });
});

describe('concurrencyProblems', () => {
  const base: ConcurrencyParams = {
    analyzeConcurrency: '10',
    ingestMaxConcurrency: '10',
    ingestReservedConcurrency: '12',
    reservedConcurrency: 'false',
  };
  it.each<[string, Partial<ConcurrencyParams>, RegExp | null]>([
    ['the defaults', {}, null],
    ['the range’s edges', { analyzeConcurrency: '2', ingestMaxConcurrency: '1000' }, null],
    [
      'analyzeConcurrency of 1',
      { analyzeConcurrency: '1' },
      /^analyzeConcurrency must be a whole number from 2 to 1000/,
    ],
    [
      'ingestMaxConcurrency of 1001',
      { ingestMaxConcurrency: '1001' },
      /^ingestMaxConcurrency must be a whole number from 2 to 1000/,
    ],
    ['a fraction', { ingestMaxConcurrency: '2.5' }, /^ingestMaxConcurrency must be a whole number/],
    ['more pollers than the reservation, unreserved', { ingestMaxConcurrency: '20' }, null],
    [
      'more pollers than the reservation, reserved',
      { ingestMaxConcurrency: '20', reservedConcurrency: 'true' },
      /^ingestMaxConcurrency \(20\) must not exceed ingestReservedConcurrency \(12\) when reservedConcurrency is true/,
    ],
    ['as many pollers as the reservation', { ingestMaxConcurrency: '12', reservedConcurrency: 'true' }, null],
  ])('%s', (_, change, expected) => {
    const found = concurrencyProblems({ ...base, ...change });
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });
});

describe('retentionProblems', () => {
  it.each<[string, string, RegExp | null]>([
    ['90', '30', null],
    ['30', '30', null],
    ['29', '30', /^rawLogsRetentionDays \(29\) must be at least factsRetentionDays \(30\)/],
    ['0', '30', /^rawLogsRetentionDays must be a whole number of days/],
  ])('raw logs %s days, facts %s', (raw, facts, expected) => {
    const found = retentionProblems({ rawLogsRetentionDays: raw, factsRetentionDays: facts });
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });
});

describe('tracingProblems', () => {
  it.each<[string, RegExp | null]>([
    ['Active', null],
    ['PassThrough', null],
    ['true', /^tracing must be Active or PassThrough \(Lambda's TracingConfig mode\), got "true"/],
    ['active', /^tracing must be Active or PassThrough/],
  ])('%s', (tracing, expected) => {
    const found = tracingProblems({ tracing });
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(expected)]);
  });
});
