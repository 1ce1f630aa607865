// The CloudFormation resources that carry listed EKS clusters' audit logs from CloudWatch
// Logs to the logs bucket: ONE Firehose delivery stream for the whole fleet writing under
// logs/_eks/, a subscription filter on each /aws/eks/<cluster>/cluster put by a custom
// resource (not by CloudFormation), shared roles for CloudWatch Logs and Firehose, and
// alarms for logs that stop arriving, nine clusters to an alarm.
//
// Resources per cluster: 4 before (a stream, a filter and two alarms: 66 + 4n, so 108
// clusters at most within CloudFormation's 500), 1/9 now (an alarm per nine clusters); the
// fixed part is 11 resources. Why (infra/log-shipping.md says the same to operators):
// - One stream, not one per cluster: each CloudWatch Logs payload names its `logGroup`, and
//   the ingest takes the cluster from it (lib/aws/ingest-object.ts), so the key need not;
//   dynamic partitioning on that field would need Firehose's decompression and JQ
//   processing (charged per GB) and store decompressed data. Firehose has no per-stream fee;
//   what one stream shares is its throughput quota (EksThrottledAlarm watches it).
// - Subscription filters put by the custom resource (lib/aws/log-groups.ts), not
//   AWS::Logs::SubscriptionFilter resources: no resource per cluster, and before putting any
//   it checks every log group for a free slot (a log group takes two filters), failing with
//   each full group named, and it retries CloudWatch Logs' test delivery while the new
//   role's policy propagates. Not an account-level subscription filter policy: that one
//   (one per account and region) selects log groups only by *excluding* names, so it
//   would ship every other log group of the account too, and it may be in use.
// - A log group that does not exist yet would fail the filter: the custom resource creates
//   only what is missing (EKS documents creating it beforehand; EKS then writes into it),
//   gives only those it created a retention (eksLogGroupRetentionDays), and never deletes one.
// - Alarms: CloudWatch alarms on metric math read at most 10 metrics (a hard limit), so one
//   alarm watches nine clusters' log groups and the stream's deliveries.
import { eksFleetDeliveryPrefix, eksFleetErrorsPrefix } from '../aws/bucket-layout';
import type { EksCluster } from './eks-clusters';
import { containerInsightsGroup, type OperatorLogGroup } from './eks-operator-logs';

type Cfn = Record<string, unknown>;

export interface EksShippingInput {
  service: string;
  stage: string;
  clusters: EksCluster[];
  /** The bucket's name as a CloudFormation value (a Ref, or the existing bucket's name). */
  bucket: unknown;
  /** The logs prefix: the fleet's stream writes under its `_eks` folder (lib/aws/bucket-layout.ts). */
  logsPrefix: string;
  bufferIntervalSeconds: number;
  bufferSizeMiB: number;
  filterPattern: string;
  /** The listed clusters' operator log groups (eksOperatorLogs), subscribed by the same custom resource; none by default. */
  operatorLogGroups?: readonly OperatorLogGroup[];
  /** The pattern that keeps only the operators' lines in those groups (lib/ingest/subscription-filter.ts). */
  operatorFilterPattern?: string;
  /** Hours without audit events reaching the bucket before a cluster's logs-stopped alarm. */
  silenceHours: number;
  /** What every alarm notifies (a CloudFormation list). */
  alarmActions: unknown;
  /** Condition name under which KMS statements apply, and the key's ARN. */
  kmsCondition: string;
  kmsKeyArn: string;
  /** Logical id of the Lambda function behind the log-group custom resource. */
  logGroupsFunction: string;
  /** Days the streams' delivery error log is kept (one of CloudWatch Logs' retention values). */
  errorLogRetentionDays: number;
  /** The state prefix, under which the ExistingBucketPolicy custom resource saves the bucket's policy. */
  statePrefix: string;
  /** Condition name under which the same function keeps an existing bucket's policy (infra/storage.yml). */
  bucketPolicyCondition: string;
  /** Days the EKS log groups the custom resource creates are kept (one of CloudWatch Logs' retention values); never set on existing ones. */
  logGroupRetentionDays: number;
}

export interface EksShippingTemplate {
  Resources: Record<string, Cfn>;
  Outputs: Record<string, Cfn>;
}

const sub = (text: string, vars: Cfn = {}): Cfn => ({
  'Fn::Sub': Object.keys(vars).length ? [text, vars] : text,
});
const arn = (id: string): Cfn => ({ 'Fn::GetAtt': [id, 'Arn'] });

/**
 * Where Firehose logs the fleet stream's delivery errors: one log group and one log stream,
 * created by the stack (Firehose does not create a log stream named by
 * CloudWatchLoggingOptions; the role's documented permission is only logs:PutLogEvents).
 */
export function deliveryErrorLog(service: string, stage: string): { group: string; stream: string } {
  return { group: `/aws/kinesisfirehose/${service}-${stage}-eks`, stream: 'S3Delivery' };
}

/** The metric the error log's metric filter counts (one per stage: its namespace). */
export function deliveryErrorMetric(service: string, stage: string): { namespace: string; name: string } {
  return { namespace: `KoperatorAudit/${service}-${stage}`, name: 'EksDeliveryErrors' };
}

/** The name of this stack's subscription filter on each log group (a log group takes two). */
export function subscriptionFilterName(service: string, stage: string): string {
  return `${service}-${stage}-eks`;
}

/**
 * The name the stack's filters had when CloudFormation owned them (one stream per cluster):
 * the custom resource counts it as the stack's own, and removes it where a log group has no
 * other free slot, so an upgrade takes no SIEM's slot.
 */
export function legacySubscriptionFilterName(service: string, stage: string): string {
  return `${service}-${stage}`;
}

/** The fleet's one delivery stream: <service>-<stage>-eks (at most 15 + 31 + 4 characters, within Firehose's 64). */
export function fleetStreamName(service: string, stage: string): string {
  return `${service}-${stage}-eks`;
}

/** Clusters per logs-stopped alarm: nine log groups and the stream's deliveries are CloudWatch's 10 metrics per alarm. */
export const CLUSTERS_PER_ALARM = 9;

function firehoseRole(inp: EksShippingInput): Cfn {
  const errorLog = deliveryErrorLog(inp.service, inp.stage);
  const bucketArn = sub('arn:${AWS::Partition}:s3:::${B}', { B: inp.bucket });
  const objects = [
    sub(`arn:\${AWS::Partition}:s3:::\${B}/${eksFleetDeliveryPrefix(inp)}*`, { B: inp.bucket }),
    sub(`arn:\${AWS::Partition}:s3:::\${B}/${eksFleetErrorsPrefix()}*`, { B: inp.bucket }),
  ];
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description:
        'koperator-audit EKS shipping - Firehose writes the fleet\u2019s audit logs under their logs prefix',
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'firehose.amazonaws.com' },
            Action: 'sts:AssumeRole',
            // Firehose passes the account as the external id: no other account's stream may use the role.
            Condition: { StringEquals: { 'sts:ExternalId': { Ref: 'AWS::AccountId' } } },
          },
        ],
      },
      Policies: [
        {
          PolicyName: 'firehose-to-logs-bucket',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Sid: 'BucketForDelivery',
                Effect: 'Allow',
                Action: ['s3:GetBucketLocation', 's3:ListBucket', 's3:ListBucketMultipartUploads'],
                Resource: bucketArn,
              },
              {
                Sid: 'WriteClusterLogs',
                Effect: 'Allow',
                Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
                Resource: objects,
              },
              // Its delivery error log (CloudWatchLoggingOptions): exactly that log stream, in the
              // log-stream ARN form of CloudWatch Logs' authorization reference
              // (log-group:NAME:log-stream:STREAM), which is the resource PutLogEvents is checked on.
              {
                Sid: 'LogDeliveryErrors',
                Effect: 'Allow',
                Action: ['logs:PutLogEvents'],
                Resource: sub(
                  `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:${errorLog.group}:log-stream:${errorLog.stream}`,
                ),
              },
              {
                'Fn::If': [
                  inp.kmsCondition,
                  {
                    Sid: 'UseBucketKey',
                    Effect: 'Allow',
                    Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
                    Resource: inp.kmsKeyArn,
                  },
                  { Ref: 'AWS::NoValue' },
                ],
              },
            ],
          },
        },
      ],
    },
  };
}

function logsRole(): Cfn {
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description:
        'koperator-audit EKS shipping - CloudWatch Logs puts subscribed audit events into the fleet\u2019s delivery stream',
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'logs.amazonaws.com' },
            Action: 'sts:AssumeRole',
            Condition: {
              StringLike: {
                'aws:SourceArn': sub('arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:*'),
              },
            },
          },
        ],
      },
      Policies: [
        {
          PolicyName: 'logs-to-firehose',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Sid: 'PutIntoDeliveryStream',
                Effect: 'Allow',
                Action: ['firehose:PutRecord', 'firehose:PutRecordBatch'],
                Resource: arn('EksDeliveryStream'),
              },
            ],
          },
        },
      ],
    },
  };
}

function deliveryStream(inp: EksShippingInput): Cfn {
  return {
    Type: 'AWS::KinesisFirehose::DeliveryStream',
    // Firehose puts into the log stream; it must exist before the first error.
    DependsOn: ['EksDeliveryErrorLogStream'],
    Properties: {
      DeliveryStreamName: fleetStreamName(inp.service, inp.stage),
      DeliveryStreamType: 'DirectPut',
      ExtendedS3DestinationConfiguration: {
        BucketARN: sub('arn:${AWS::Partition}:s3:::${B}', { B: inp.bucket }),
        RoleARN: arn('EksFirehoseRole'),
        // Firehose appends YYYY/MM/DD/HH/ to a prefix without expressions. Every cluster's
        // payloads land here together; each names its log group, hence its cluster.
        Prefix: eksFleetDeliveryPrefix(inp),
        ErrorOutputPrefix: `${eksFleetErrorsPrefix()}!{firehose:error-output-type}/`,
        BufferingHints: { IntervalInSeconds: inp.bufferIntervalSeconds, SizeInMBs: inp.bufferSizeMiB },
        // CloudWatch Logs already gzips each payload; objects are concatenated gzip members,
        // which the ingest reads (lib/ingest/decompress.ts).
        CompressionFormat: 'UNCOMPRESSED',
        CloudWatchLoggingOptions: {
          Enabled: true,
          LogGroupName: { Ref: 'EksDeliveryErrorLogGroup' },
          LogStreamName: { Ref: 'EksDeliveryErrorLogStream' },
        },
      },
    },
  };
}

/**
 * The custom resource that makes the listed log groups ready and subscribes them: creates
 * the missing ones (with a retention), checks each has a free filter slot, puts the filter
 * (retrying while the role propagates), and deletes it from groups no longer listed and on
 * delete (lib/aws/log-groups.ts). Its GetAtts make it wait for the stream and the role.
 */
function subscriptions(inp: EksShippingInput): Cfn {
  return {
    Type: 'Custom::EksSubscriptions',
    Properties: {
      ServiceToken: arn(inp.logGroupsFunction),
      LogGroupNames: inp.clusters.map((c) => c.logGroupName),
      FilterName: subscriptionFilterName(inp.service, inp.stage),
      LegacyFilterName: legacySubscriptionFilterName(inp.service, inp.stage),
      FilterPattern: inp.filterPattern,
      ...(inp.operatorLogGroups?.length
        ? {
            OperatorLogGroupNames: inp.operatorLogGroups.map((g) => g.logGroupName),
            OperatorFilterPattern: inp.operatorFilterPattern ?? '',
          }
        : {}),
      DestinationArn: arn('EksDeliveryStream'),
      RoleArn: arn('EksLogsRole'),
      RetentionInDays: inp.logGroupRetentionDays,
    },
  };
}

/**
 * ALARM when, for `silenceHours` hours, one of nine clusters' audit log groups received
 * nothing (its audit log is off, or the cluster is gone) or the fleet's stream delivered
 * nothing to S3 (the subscriptions or the stream are broken). One period of `silenceHours`
 * hours: a cluster silent for the whole window, not different clusters in different hours.
 * Missing data is breaching: a log group that never existed alarms too.
 */
function logsStoppedAlarm(inp: EksShippingInput, group: EksCluster[], index: number): Cfn {
  const period = inp.silenceHours * 3600;
  const ids = group.map((_, i) => `g${i}`);
  const names = group.map((c) => c.name).join(', ');
  const description =
    `No audit events of one of EKS clusters ${names} reached the logs bucket for ${inp.silenceHours} h ` +
    `(or the stream delivered nothing): the alarm's metrics show which log group is silent. Check that its audit log ` +
    `is on, the subscription filter ${subscriptionFilterName(inp.service, inp.stage)} on it, and the stream's delivery errors`;
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${inp.service}-${inp.stage}-eks-logs-stopped-${index + 1}`,
      // CloudWatch takes 1,024 characters; nine names of up to 100 may not fit.
      AlarmDescription: description.length <= 1024 ? description : `${description.slice(0, 1020)}...`,
      Metrics: [
        ...group.map((c, i) => ({
          Id: ids[i],
          Label: c.name,
          ReturnData: false,
          MetricStat: {
            Metric: {
              Namespace: 'AWS/Logs',
              MetricName: 'IncomingLogEvents',
              Dimensions: [{ Name: 'LogGroupName', Value: c.logGroupName }],
            },
            Period: period,
            Stat: 'Sum',
          },
        })),
        {
          Id: 'delivered',
          ReturnData: false,
          MetricStat: {
            Metric: {
              Namespace: 'AWS/Firehose',
              MetricName: 'DeliveryToS3.Records',
              Dimensions: [{ Name: 'DeliveryStreamName', Value: { Ref: 'EksDeliveryStream' } }],
            },
            Period: period,
            Stat: 'Sum',
          },
        },
        {
          Id: 'stopped',
          Label: 'a cluster sent no audit events in, or none were delivered to S3',
          ReturnData: true,
          Expression: `IF(MIN([${ids.map((id) => `FILL(${id}, 0)`).join(', ')}]) == 0 OR FILL(delivered, 0) == 0, 1, 0)`,
        },
      ],
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: inp.alarmActions,
      OKActions: inp.alarmActions,
    },
  };
}

/** Records older than 15 minutes wait in the stream: it cannot write to the bucket (policy, KMS, bucket gone). */
function deliveryStuckAlarm(inp: EksShippingInput): Cfn {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${inp.service}-${inp.stage}-eks-delivery-stuck`,
      // Firehose retries a failed S3 delivery for 24 h and then drops the data: those records
      // never reach the error prefix, which holds only records it could not process.
      AlarmDescription:
        `Firehose cannot deliver the EKS clusters' audit events to the logs bucket: it retries for 24 h, then drops them. ` +
        `Check the bucket policy, its KMS key and the role EksFirehoseRole, and the stream's DeliveryToS3.Success metric ` +
        `(S3 delivery failures are not written under ${eksFleetErrorsPrefix()})`,
      Namespace: 'AWS/Firehose',
      MetricName: 'DeliveryToS3.DataFreshness',
      Dimensions: [{ Name: 'DeliveryStreamName', Value: { Ref: 'EksDeliveryStream' } }],
      Statistic: 'Maximum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 900,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: inp.alarmActions,
      OKActions: inp.alarmActions,
    },
  };
}

/**
 * The one stream takes the whole fleet's records: past its throughput quota (Firehose's
 * Direct PUT quota per stream, which a quota request raises), it throttles, and CloudWatch
 * Logs retries for up to 24 h.
 */
function throttledAlarm(inp: EksShippingInput): Cfn {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${inp.service}-${inp.stage}-eks-throttled`,
      AlarmDescription:
        `The EKS fleet's delivery stream ${fleetStreamName(inp.service, inp.stage)} throttles records: the fleet's audit events ` +
        `exceed its throughput quota. CloudWatch Logs retries for up to 24 h; raise the stream's Direct PUT quota ` +
        `(Service Quotas, Amazon Data Firehose) or split the fleet over two stages`,
      Namespace: 'AWS/Firehose',
      MetricName: 'ThrottledRecords',
      Dimensions: [{ Name: 'DeliveryStreamName', Value: { Ref: 'EksDeliveryStream' } }],
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: inp.alarmActions,
      OKActions: inp.alarmActions,
    },
  };
}

/** The delivery error log, its metric filter (every event in it is an error) and the one alarm on it. */
function deliveryErrorResources(inp: EksShippingInput): Record<string, Cfn> {
  const log = deliveryErrorLog(inp.service, inp.stage);
  const metric = deliveryErrorMetric(inp.service, inp.stage);
  return {
    EksDeliveryErrorLogGroup: {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: log.group, RetentionInDays: inp.errorLogRetentionDays },
    },
    EksDeliveryErrorLogStream: {
      Type: 'AWS::Logs::LogStream',
      Properties: { LogGroupName: { Ref: 'EksDeliveryErrorLogGroup' }, LogStreamName: log.stream },
    },
    EksDeliveryErrorMetricFilter: {
      Type: 'AWS::Logs::MetricFilter',
      Properties: {
        LogGroupName: { Ref: 'EksDeliveryErrorLogGroup' },
        // An empty pattern matches every event: Firehose writes nothing but errors there.
        FilterPattern: '',
        MetricTransformations: [
          { MetricNamespace: metric.namespace, MetricName: metric.name, MetricValue: '1', Unit: 'Count' },
        ],
      },
    },
    EksDeliveryErrorAlarm: {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        AlarmName: `${inp.service}-${inp.stage}-eks-delivery-errors`,
        // Firehose retries a failed S3 delivery for 24 h and then drops the data (it is never
        // written under the error prefix, which holds only records it could not process).
        AlarmDescription:
          `Firehose could not deliver EKS audit events to the logs bucket. The errors are in log group ${log.group} ` +
          `(log stream ${log.stream}; each names its delivery stream). Failed S3 deliveries are retried for 24 h and then dropped: ` +
          `fix the bucket policy, its KMS key or the role EksFirehoseRole within that time`,
        Namespace: metric.namespace,
        MetricName: metric.name,
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: inp.alarmActions,
        OKActions: inp.alarmActions,
      },
    },
  };
}

function logGroupsRole(inp: EksShippingInput): Cfn {
  const fnName = `${inp.service}-${inp.stage}-eksLogGroups`;
  const statements: Cfn[] = [
    {
      Sid: 'OwnLogs',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: [
        sub(
          `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/lambda/${fnName}:*`,
        ),
      ],
    },
  ];
  const noValue = { Ref: 'AWS::NoValue' };
  const bucketArn = sub('arn:${AWS::Partition}:s3:::${B}', { B: inp.bucket });
  // The ExistingBucketPolicy custom resource (existingBucketPolicy=true): the bucket's policy,
  // and its saved copy under the state prefix (lib/aws/bucket-policy.ts).
  statements.push(
    {
      'Fn::If': [
        inp.bucketPolicyCondition,
        {
          Sid: 'KeepExistingBucketPolicy',
          Effect: 'Allow',
          // ListBucket: a missing saved copy is then a 404, not a 403.
          Action: ['s3:GetBucketPolicy', 's3:PutBucketPolicy', 's3:DeleteBucketPolicy', 's3:ListBucket'],
          Resource: bucketArn,
        },
        noValue,
      ],
    },
    {
      'Fn::If': [
        inp.bucketPolicyCondition,
        {
          Sid: 'SaveExistingBucketPolicy',
          Effect: 'Allow',
          Action: ['s3:GetObject', 's3:PutObject'],
          Resource: sub(`arn:\${AWS::Partition}:s3:::\${B}/${inp.statePrefix}existing-bucket-policy/*`, {
            B: inp.bucket,
          }),
        },
        noValue,
      ],
    },
    {
      'Fn::If': [
        inp.bucketPolicyCondition,
        {
          'Fn::If': [
            inp.kmsCondition,
            {
              Sid: 'SavedPolicyKey',
              Effect: 'Allow',
              Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
              Resource: inp.kmsKeyArn,
            },
            noValue,
          ],
        },
        noValue,
      ],
    },
  );
  if (inp.clusters.length > 0)
    statements.push(
      {
        Sid: 'PrepareAndSubscribeEksLogGroups',
        Effect: 'Allow',
        Action: [
          'logs:CreateLogGroup',
          'logs:PutRetentionPolicy',
          'logs:DescribeSubscriptionFilters',
          'logs:PutSubscriptionFilter',
          'logs:DeleteSubscriptionFilter',
        ],
        // Every EKS control-plane log group, not one ARN each: 200 names would pass IAM's
        // 10,240 characters. The function acts only on the listed names (lib/aws/log-groups.ts).
        // The `:*` form: IAM evaluates these calls against `log-group:NAME:log-stream:` (the
        // resource AWS's AccessDenied messages name), which the bare ARN does not match.
        Resource: sub(
          'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/eks/*/cluster:*',
        ),
      },
      ...operatorGroupsStatement(inp),
      {
        // PutSubscriptionFilter hands the role to CloudWatch Logs: that role only, to that service only.
        Sid: 'PassLogsRole',
        Effect: 'Allow',
        Action: ['iam:PassRole'],
        Resource: arn('EksLogsRole'),
        Condition: { StringEquals: { 'iam:PassedToService': 'logs.amazonaws.com' } },
      },
    );
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description:
        'koperator-audit eksLogGroups - prepares and subscribes listed EKS clusters\u2019 log groups, keeps an existing bucket\u2019s policy',
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
      Policies: [
        { PolicyName: 'eks-log-groups', PolicyDocument: { Version: '2012-10-17', Statement: statements } },
      ],
    },
  };
}

/**
 * The operators' log groups: subscription filters only (they are never created nor given a
 * retention). Container Insights' groups by one wildcard, a group the user named by its own
 * ARN, both in the `:*` form the audit groups' statement explains.
 */
function operatorGroupsStatement(inp: EksShippingInput): Cfn[] {
  const groups = inp.operatorLogGroups ?? [];
  if (groups.length === 0) return [];
  const resources: Cfn[] = [];
  if (groups.some((g) => g.logGroupName === containerInsightsGroup(g.cluster)))
    resources.push(
      sub(
        'arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:/aws/containerinsights/*/application:*',
      ),
    );
  for (const g of groups)
    if (g.logGroupName !== containerInsightsGroup(g.cluster))
      resources.push(
        sub(`arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:${g.logGroupName}:*`),
      );
  return [
    {
      Sid: 'SubscribeOperatorLogGroups',
      Effect: 'Allow',
      Action: [
        'logs:DescribeSubscriptionFilters',
        'logs:PutSubscriptionFilter',
        'logs:DeleteSubscriptionFilter',
      ],
      Resource: resources,
    },
  ];
}

/** CloudWatch Logs' retention values (PutRetentionPolicy's retentionInDays). */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

/** Everything the `eksClusters` param adds; with no cluster, only the (idle) custom resource function's role. */
export function eksShippingTemplate(inp: EksShippingInput): EksShippingTemplate {
  const Resources: Record<string, Cfn> = { EksLogGroupsRole: logGroupsRole(inp) };
  const Outputs: Record<string, Cfn> = {};
  if (inp.clusters.length === 0) return { Resources, Outputs };
  Resources.EksFirehoseRole = firehoseRole(inp);
  Resources.EksLogsRole = logsRole();
  Object.assign(Resources, deliveryErrorResources(inp));
  Resources.EksDeliveryStream = deliveryStream(inp);
  Resources.EksSubscriptions = subscriptions(inp);
  Resources.EksDeliveryStuckAlarm = deliveryStuckAlarm(inp);
  Resources.EksThrottledAlarm = throttledAlarm(inp);
  for (let i = 0; i * CLUSTERS_PER_ALARM < inp.clusters.length; i++)
    Resources[`EksLogsStoppedAlarm${i + 1}`] = logsStoppedAlarm(
      inp,
      inp.clusters.slice(i * CLUSTERS_PER_ALARM, (i + 1) * CLUSTERS_PER_ALARM),
      i,
    );
  Outputs.EksClusters = {
    Description: 'EKS clusters whose audit logs the stack ships (eksClusters)',
    Value: inp.clusters.map((c) => c.name).join(','),
  };
  if (inp.operatorLogGroups?.length)
    Outputs.EksOperatorLogGroups = {
      Description: 'Log groups whose operator lines the stack ships with the audit logs (eksOperatorLogs)',
      Value: inp.operatorLogGroups.map((g) => `${g.cluster}=${g.logGroupName}`).join(','),
    };
  Outputs.EksDeliveryStreamName = {
    Description: 'The delivery stream all listed clusters ship through (its quota is the fleet\u2019s)',
    Value: { Ref: 'EksDeliveryStream' },
  };
  return { Resources, Outputs };
}
