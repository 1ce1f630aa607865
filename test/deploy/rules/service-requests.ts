// What AWS services do with the stack's service roles, read from the template: Firehose
// writing to the bucket with a delivery stream's role, and CloudWatch Logs putting
// subscribed events into a stream with a subscription filter's role. Each request is keyed
// by the role's logical id (the principal), for iam-check.ts. Pure: template in, requests out.
import type { RawCall } from './call-recorder';
import type { IamRequest } from './iam-requests';
import type { Resolver } from './resolve';
import { isObject, type Json, type JsonObject, type Template } from './template';

/** The logical id a `Fn::GetAtt [Role, Arn]` names, or null. */
function roleOf(v: Json | undefined): string | null {
  return isObject(v) && Array.isArray(v['Fn::GetAtt']) ? String(v['Fn::GetAtt'][0]) : null;
}

/** A key Firehose writes under a prefix: it appends YYYY/MM/DD/HH/ and <stream>-<version>-<time>-<uuid>. */
function firehoseKey(prefix: string, stream: string): string {
  const expanded = prefix
    .replace(/!\{firehose:error-output-type\}/g, 'processing-failed')
    .replace(/!\{timestamp:[^}]*\}/g, '2026');
  return `${expanded}2026/12/06/16/${stream}-1-2026-12-06-16-05-00-0123abcd-45ef-6789-abcd-0123456789ab`;
}

/**
 * Firehose's requests with a delivery stream's role, as its documentation lists them for
 * an S3 destination: the bucket's location, listings and multipart uploads, each object it
 * writes (delivered and failed records), the KMS key the bucket encrypts with, and its own
 * error log when CloudWatchLoggingOptions is on.
 */
export function firehoseRequests(t: Template, r: Resolver, bucketKey: string | undefined): IamRequest[] {
  const out: IamRequest[] = [];
  const d = r.d;
  for (const [id, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::KinesisFirehose::DeliveryStream') continue;
    const s3 = res.Properties?.ExtendedS3DestinationConfiguration as JsonObject | undefined;
    if (!s3) continue;
    const role = roleOf(s3.RoleARN);
    if (!role) throw new Error(`${id}: its RoleARN is not a role of this template`);
    const stream = r.physicalName(id);
    const bucket = r.string(s3.BucketARN!);
    const why = `Firehose delivers ${stream}`;
    const q = (action: string, resource: string, because = why): IamRequest => ({
      fn: role,
      action,
      resource,
      context: {},
      why: because,
    });
    for (const action of ['s3:GetBucketLocation', 's3:ListBucket', 's3:ListBucketMultipartUploads'])
      out.push(q(action, bucket));
    const keys: [string, string][] = [[String(r.string(s3.Prefix ?? '')), 'records']];
    if (s3.ErrorOutputPrefix !== undefined) keys.push([r.string(s3.ErrorOutputPrefix), 'failed records']);
    for (const [prefix, what] of keys) {
      const object = `${bucket}/${firehoseKey(prefix, stream)}`;
      for (const action of ['s3:PutObject', 's3:AbortMultipartUpload'])
        out.push(q(action, object, `${why}: ${what}`));
    }
    if (bucketKey)
      for (const action of ['kms:GenerateDataKey', 'kms:Decrypt'])
        out.push(q(action, bucketKey, `${why}: SSE-KMS bucket`));
    const logging = s3.CloudWatchLoggingOptions as JsonObject | undefined;
    if (logging && r.value(logging.Enabled!) === true) {
      const group = r.string(logging.LogGroupName!);
      const logStream = r.string(logging.LogStreamName!);
      out.push(
        q(
          'logs:PutLogEvents',
          `arn:${d.partition}:logs:${d.region}:${d.accountId}:log-group:${group}:log-stream:${logStream}`,
          `${why}: logs a delivery error`,
        ),
      );
    }
  }
  return out;
}

/**
 * CloudWatch Logs' requests with a subscription filter's role: putting subscribed events
 * into its destination. The filters are the template's AWS::Logs::SubscriptionFilter
 * resources and those a custom resource put (its recorded PutSubscriptionFilter calls).
 */
export function subscriptionRequests(t: Template, r: Resolver, calls: readonly RawCall[] = []): IamRequest[] {
  const out: IamRequest[] = [];
  const roleByArn = new Map(
    Object.entries(t.Resources)
      .filter(([, res]) => res.Type === 'AWS::IAM::Role')
      .map(([id]) => [r.arn(id), id]),
  );
  for (const c of calls) {
    if (c.service !== 'CloudWatchLogs' || c.operation !== 'PutSubscriptionFilter') continue;
    const role = roleByArn.get(String(c.input.roleArn));
    if (!role)
      throw new Error(`${c.fn}: puts a filter with ${String(c.input.roleArn)}, not a role of this template`);
    const why = `CloudWatch Logs delivers ${String(c.input.logGroupName)} (put by ${c.fn})`;
    for (const action of ['firehose:PutRecord', 'firehose:PutRecordBatch'])
      out.push({ fn: role, action, resource: String(c.input.destinationArn), context: {}, why });
  }
  for (const [id, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::Logs::SubscriptionFilter') continue;
    const p = res.Properties ?? {};
    if (p.RoleArn === undefined) continue;
    const role = roleOf(p.RoleArn);
    if (!role) throw new Error(`${id}: its RoleArn is not a role of this template`);
    const destination = r.string(p.DestinationArn!);
    const why = `CloudWatch Logs delivers ${r.string(p.LogGroupName!)} (${id})`;
    for (const action of ['firehose:PutRecord', 'firehose:PutRecordBatch'])
      out.push({ fn: role, action, resource: destination, context: {}, why });
  }
  return out;
}
