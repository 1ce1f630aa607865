// The eksClusters param and the resources it becomes (lib/deploy): names EKS accepts, names
// that stay stable and apart, one delivery stream for the fleet, a custom resource that
// subscribes every listed log group, an alarm per nine clusters; roles that reach exactly
// the fleet's prefix, its stream and EKS control-plane log groups.
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import { eksInput } from './eks-input';
import { CLUSTERS_PER_ALARM, deliveryErrorLog, eksShippingTemplate } from '../../lib/deploy/eks-shipping';

type Json = Record<string, unknown>;

const input = eksInput;

const props = (r: unknown): Json => (r as { Properties: Json }).Properties;
const text = (v: unknown): string => JSON.stringify(v);

describe('parseEksClusters', () => {
  it.each([
    ['', []],
    [' , ', []],
    ['prod', ['prod']],
    ['prod-eu, prod_us ,dev1', ['prod-eu', 'prod_us', 'dev1']],
  ])('%j lists %j', (param, names) => {
    expect(parseEksClusters(param).map((c) => c.name)).toEqual(names);
  });

  it.each([
    ['-prod', /not an EKS cluster name/],
    ['prod.eu', /not an EKS cluster name/],
    ['a/b', /not an EKS cluster name/],
    ['x'.repeat(101), /not an EKS cluster name/],
    ['prod,prod', /listed twice/],
  ])('refuses %j', (param, message) => {
    expect(() => parseEksClusters(param)).toThrow(message);
  });

  it('names every cluster’s log group and keeps logical ids apart for names differing in - or _', () => {
    const [a, b, c] = parseEksClusters('prod-eu,prod_eu,prodeu');
    expect(a!.logGroupName).toBe('/aws/eks/prod-eu/cluster');
    expect(new Set([a!.logicalId, b!.logicalId, c!.logicalId]).size).toBe(3);
    for (const x of [a!, b!, c!]) expect(x.logicalId).toMatch(/^Eks[A-Za-z0-9]+$/);
    // Stable: the same name always gives the same id, whatever else is listed.
    expect(parseEksClusters('zzz,prod-eu')[1]!.logicalId).toBe(a!.logicalId);
  });
});

describe('eksShippingTemplate', () => {
  const names = Array.from({ length: 10 }, (_, i) => `eks-${i}`);
  const t = eksShippingTemplate(input(names.join(',')));
  const ofType = (type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);

  it('onboards ten clusters from one parameter: one stream, one custom resource, an alarm per nine clusters', () => {
    expect(ofType('AWS::KinesisFirehose::DeliveryStream').map(([id]) => id)).toEqual(['EksDeliveryStream']);
    expect(ofType('AWS::Logs::SubscriptionFilter')).toEqual([]);
    // Two logs-stopped alarms (nine and one clusters), delivery stuck, throttled, delivery errors.
    expect(
      ofType('AWS::CloudWatch::Alarm')
        .map(([id]) => id)
        .sort(),
    ).toEqual([
      'EksDeliveryErrorAlarm',
      'EksDeliveryStuckAlarm',
      'EksLogsStoppedAlarm1',
      'EksLogsStoppedAlarm2',
      'EksThrottledAlarm',
    ]);
    // Two roles shared by all clusters, plus the custom resource function's.
    expect(
      ofType('AWS::IAM::Role')
        .map(([id]) => id)
        .sort(),
    ).toEqual(['EksFirehoseRole', 'EksLogGroupsRole', 'EksLogsRole']);
    expect(props(t.Resources.EksSubscriptions)).toEqual({
      ServiceToken: { 'Fn::GetAtt': ['EksLogGroupsLambdaFunction', 'Arn'] },
      LogGroupNames: names.map((n) => `/aws/eks/${n}/cluster`),
      FilterName: 'koperator-audit-prod-eks',
      LegacyFilterName: 'koperator-audit-prod',
      FilterPattern: '{ $.verb != "get" }',
      DestinationArn: { 'Fn::GetAtt': ['EksDeliveryStream', 'Arn'] },
      RoleArn: { 'Fn::GetAtt': ['EksLogsRole', 'Arn'] },
      RetentionInDays: 14,
    });
    expect(t.Resources.EksSubscriptions!.Type).toBe('Custom::EksSubscriptions');
    expect(t.Outputs.EksClusters!.Value).toBe(names.join(','));
  });

  it('writes every cluster under logs/_eks/ (each record names its log group), and alarms per nine clusters', () => {
    const s3 = props(t.Resources.EksDeliveryStream).ExtendedS3DestinationConfiguration as Json;
    expect(props(t.Resources.EksDeliveryStream).DeliveryStreamName).toBe('koperator-audit-prod-eks');
    expect(s3.Prefix).toBe('logs/_eks/');
    expect(s3.ErrorOutputPrefix).toBe('firehose-errors/_eks/!{firehose:error-output-type}/');
    expect(s3.BufferingHints).toEqual({ IntervalInSeconds: 60, SizeInMBs: 5 });
    expect(s3.CompressionFormat).toBe('UNCOMPRESSED');
    const clusters = parseEksClusters(names.join(','));
    for (const [i, c] of clusters.entries()) {
      const stopped = props(t.Resources[`EksLogsStoppedAlarm${Math.floor(i / CLUSTERS_PER_ALARM) + 1}`]);
      expect(text(stopped.Metrics)).toContain(`"Value":"/aws/eks/${c.name}/cluster"`);
      expect(stopped.AlarmDescription).toContain(c.name);
    }
    const first = props(t.Resources.EksLogsStoppedAlarm1);
    // CloudWatch's limit: at most 10 metrics per alarm (nine log groups and the stream).
    const metrics = first.Metrics as Json[];
    expect(metrics.filter((m) => m.MetricStat !== undefined)).toHaveLength(10);
    expect(metrics.find((m) => m.ReturnData === true)!.Expression).toBe(
      `IF(MIN([${Array.from({ length: 9 }, (_, i) => `FILL(g${i}, 0)`).join(', ')}]) == 0 OR FILL(delivered, 0) == 0, 1, 0)`,
    );
    // One period of eksSilenceHours: the same cluster silent the whole time.
    expect((metrics[0]!.MetricStat as Json).Period).toBe(6 * 3600);
    expect(first).toMatchObject({
      TreatMissingData: 'breaching',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
    });
    expect(first.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
    // Points where S3 delivery errors are, not at the error prefix they never reach.
    const stuck = props(t.Resources.EksDeliveryStuckAlarm).AlarmDescription as string;
    expect(stuck).toContain('retries for 24 h, then drops them');
    expect(stuck).toContain('EksFirehoseRole');
    expect(stuck).toMatch(/S3 delivery failures are not written under firehose-errors\/_eks\//);
    expect(props(t.Resources.EksThrottledAlarm)).toMatchObject({ MetricName: 'ThrottledRecords' });
  });

  it('lets Firehose write only the fleet’s prefix and its error prefix, CloudWatch Logs put only into the stream, and the custom resource pass only that role', () => {
    const fh = (
      props(t.Resources.EksFirehoseRole).Policies as { PolicyDocument: { Statement: Json[] } }[]
    )[0]!.PolicyDocument.Statement;
    const write = fh.find((s) => s.Sid === 'WriteClusterLogs')!;
    const resources = (write.Resource as Json[]).map((r) => (r['Fn::Sub'] as [string])[0]);
    expect(resources).toEqual([
      'arn:${AWS::Partition}:s3:::${B}/logs/_eks/*',
      'arn:${AWS::Partition}:s3:::${B}/firehose-errors/_eks/*',
    ]);
    const trust = text(props(t.Resources.EksFirehoseRole).AssumeRolePolicyDocument);
    expect(trust).toContain('sts:ExternalId');
    const logs = (props(t.Resources.EksLogsRole).Policies as { PolicyDocument: { Statement: Json[] } }[])[0]!
      .PolicyDocument.Statement[0]!;
    expect(logs.Action).toEqual(['firehose:PutRecord', 'firehose:PutRecordBatch']);
    expect(logs.Resource).toEqual({ 'Fn::GetAtt': ['EksDeliveryStream', 'Arn'] });
    const lg = (
      props(t.Resources.EksLogGroupsRole).Policies as { PolicyDocument: { Statement: Json[] } }[]
    )[0]!.PolicyDocument.Statement;
    expect(lg.find((s) => s.Sid === 'PrepareAndSubscribeEksLogGroups')).toMatchObject({
      Action: [
        'logs:CreateLogGroup',
        'logs:PutRetentionPolicy',
        'logs:DescribeSubscriptionFilters',
        'logs:PutSubscriptionFilter',
        'logs:DeleteSubscriptionFilter',
      ],
      Resource: {
        'Fn::Sub':
          'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/eks/*/cluster:*',
      },
    });
    expect(lg.find((s) => s.Sid === 'PassLogsRole')).toEqual({
      Sid: 'PassLogsRole',
      Effect: 'Allow',
      Action: ['iam:PassRole'],
      Resource: { 'Fn::GetAtt': ['EksLogsRole', 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'logs.amazonaws.com' } },
    });
  });

  it('logs every stream’s delivery errors to one log group and stream the stack creates, kept logRetentionDays', () => {
    const log = deliveryErrorLog('koperator-audit', 'prod');
    expect(log).toEqual({ group: '/aws/kinesisfirehose/koperator-audit-prod-eks', stream: 'S3Delivery' });
    expect(ofType('AWS::Logs::LogGroup').map(([id]) => id)).toEqual(['EksDeliveryErrorLogGroup']);
    expect(props(t.Resources.EksDeliveryErrorLogGroup)).toEqual({
      LogGroupName: log.group,
      RetentionInDays: 30,
    });
    expect(ofType('AWS::Logs::LogStream').map(([id]) => id)).toEqual(['EksDeliveryErrorLogStream']);
    expect(props(t.Resources.EksDeliveryErrorLogStream).LogStreamName).toBe(log.stream);
    for (const [id, r] of ofType('AWS::KinesisFirehose::DeliveryStream')) {
      expect([id, (props(r).ExtendedS3DestinationConfiguration as Json).CloudWatchLoggingOptions]).toEqual([
        id,
        {
          Enabled: true,
          LogGroupName: { Ref: 'EksDeliveryErrorLogGroup' },
          LogStreamName: { Ref: 'EksDeliveryErrorLogStream' },
        },
      ]);
      expect(r.DependsOn).toEqual(['EksDeliveryErrorLogStream']);
    }
    // Firehose may put into exactly that log stream, named as CloudWatch Logs' authorization reference writes it.
    const fh = (
      props(t.Resources.EksFirehoseRole).Policies as { PolicyDocument: { Statement: Json[] } }[]
    )[0]!.PolicyDocument.Statement;
    expect(fh.find((s) => s.Sid === 'LogDeliveryErrors')).toEqual({
      Sid: 'LogDeliveryErrors',
      Effect: 'Allow',
      Action: ['logs:PutLogEvents'],
      Resource: {
        'Fn::Sub':
          'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/kinesisfirehose/koperator-audit-prod-eks:log-stream:S3Delivery',
      },
    });
  });

  it('alarms once on any delivery error, saying where the errors are and that Firehose drops them after 24 h', () => {
    const filter = props(t.Resources.EksDeliveryErrorMetricFilter);
    expect(filter.LogGroupName).toEqual({ Ref: 'EksDeliveryErrorLogGroup' });
    expect(filter.FilterPattern).toBe('');
    const alarm = props(t.Resources.EksDeliveryErrorAlarm);
    const metric = (filter.MetricTransformations as Json[])[0]!;
    expect([alarm.Namespace, alarm.MetricName]).toEqual([metric.MetricNamespace, metric.MetricName]);
    expect(alarm).toMatchObject({
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(alarm.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
    const why = alarm.AlarmDescription as string;
    expect(why).toContain('log group /aws/kinesisfirehose/koperator-audit-prod-eks');
    expect(why).toContain('retried for 24 h and then dropped');
  });

  it('grows by one alarm per nine clusters: 200 clusters are 34 resources, not 866', () => {
    const fleet = (n: number) =>
      Object.keys(
        eksShippingTemplate(input(Array.from({ length: n }, (_, i) => `eks-${i}`).join(','))).Resources,
      ).length;
    expect(fleet(9)).toBe(12);
    expect(fleet(10)).toBe(13);
    expect(fleet(200)).toBe(11 + Math.ceil(200 / 9));
  });

  it('with no cluster, adds only the idle custom resource function’s role, which may create nothing', () => {
    const empty = eksShippingTemplate(input(''));
    expect(Object.keys(empty.Resources)).toEqual(['EksLogGroupsRole']);
    expect(text(empty.Resources.EksLogGroupsRole)).not.toContain('CreateLogGroup');
    expect(empty.Outputs).toEqual({});
  });
});
