// What IAM authorizes for each recorded SDK call (the action, the resource ARN with the
// object key, the condition keys), and what AWS does with the function's role on its
// behalf, from the template: the event source mapping's polling, the on-failure
// destination, the function's own log group, and KMS for encrypted buckets, topics and
// SecureStrings. Pure: recorded calls and an effective template in, requests out.
import type { RawCall } from './call-recorder';
import { Resolver } from './resolve';
import { isObject, type Json, type Template } from './template';

export interface IamRequest {
  /** The function's key in serverless.yml (ingest, analyze, …). */
  fn: string;
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
  /** What made the request: the SDK call, or the service acting with the role. */
  why: string;
}

/** Emulator resource names to the deployed ones (bucket name, queue URL → queue ARN, topic ARN). */
export interface Translate {
  bucket(name: string): string;
  queueArn(url: string): string;
  topicArn(arn: string): string;
  parameterName(name: string): string;
  secretArn(id: string): string;
}

const S3_OBJECT_ACTIONS: Record<string, string> = {
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  PutObject: 's3:PutObject',
  DeleteObject: 's3:DeleteObject',
  // A pre-signed GET is authorized, when used, as the signer's GetObject.
  PresignGetObject: 's3:GetObject',
};
const S3_BUCKET_ACTIONS: Record<string, string> = {
  ListObjectsV2: 's3:ListBucket',
  ListObjects: 's3:ListBucket',
  GetBucketEncryption: 's3:GetEncryptionConfiguration',
  GetBucketPolicy: 's3:GetBucketPolicy',
  PutBucketPolicy: 's3:PutBucketPolicy',
  DeleteBucketPolicy: 's3:DeleteBucketPolicy',
  GetPublicAccessBlock: 's3:GetBucketPublicAccessBlock',
  GetBucketLifecycleConfiguration: 's3:GetLifecycleConfiguration',
};
const SQS_ACTIONS: Record<string, string> = {
  SendMessage: 'sqs:SendMessage',
  SendMessageBatch: 'sqs:SendMessage',
  ReceiveMessage: 'sqs:ReceiveMessage',
  DeleteMessage: 'sqs:DeleteMessage',
  DeleteMessageBatch: 'sqs:DeleteMessage',
  ChangeMessageVisibility: 'sqs:ChangeMessageVisibility',
  GetQueueAttributes: 'sqs:GetQueueAttributes',
};

/**
 * CloudWatch Logs operations on one log group. IAM evaluates them against
 * `log-group:NAME:log-stream:` (the resource AWS's AccessDenied messages name), not the
 * bare `log-group:NAME` of the resource-type table, which a policy naming only the bare ARN
 * would seem to allow: only `log-group:NAME:*` matches what the service sends.
 */
const LOGS_GROUP_ACTIONS: Record<string, string> = {
  CreateLogGroup: 'logs:CreateLogGroup',
  PutRetentionPolicy: 'logs:PutRetentionPolicy',
  DescribeSubscriptionFilters: 'logs:DescribeSubscriptionFilters',
  PutSubscriptionFilter: 'logs:PutSubscriptionFilter',
  DeleteSubscriptionFilter: 'logs:DeleteSubscriptionFilter',
};

/** The resource IAM evaluates a log-group-level CloudWatch Logs request against. */
export function logGroupRequestArn(d: Resolver['d'], logGroupName: string): string {
  return `arn:${d.partition}:logs:${d.region}:${d.accountId}:log-group:${logGroupName}:log-stream:`;
}

export interface Keys {
  /** The key S3 encrypts the logs bucket's objects with (SSE-KMS), if any. */
  bucketKey?: string;
  /** The customer managed key of the webhook SecureString, if any. */
  parameterKey?: string;
  /** The customer managed key of the report-link secret, if any. */
  secretKey?: string;
}

/** The IAM requests behind one recorded SDK call; throws for a call it does not know. */
export function requestsForCall(c: RawCall, t: Translate, d: Resolver['d'], keys: Keys): IamRequest[] {
  const why = `${c.service} ${c.operation}${c.outcome === 'ok' ? '' : ` (${c.outcome})`}`;
  const req = (action: string, resource: string, context: IamRequest['context'] = {}): IamRequest => ({
    fn: c.fn,
    action,
    resource,
    context,
    why,
  });
  const input = c.input;
  if (c.service === 'S3') {
    const bucket = t.bucket(String(input.Bucket));
    if (c.operation in S3_OBJECT_ACTIONS) {
      const action = S3_OBJECT_ACTIONS[c.operation]!;
      const out = [req(action, `arn:${d.partition}:s3:::${bucket}/${String(input.Key)}`)];
      // S3 tells a missing key (404) from a denied one (403) only to a caller that may list
      // the bucket; no s3:prefix condition is documented for that check, so none is set.
      if (action === 's3:GetObject')
        out.push({
          ...req('s3:ListBucket', `arn:${d.partition}:s3:::${bucket}`),
          why: `${why}: may find no object`,
        });
      if (keys.bucketKey && action === 's3:GetObject')
        out.push({ ...req('kms:Decrypt', keys.bucketKey), why: `${why}: SSE-KMS object` });
      if (keys.bucketKey && action === 's3:PutObject')
        out.push({ ...req('kms:GenerateDataKey', keys.bucketKey), why: `${why}: SSE-KMS object` });
      return out;
    }
    if (c.operation in S3_BUCKET_ACTIONS) {
      const action = S3_BUCKET_ACTIONS[c.operation]!;
      const context: IamRequest['context'] =
        action === 's3:ListBucket'
          ? {
              's3:prefix': String(input.Prefix ?? ''),
              ...(input.Delimiter !== undefined ? { 's3:delimiter': String(input.Delimiter) } : {}),
              ...(input.MaxKeys !== undefined ? { 's3:max-keys': String(input.MaxKeys) } : {}),
            }
          : {};
      return [req(action, `arn:${d.partition}:s3:::${bucket}`, context)];
    }
  }
  if (c.service === 'SQS' && c.operation in SQS_ACTIONS)
    return [req(SQS_ACTIONS[c.operation]!, t.queueArn(String(input.QueueUrl)))];
  if (c.service === 'SNS' && c.operation === 'Publish')
    return [req('sns:Publish', t.topicArn(String(input.TopicArn)))];
  if (c.service === 'SSM' && c.operation === 'GetParameter') {
    const name = t.parameterName(String(input.Name));
    const arn = `arn:${d.partition}:ssm:${d.region}:${d.accountId}:parameter${name.startsWith('/') ? '' : '/'}${name}`;
    const out = [req('ssm:GetParameter', arn)];
    if (keys.parameterKey && input.WithDecryption)
      out.push({
        ...req('kms:Decrypt', keys.parameterKey),
        why: `${why}: SecureString under a customer managed key`,
      });
    return out;
  }
  if (c.service === 'SecretsManager' && c.operation === 'GetSecretValue') {
    const stage = String(input.VersionStage ?? 'AWSCURRENT');
    const out = [
      req('secretsmanager:GetSecretValue', t.secretArn(String(input.SecretId)), {
        'secretsmanager:VersionStage': stage,
      }),
    ];
    if (keys.secretKey)
      out.push({ ...req('kms:Decrypt', keys.secretKey), why: `${why}: secret under a customer managed key` });
    return out;
  }
  if (c.service === 'CloudWatchLogs' && c.operation in LOGS_GROUP_ACTIONS) {
    const out = [req(LOGS_GROUP_ACTIONS[c.operation]!, logGroupRequestArn(d, String(input.logGroupName)))];
    // A subscription filter's role is passed to CloudWatch Logs.
    // (Service Authorization Reference: iam:PassRole on the role's ARN, with iam:PassedToService.)
    if (c.operation === 'PutSubscriptionFilter' && input.roleArn !== undefined)
      out.push({
        ...req('iam:PassRole', String(input.roleArn), { 'iam:PassedToService': 'logs.amazonaws.com' }),
        why: `${why}: passes its role`,
      });
    return out;
  }
  if (c.service === 'EventBridge' && c.operation === 'PutEvents') {
    const buses = new Set(
      ((input.Entries as { EventBusName?: string }[] | undefined) ?? []).map(
        (e) => e.EventBusName ?? 'default',
      ),
    );
    return [...buses].map((b) =>
      req(
        'events:PutEvents',
        b.startsWith('arn:') ? b : `arn:${d.partition}:events:${d.region}:${d.accountId}:event-bus/${b}`,
      ),
    );
  }
  throw new Error(`no IAM mapping for ${c.service} ${c.operation}: add it to iam-requests.ts`);
}

/** Function key (as in serverless.yml) of each Lambda function resource: osls names it <Key>LambdaFunction. */
export function functionKeys(t: Template): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, res] of Object.entries(t.Resources))
    if (res.Type === 'AWS::Lambda::Function') {
      const key = id.replace(/LambdaFunction$/, '');
      out.set(id, key.charAt(0).toLowerCase() + key.slice(1));
    }
  return out;
}

const refTarget = (v: Json | undefined): string | undefined => {
  if (!isObject(v)) return undefined;
  if (typeof v.Ref === 'string') return v.Ref;
  const g = v['Fn::GetAtt'];
  return Array.isArray(g) ? String(g[0]) : undefined;
};

/** What AWS does with each function's role on its behalf, read from the template. */
export function implicitRequests(t: Template, r: Resolver): IamRequest[] {
  const fnKeys = functionKeys(t);
  const out: IamRequest[] = [];
  const d = r.d;
  for (const [id, fn] of fnKeys) {
    const name = r.string(t.Resources[id]!.Properties!.FunctionName!);
    const group = `arn:${d.partition}:logs:${d.region}:${d.accountId}:log-group:/aws/lambda/${name}`;
    const stream = `${group}:log-stream:2026/12/02/[$LATEST]0123456789abcdef0123456789abcdef`;
    const why = 'Lambda writes the function log';
    out.push({ fn, action: 'logs:CreateLogStream', resource: stream, context: {}, why });
    out.push({ fn, action: 'logs:PutLogEvents', resource: stream, context: {}, why });
    // With tracing on, Lambda sends the invocation's segments with the function's role. X-Ray's
    // service authorization reference lists no resource type for these actions: `*`.
    const tracing = t.Resources[id]!.Properties!.TracingConfig;
    if (isObject(tracing) && (tracing.Mode === 'Active' || tracing.Mode === 'PassThrough'))
      for (const action of ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'])
        out.push({ fn, action, resource: '*', context: {}, why: 'Lambda sends the function’s traces' });
  }
  for (const res of Object.values(t.Resources)) {
    const p = res.Properties ?? {};
    if (res.Type === 'AWS::Lambda::EventSourceMapping') {
      const fn = fnKeys.get(refTarget(p.FunctionName) ?? '');
      const source = r.string(p.EventSourceArn!);
      if (fn && source.includes(':sqs:'))
        // The permissions AWS documents for an SQS event source (AWSLambdaSQSQueueExecutionRole).
        for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'])
          out.push({ fn, action, resource: source, context: {}, why: 'Lambda polls the SQS event source' });
    }
    if (res.Type === 'AWS::Lambda::EventInvokeConfig') {
      const fn = fnKeys.get(refTarget(p.FunctionName) ?? '');
      const dc = isObject(p.DestinationConfig) ? p.DestinationConfig : {};
      for (const kind of ['OnFailure', 'OnSuccess']) {
        const dest = isObject(dc[kind]) ? (dc[kind] as Record<string, Json>).Destination : undefined;
        if (!fn || dest === undefined) continue;
        const arn = r.string(dest);
        if (arn.includes(':sqs:'))
          out.push({
            fn,
            action: 'sqs:SendMessage',
            resource: arn,
            context: {},
            why: `Lambda's ${kind} destination`,
          });
        if (arn.includes(':sns:'))
          out.push({
            fn,
            action: 'sns:Publish',
            resource: arn,
            context: {},
            why: `Lambda's ${kind} destination`,
          });
      }
    }
  }
  return out;
}

/** KMS requests for publishing to topics encrypted with a customer managed key. */
export function topicKeyRequests(t: Template, r: Resolver, published: IamRequest[]): IamRequest[] {
  const out: IamRequest[] = [];
  for (const [id, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::SNS::Topic' || res.Properties?.KmsMasterKeyId === undefined) continue;
    const key = r.string(res.Properties.KmsMasterKeyId);
    if (key.startsWith('alias/aws/')) continue; // AWS managed: its key policy admits the account's principals.
    const arn = r.arn(id);
    for (const p of published.filter((q) => q.action === 'sns:Publish' && q.resource === arn))
      for (const action of ['kms:GenerateDataKey', 'kms:Decrypt'])
        out.push({ ...p, action, resource: key, context: {}, why: `${p.why}: topic encrypted with ${key}` });
  }
  return out;
}
