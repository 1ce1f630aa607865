// The eksOperatorLogs param (lib/deploy/eks-operator-logs.ts) and what it adds to the EKS
// resources: the operator groups on the same custom resource with their own pattern, the
// custom resource's role allowed exactly the filter calls on them, nothing per cluster.
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import { parseEksOperatorLogs, namedOperatorLogGroups } from '../../lib/deploy/eks-operator-logs';
import { eksShippingTemplate } from '../../lib/deploy/eks-shipping';
import { eksInput } from './eks-input';
import {
  operatorLogFilterPattern,
  patternMatches,
  renderPattern,
} from '../../lib/ingest/subscription-filter';

const clusters = parseEksClusters('prod-eu,prod_us,batch');

describe('parseEksOperatorLogs', () => {
  it.each<[string, [string, string][]]>([
    ['', []],
    [
      'containerinsights',
      [
        ['prod-eu', '/aws/containerinsights/prod-eu/application'],
        ['prod_us', '/aws/containerinsights/prod_us/application'],
        ['batch', '/aws/containerinsights/batch/application'],
      ],
    ],
    ['prod_us=/fluent-bit/prod_us/op', [['prod_us', '/fluent-bit/prod_us/op']]],
    [
      'containerinsights, batch=/fluent-bit/batch',
      [
        ['prod-eu', '/aws/containerinsights/prod-eu/application'],
        ['prod_us', '/aws/containerinsights/prod_us/application'],
        ['batch', '/fluent-bit/batch'],
      ],
    ],
  ])('%j', (param, want) => {
    expect(parseEksOperatorLogs(param, clusters).map((g) => [g.cluster, g.logGroupName])).toEqual(want);
  });

  it.each([
    ['staging=/x', /"staging" is not in eksClusters/],
    ['prod-eu=/aws/eks/prod-eu/cluster', /is an EKS control-plane log group/],
    ['prod-eu=bad name', /is not a log group name/],
    ['prod-eu=/a,prod-eu=/b', /"prod-eu" is given twice/],
    ['prod-eu=/a,batch=/a', /"\/a" is given for both prod-eu and batch/],
    ['prod-eu', /is neither containerinsights nor <cluster>=<log group>/],
  ])('refuses %j', (param, message) => {
    expect(() => parseEksOperatorLogs(param, clusters)).toThrow(message);
  });

  it('gives the ingest the named groups only: Container Insights’ groups name their cluster', () => {
    expect([...namedOperatorLogGroups('containerinsights,batch=/fluent-bit/batch')]).toEqual([
      ['/fluent-bit/batch', 'batch'],
    ]);
  });
});

describe('operatorLogFilterPattern', () => {
  const pattern = operatorLogFilterPattern();
  const record = (image: string) => ({
    log: '{}',
    kubernetes: { container_name: 'manager', container_image: image },
  });

  it('renders one regex, within CloudWatch’s character set', () => {
    expect(renderPattern(pattern)).toBe(
      '{ $.kubernetes.container_image = %kafka-operator|koperator|nifikop% }',
    );
  });

  it.each([
    ['ghcr.io/banzaicloud/kafka-operator:v0.25.1', true],
    ['ghcr.io/adobe/koperator:0.28.0-adobe-20250923', true],
    ['123456789012.dkr.ecr.eu-west-1.amazonaws.com/mirror/kafka-operator:v0.25.1', true],
    ['ghcr.io/konpyutaika/docker-images/nifikop:v1.17.0-release', true],
    ['nginx:1.27', false],
    ['ghcr.io/adobe/kafka-cruise-control:2.5', false],
  ])('%s passes: %s', (image, passes) => {
    expect(patternMatches(pattern, record(image), 'absent-fails')).toBe(passes);
  });

  it('drops a record without the kubernetes metadata', () => {
    expect(patternMatches(pattern, { log: 'x' }, 'absent-matches')).toBe(false);
  });

  it('refuses a regex CloudWatch would not take', () => {
    expect(() => renderPattern({ op: '=~', field: '$.a', regex: 'a(b)' })).toThrow(/does not take/);
  });
});

describe('the EKS resources with operator logs', () => {
  const base = eksInput('prod-eu,prod_us,batch', { alarmActions: [] });
  const statement = (t: ReturnType<typeof eksShippingTemplate>, sid: string) =>
    (
      (
        t.Resources.EksLogGroupsRole!.Properties as {
          Policies: { PolicyDocument: { Statement: { Sid?: string }[] } }[];
        }
      ).Policies[0]!.PolicyDocument.Statement as Record<string, unknown>[]
    ).find((s) => s.Sid === sid);

  it('without the param: no operator property, no statement (stacks before it stay as they were)', () => {
    const t = eksShippingTemplate(base);
    expect(t.Resources.EksSubscriptions!.Properties).not.toHaveProperty('OperatorLogGroupNames');
    expect(statement(t, 'SubscribeOperatorLogGroups')).toBeUndefined();
  });

  it('with it: the groups and their pattern on the one custom resource, the role allowed only filter calls on them', () => {
    const operatorLogGroups = parseEksOperatorLogs('containerinsights,batch=/fluent-bit/batch', clusters);
    const without = eksShippingTemplate(base);
    const t = eksShippingTemplate({
      ...base,
      operatorLogGroups,
      operatorFilterPattern: renderPattern(operatorLogFilterPattern()),
    });
    expect(Object.keys(t.Resources).sort()).toEqual(Object.keys(without.Resources).sort());
    expect(t.Resources.EksSubscriptions!.Properties).toMatchObject({
      OperatorLogGroupNames: operatorLogGroups.map((g) => g.logGroupName),
      OperatorFilterPattern: '{ $.kubernetes.container_image = %kafka-operator|koperator|nifikop% }',
    });
    expect(statement(t, 'SubscribeOperatorLogGroups')).toEqual({
      Sid: 'SubscribeOperatorLogGroups',
      Effect: 'Allow',
      Action: [
        'logs:DescribeSubscriptionFilters',
        'logs:PutSubscriptionFilter',
        'logs:DeleteSubscriptionFilter',
      ],
      Resource: [
        {
          'Fn::Sub':
            'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/containerinsights/*/application:*',
        },
        {
          'Fn::Sub':
            'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/fluent-bit/batch:*',
        },
      ],
    });
    expect(t.Outputs.EksOperatorLogGroups!.Value).toBe(
      'prod-eu=/aws/containerinsights/prod-eu/application,prod_us=/aws/containerinsights/prod_us/application,batch=/fluent-bit/batch',
    );
  });
});
