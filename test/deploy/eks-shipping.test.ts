// The eksClusters param and the resources it becomes (lib/deploy): names EKS accepts, names
// that stay stable and apart, and per cluster a stream, a filter and alarms that point at
// that cluster only; roles that reach exactly the listed clusters' prefixes and streams.
import { deliveryStreamName, parseEksClusters } from '../../lib/deploy/eks-clusters';
import { deliveryErrorLog, eksShippingTemplate, type EksShippingInput } from '../../lib/deploy/eks-shipping';

type Json = Record<string, unknown>;

function input(clusters: string, extra: Partial<EksShippingInput> = {}): EksShippingInput {
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
    errorLogRetentionDays: 30,
    ...extra,
  };
}

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

describe('deliveryStreamName', () => {
  it('is <service>-<stage>-<cluster> while it fits, else cut with a hash, within 64 characters', () => {
    expect(deliveryStreamName('koperator-audit-prod', 'eu')).toBe('koperator-audit-prod-eu');
    const long1 = deliveryStreamName('koperator-audit-prod', 'x'.repeat(60) + 'a');
    const long2 = deliveryStreamName('koperator-audit-prod', 'x'.repeat(60) + 'b');
    expect(long1).toHaveLength(64);
    expect(long1).not.toBe(long2);
    expect(long1).toMatch(/^[A-Za-z0-9_.-]+$/);
  });
});

describe('eksShippingTemplate', () => {
  const names = Array.from({ length: 10 }, (_, i) => `eks-${i}`);
  const t = eksShippingTemplate(input(names.join(',')));
  const ofType = (type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);

  it('onboards ten clusters from one parameter: a stream, a filter and two alarms each', () => {
    expect(ofType('AWS::KinesisFirehose::DeliveryStream')).toHaveLength(10);
    expect(ofType('AWS::Logs::SubscriptionFilter')).toHaveLength(10);
    // ...and one delivery-errors alarm for all of them.
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(21);
    // Two roles shared by all clusters, plus the custom resource function's.
    expect(
      ofType('AWS::IAM::Role')
        .map(([id]) => id)
        .sort(),
    ).toEqual(['EksFirehoseRole', 'EksLogGroupsRole', 'EksLogsRole']);
    expect(props(t.Resources.EksLogGroups).LogGroupNames).toEqual(names.map((n) => `/aws/eks/${n}/cluster`));
    expect(t.Outputs.EksClusters!.Value).toBe(names.join(','));
  });

  it('keeps each cluster apart: its log group to its own stream, written under logs/<cluster>/', () => {
    for (const c of parseEksClusters(names.join(','))) {
      const filter = props(t.Resources[`${c.logicalId}SubscriptionFilter`]);
      expect(filter.LogGroupName).toBe(`/aws/eks/${c.name}/cluster`);
      expect(filter.DestinationArn).toEqual({ 'Fn::GetAtt': [`${c.logicalId}DeliveryStream`, 'Arn'] });
      expect(filter.FilterPattern).toBe('{ $.verb != "get" }');
      expect(t.Resources[`${c.logicalId}SubscriptionFilter`]!.DependsOn).toEqual([
        'EksLogGroups',
        'EksLogsRole',
      ]);
      const s3 = props(t.Resources[`${c.logicalId}DeliveryStream`])
        .ExtendedS3DestinationConfiguration as Json;
      expect(s3.Prefix).toBe(`logs/${c.name}/audit/firehose/`);
      expect(s3.ErrorOutputPrefix).toBe(`firehose-errors/${c.name}/!{firehose:error-output-type}/`);
      expect(s3.BufferingHints).toEqual({ IntervalInSeconds: 60, SizeInMBs: 5 });
      expect(s3.CompressionFormat).toBe('UNCOMPRESSED');
      const stopped = props(t.Resources[`${c.logicalId}LogsStoppedAlarm`]);
      expect(text(stopped.Metrics)).toContain(`/aws/eks/${c.name}/cluster`);
      expect(text(stopped.Metrics)).toContain(`${c.logicalId}DeliveryStream`);
      expect(stopped).toMatchObject({
        TreatMissingData: 'breaching',
        EvaluationPeriods: 6,
        DatapointsToAlarm: 6,
      });
      expect(stopped.AlarmActions).toEqual([{ Ref: 'AlarmTopic' }]);
      // Points where S3 delivery errors are, not at the error prefix they never reach.
      const stuck = props(t.Resources[`${c.logicalId}DeliveryStuckAlarm`]).AlarmDescription as string;
      expect(stuck).toContain('retries for 24 h, then drops them');
      expect(stuck).toContain('EksFirehoseRole');
      expect(stuck).toMatch(/S3 delivery failures are not written under firehose-errors\//);
    }
  });

  it('lets Firehose write only the listed clusters’ prefixes and the error prefix, and CloudWatch Logs put only into the streams', () => {
    const fh = (
      props(t.Resources.EksFirehoseRole).Policies as { PolicyDocument: { Statement: Json[] } }[]
    )[0]!.PolicyDocument.Statement;
    const write = fh.find((s) => s.Sid === 'WriteClusterLogs')!;
    const resources = (write.Resource as Json[]).map((r) => (r['Fn::Sub'] as [string])[0]);
    expect(resources).toEqual([
      ...names.map((n) => `arn:\${AWS::Partition}:s3:::\${B}/logs/${n}/*`),
      'arn:${AWS::Partition}:s3:::${B}/firehose-errors/*',
    ]);
    const trust = text(props(t.Resources.EksFirehoseRole).AssumeRolePolicyDocument);
    expect(trust).toContain('sts:ExternalId');
    const logs = (props(t.Resources.EksLogsRole).Policies as { PolicyDocument: { Statement: Json[] } }[])[0]!
      .PolicyDocument.Statement[0]!;
    expect(logs.Action).toEqual(['firehose:PutRecord', 'firehose:PutRecordBatch']);
    // Every stream of the stack by the prefix all their names share, whatever the fleet's size.
    expect(logs.Resource).toEqual({
      'Fn::Sub':
        'arn:${AWS::Partition}:firehose:${AWS::Region}:${AWS::AccountId}:deliverystream/koperator-audit-prod-*',
    });
    for (const c of parseEksClusters(names.join(',')))
      expect(props(t.Resources[`${c.logicalId}DeliveryStream`]).DeliveryStreamName as string).toMatch(
        /^koperator-audit-prod-/,
      );
    const lg = text(props(t.Resources.EksLogGroupsRole).Policies);
    expect(lg).toContain('logs:CreateLogGroup');
    for (const n of names) expect(lg).toContain(`log-group:/aws/eks/${n}/cluster:*`);
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

  it('adds no resource per cluster for the error log: ten more clusters are forty more resources', () => {
    const more = eksShippingTemplate(input(Array.from({ length: 20 }, (_, i) => `eks-${i}`).join(',')));
    expect(Object.keys(more.Resources).length - Object.keys(t.Resources).length).toBe(40);
  });

  it('with no cluster, adds only the idle custom resource function’s role, which may create nothing', () => {
    const empty = eksShippingTemplate(input(''));
    expect(Object.keys(empty.Resources)).toEqual(['EksLogGroupsRole']);
    expect(text(empty.Resources.EksLogGroupsRole)).not.toContain('CreateLogGroup');
    expect(empty.Outputs).toEqual({});
  });
});
