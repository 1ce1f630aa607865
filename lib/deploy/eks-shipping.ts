// The CloudFormation resources that carry listed EKS clusters' audit logs from CloudWatch
// Logs to the logs bucket: per cluster a Firehose delivery stream writing under
// logs/<cluster>/ and a subscription filter on /aws/eks/<cluster>/cluster, shared roles for
// CloudWatch Logs and Firehose, a custom resource that creates a log group EKS has not
// created yet, and per cluster alarms for logs that stop arriving.
//
// Why these choices (infra/log-shipping.md says the same to operators):
// - A stream per cluster, not one stream with dynamic partitioning on the payload's
//   `logGroup`: CloudWatch Logs sends gzip'd payloads, so partitioning by a payload field
//   would need Firehose's decompression and JQ processing (charged per GB) and would store
//   decompressed data; a stream per cluster keys objects by a constant prefix, costs the
//   same per GB (Firehose has no per-stream fee) and gives per-cluster metrics to alarm on.
// - A subscription filter per log group, not an account-level subscription filter policy:
//   that policy (one per account and region) selects log groups only by *excluding* names,
//   so it would ship every other log group of the account too, and it may be in use.
// - A log group that does not exist yet: a subscription filter on it would fail the deploy.
//   The stack cannot own the log group either (EKS creates it, and a create fails when it
//   exists). A custom resource creates only what is missing, as EKS documents you may do
//   beforehand (EKS then writes into it), and never deletes one.
import {
  clusterLogsPrefix,
  eksDeliveryPrefix,
  eksErrorsPrefix,
  FIREHOSE_ERRORS_PREFIX,
} from '../aws/bucket-layout';
import { deliveryStreamName, type EksCluster } from './eks-clusters';

type Cfn = Record<string, unknown>;

export interface EksShippingInput {
  service: string;
  stage: string;
  clusters: EksCluster[];
  /** The bucket's name as a CloudFormation value (a Ref, or the existing bucket's name). */
  bucket: unknown;
  /** The logs prefix: each cluster's stream writes under its folder (lib/aws/bucket-layout.ts). */
  logsPrefix: string;
  bufferIntervalSeconds: number;
  bufferSizeMiB: number;
  filterPattern: string;
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
}

export interface EksShippingTemplate {
  Resources: Record<string, Cfn>;
  Outputs: Record<string, Cfn>;
}

const sub = (text: string, vars: Cfn = {}): Cfn => ({
  'Fn::Sub': Object.keys(vars).length ? [text, vars] : text,
});
const arn = (id: string): Cfn => ({ 'Fn::GetAtt': [id, 'Arn'] });
/** A log group and everything under it, the form IAM policies must name (CloudWatch Logs' access control overview). */
const logGroupArn = (name: string): Cfn =>
  sub(`arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:${name}:*`);

/**
 * Where Firehose logs the streams' delivery errors: ONE log group and ONE log stream for all
 * of them, not one per stream. Firehose does not create a log stream named by
 * CloudWatchLoggingOptions (the role's documented permission is only logs:PutLogEvents), so
 * one per delivery stream would be a resource per cluster and the largest fleet (90) would
 * pass CloudFormation's 500 resources; each error record names its delivery stream
 * (`deliveryStreamARN`), so nothing is lost by sharing.
 */
export function deliveryErrorLog(service: string, stage: string): { group: string; stream: string } {
  return { group: `/aws/kinesisfirehose/${service}-${stage}-eks`, stream: 'S3Delivery' };
}

/** The metric the error log's metric filter counts (one per stage: its namespace). */
export function deliveryErrorMetric(service: string, stage: string): { namespace: string; name: string } {
  return { namespace: `KoperatorAudit/${service}-${stage}`, name: 'EksDeliveryErrors' };
}

function streamId(c: EksCluster): string {
  return `${c.logicalId}DeliveryStream`;
}

/** The name of this stack's subscription filter on each log group (a log group takes two). */
export function subscriptionFilterName(service: string, stage: string): string {
  return `${service}-${stage}`;
}

function firehoseRole(inp: EksShippingInput): Cfn {
  const errorLog = deliveryErrorLog(inp.service, inp.stage);
  const bucketArn = sub('arn:${AWS::Partition}:s3:::${B}', { B: inp.bucket });
  const objects = [
    ...inp.clusters.map((c) =>
      sub(`arn:\${AWS::Partition}:s3:::\${B}/${clusterLogsPrefix(inp, c.name)}*`, { B: inp.bucket }),
    ),
    sub(`arn:\${AWS::Partition}:s3:::\${B}/${FIREHOSE_ERRORS_PREFIX}*`, { B: inp.bucket }),
  ];
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description: 'koperator-audit EKS shipping - Firehose writes each cluster under its own logs prefix',
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

function logsRole(inp: EksShippingInput): Cfn {
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description:
        'koperator-audit EKS shipping - CloudWatch Logs puts subscribed audit events into the delivery streams',
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
                Sid: 'PutIntoDeliveryStreams',
                Effect: 'Allow',
                Action: ['firehose:PutRecord', 'firehose:PutRecordBatch'],
                // The stack's streams by their common name prefix (deliveryStreamName keeps it), not
                // one ARN each: the role's inline policy would pass IAM's 10,240 characters at ~75
                // clusters. Only CloudWatch Logs assumes the role, for this account's filters.
                Resource: sub(
                  `arn:\${AWS::Partition}:firehose:\${AWS::Region}:\${AWS::AccountId}:deliverystream/${inp.service}-${inp.stage}-*`,
                ),
              },
            ],
          },
        },
      ],
    },
  };
}

function deliveryStream(inp: EksShippingInput, c: EksCluster): Cfn {
  return {
    Type: 'AWS::KinesisFirehose::DeliveryStream',
    // Firehose puts into the log stream; it must exist before the first error.
    DependsOn: ['EksDeliveryErrorLogStream'],
    Properties: {
      DeliveryStreamName: deliveryStreamName(`${inp.service}-${inp.stage}`, c.name),
      DeliveryStreamType: 'DirectPut',
      ExtendedS3DestinationConfiguration: {
        BucketARN: sub('arn:${AWS::Partition}:s3:::${B}', { B: inp.bucket }),
        RoleARN: arn('EksFirehoseRole'),
        // Firehose appends YYYY/MM/DD/HH/ to a prefix without expressions.
        Prefix: eksDeliveryPrefix(inp, c.name),
        ErrorOutputPrefix: `${eksErrorsPrefix(c.name)}!{firehose:error-output-type}/`,
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

function subscriptionFilter(inp: EksShippingInput, c: EksCluster): Cfn {
  return {
    Type: 'AWS::Logs::SubscriptionFilter',
    // The log group must exist first; the role's policy must be in place before CloudWatch
    // Logs sends its test record to the stream.
    DependsOn: ['EksLogGroups', 'EksLogsRole'],
    Properties: {
      LogGroupName: c.logGroupName,
      FilterName: subscriptionFilterName(inp.service, inp.stage),
      FilterPattern: inp.filterPattern,
      DestinationArn: arn(streamId(c)),
      RoleArn: arn('EksLogsRole'),
    },
  };
}

/**
 * ALARM when, for `silenceHours` hours in a row, the audit log group received nothing
 * (the audit log is off, or the cluster is gone) or the cluster's stream delivered nothing
 * to S3 (the subscription or the stream is broken). Missing data is breaching: a log group
 * that never existed, or a stream with no deliveries, alarms too.
 */
function logsStoppedAlarm(inp: EksShippingInput, c: EksCluster): Cfn {
  const period = 3600;
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${inp.service}-${inp.stage}-logs-stopped-${c.name}`,
      AlarmDescription:
        `No audit events of EKS cluster ${c.name} reached the logs bucket for ${inp.silenceHours} h: ` +
        `check that its audit log is on (log group ${c.logGroupName} receives events), the subscription filter ` +
        `${subscriptionFilterName(inp.service, inp.stage)} on it, and the Firehose stream's delivery errors`,
      Metrics: [
        {
          Id: 'incoming',
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
        },
        {
          Id: 'delivered',
          ReturnData: false,
          MetricStat: {
            Metric: {
              Namespace: 'AWS/Firehose',
              MetricName: 'DeliveryToS3.Records',
              Dimensions: [{ Name: 'DeliveryStreamName', Value: { Ref: streamId(c) } }],
            },
            Period: period,
            Stat: 'Sum',
          },
        },
        {
          Id: 'stopped',
          Label: 'no audit events in, or none delivered to S3',
          ReturnData: true,
          Expression: 'IF(FILL(incoming, 0) == 0 OR FILL(delivered, 0) == 0, 1, 0)',
        },
      ],
      EvaluationPeriods: inp.silenceHours,
      DatapointsToAlarm: inp.silenceHours,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: inp.alarmActions,
      OKActions: inp.alarmActions,
    },
  };
}

/** Records older than 15 minutes wait in the stream: it cannot write to the bucket (policy, KMS, bucket gone). */
function deliveryStuckAlarm(inp: EksShippingInput, c: EksCluster): Cfn {
  return {
    Type: 'AWS::CloudWatch::Alarm',
    Properties: {
      AlarmName: `${inp.service}-${inp.stage}-delivery-stuck-${c.name}`,
      // Firehose retries a failed S3 delivery for 24 h and then drops the data: those records
      // never reach the error prefix, which holds only records it could not process.
      AlarmDescription:
        `Firehose cannot deliver EKS cluster ${c.name}'s audit events to the logs bucket: it retries for 24 h, then drops them. ` +
        `Check the bucket policy, its KMS key and the role EksFirehoseRole, and the stream's DeliveryToS3.Success metric ` +
        `(S3 delivery failures are not written under ${eksErrorsPrefix(c.name)})`,
      Namespace: 'AWS/Firehose',
      MetricName: 'DeliveryToS3.DataFreshness',
      Dimensions: [{ Name: 'DeliveryStreamName', Value: { Ref: streamId(c) } }],
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
  if (inp.clusters.length > 0)
    statements.push({
      Sid: 'CreateMissingEksLogGroups',
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup'],
      // IAM evaluates CreateLogGroup against `log-group:NAME:log-stream:` (the resource AWS's
      // AccessDenied messages name), which only the `:*` form matches; the bare ARN that the
      // resource-type table writes matches nothing the service sends.
      Resource: inp.clusters.map((c) => logGroupArn(c.logGroupName)),
    });
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      Description:
        'koperator-audit eksLogGroups - creates listed EKS clusters\u2019 log groups that do not exist yet',
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

/** Everything the `eksClusters` param adds; with no cluster, only the (idle) custom resource function's role. */
export function eksShippingTemplate(inp: EksShippingInput): EksShippingTemplate {
  const Resources: Record<string, Cfn> = { EksLogGroupsRole: logGroupsRole(inp) };
  const Outputs: Record<string, Cfn> = {};
  if (inp.clusters.length === 0) return { Resources, Outputs };
  Resources.EksFirehoseRole = firehoseRole(inp);
  Resources.EksLogsRole = logsRole(inp);
  Object.assign(Resources, deliveryErrorResources(inp));
  Resources.EksLogGroups = {
    Type: 'Custom::EksLogGroups',
    Properties: {
      ServiceToken: arn(inp.logGroupsFunction),
      LogGroupNames: inp.clusters.map((c) => c.logGroupName),
    },
  };
  for (const c of inp.clusters) {
    Resources[streamId(c)] = deliveryStream(inp, c);
    Resources[`${c.logicalId}SubscriptionFilter`] = subscriptionFilter(inp, c);
    Resources[`${c.logicalId}LogsStoppedAlarm`] = logsStoppedAlarm(inp, c);
    Resources[`${c.logicalId}DeliveryStuckAlarm`] = deliveryStuckAlarm(inp, c);
  }
  Outputs.EksClusters = {
    Description: 'EKS clusters whose audit logs the stack ships (eksClusters)',
    Value: inp.clusters.map((c) => c.name).join(','),
  };
  return { Resources, Outputs };
}
