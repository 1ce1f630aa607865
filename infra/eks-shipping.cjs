// The resources of the eksClusters param (one delivery stream for the fleet, a custom
// resource that subscribes each cluster's log group, an alarm per nine clusters:
// lib/deploy/eks-shipping.ts), built at package time. CloudFormation has no loop
// over a list parameter without the AWS::LanguageExtensions transform, which the offline
// checks could not read; a plain template per deploy can be read, diffed and validated.
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const load = (rel) => tsxRequire(path.join(__dirname, '..', rel), path.join(__dirname, 'eks-shipping.cjs'));
const { parseEksClusters } = load('lib/deploy/eks-clusters.ts');
const { eksShippingTemplate, LOG_RETENTION_DAYS } = load('lib/deploy/eks-shipping.ts');
const { auditFilterPattern, operatorLogFilterPattern, renderPattern } = load(
  'lib/ingest/subscription-filter.ts',
);
const { parseEksOperatorLogs } = load('lib/deploy/eks-operator-logs.ts');

function positiveInt(name, value, min, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function retentionDays(name, value) {
  const n = Number(value);
  if (!LOG_RETENTION_DAYS.includes(n))
    throw new Error(
      `${name} must be one of CloudWatch Logs' retention values (${LOG_RETENTION_DAYS.join(', ')}), got ${JSON.stringify(value)}`,
    );
  return n;
}

module.exports = async ({ resolveVariable }) => {
  const param = async (name) => String(await resolveVariable(`param:${name}`));
  const clusters = parseEksClusters(await param('eksClusters'));
  return eksShippingTemplate({
    service: String(await resolveVariable('self:service')),
    stage: String(await resolveVariable('sls:stage')),
    clusters,
    bucket: await resolveVariable('self:custom.bucketName'),
    logsPrefix: await param('logsPrefix'),
    // Firehose takes 0-900 s; the interval bounds how late an event can be alerted on.
    bufferIntervalSeconds: positiveInt('eksBufferInterval', await param('eksBufferInterval'), 0, 900),
    bufferSizeMiB: positiveInt('eksBufferSize', await param('eksBufferSize'), 1, 128),
    filterPattern: renderPattern(auditFilterPattern()),
    // The listed clusters' operator logs (Container Insights' group or one named), by the same
    // custom resource: no resource per cluster.
    operatorLogGroups: parseEksOperatorLogs(await param('eksOperatorLogs'), clusters),
    operatorFilterPattern: renderPattern(operatorLogFilterPattern()),
    // CloudWatch evaluates at most 7 days of hourly periods.
    silenceHours: positiveInt('eksSilenceHours', await param('eksSilenceHours'), 1, 168),
    alarmActions: await resolveVariable('self:custom.alarmActions'),
    kmsCondition: 'UseKms',
    kmsKeyArn: await param('kmsKeyArn'),
    logGroupsFunction: 'EksLogGroupsLambdaFunction',
    statePrefix: await param('statePrefix'),
    bucketPolicyCondition: 'PolicyOnExistingBucket',
    // The streams' delivery error log is kept as long as the functions' logs.
    errorLogRetentionDays: Number(await param('logRetentionDays')),
    // The EKS log groups the custom resource creates (never those that exist already).
    logGroupRetentionDays: retentionDays('eksLogGroupRetentionDays', await param('eksLogGroupRetentionDays')),
  });
};
