// The packaged stack checked against AWS's own rules, offline, for every parameter set:
// CloudFormation's resource schemas and AWS's name limits, the dependency graph (no
// cycle), and the role policies evaluated by an IAM simulator against every call the
// functions make in an emulated end-to-end run. Each check is also shown to fail on a
// planted fault. The emulator enforces none of these rules, so only these tests see them.
import { cycles, danglingReferences, dependencyGraph } from './rules/dependency-graph';
import { notePresigned } from './rules/call-recorder';
import { recordedRun, type RecordedRun } from './rules/emulated-run';
import { customResourceCalls } from './rules/custom-resource-run';
import { evaluateRequests, rolesOfFunctions, rolesOfServices } from './rules/iam-check';
import {
  functionKeys,
  implicitRequests,
  requestsForCall,
  topicKeyRequests,
  type IamRequest,
  type Translate,
} from './rules/iam-requests';
import { KEY_USES, layoutRequests, uncatalogued } from './rules/layout-requests';
import { nameViolations } from './rules/name-limits';
import { packageAll, PARAMETER_SETS, type Packaged } from './rules/packaged-sets';
import { Resolver } from './rules/resolve';
import { retryConflicts, survivorsOfFailedCreate } from './rules/rollback';
import {
  bucketPolicySpecOf,
  putExistingBucketPolicy,
  restoreExistingBucketPolicy,
} from '../../lib/aws/bucket-policy';
import { schemaViolations, specDatabase } from './rules/schema-check';
import { slackResources } from './rules/slack-resources';
import { firehoseRequests, subscriptionRequests } from './rules/service-requests';
import { effectiveTemplate, type Json, type Template } from './rules/template';

jest.mock('@aws-sdk/s3-request-presigner', () => {
  const actual = jest.requireActual('@aws-sdk/s3-request-presigner');
  return {
    ...actual,
    getSignedUrl: (client: unknown, command: { input: { Bucket?: string; Key?: string } }, opts: unknown) => {
      notePresigned(command.input);
      return actual.getSignedUrl(client, command, opts);
    },
  };
});

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

let packaged: Packaged[];
const runs = new Map<string, RecordedRun>();

/** Each function's environment as the template sets it for this deployment. */
function environments(t: Template): Map<string, Record<string, string>> {
  const r = new Resolver(t);
  const out = new Map<string, Record<string, string>>();
  for (const [id, fn] of functionKeys(t)) {
    const vars = ((t.Resources[id]!.Properties!.Environment as { Variables?: Json } | undefined)?.Variables ??
      {}) as Record<string, Json>;
    out.set(fn, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, r.string(v)])));
  }
  return out;
}

/** The emulated run for this template's function environments (runs shared by sets with the same ones). */
async function runFor(t: Template): Promise<RecordedRun> {
  const envs = environments(t);
  const key = JSON.stringify([...envs]);
  let run = runs.get(key);
  if (!run) {
    run = await recordedRun((fn) => envs.get(fn) ?? {});
    runs.set(key, run);
  }
  return run;
}

/** Emulator names to the ones the template deploys, through the environment variables that carry both. */
function translation(t: Template, run: RecordedRun): Translate {
  const envs = [...environments(t).values()];
  const deployed = (v: string): string | undefined => {
    const carriers: Record<string, string> = {
      [run.stack.bucket]: 'BUCKET',
      [run.stack.topicArn]: 'TOPIC_ARN',
      [run.stack.chatTopicArn]: 'CHAT_TOPIC_ARN',
      [run.stack.analysisQueueUrl]: 'ANALYSIS_QUEUE_URL',
      [run.stack.ingestQueueUrl]: 'INGEST_QUEUE_URL',
      [run.stack.webhookParameter]: 'SLACK_WEBHOOK_PARAMETER',
      [run.stack.linkSecretArn]: 'REPORT_LINK_SECRET',
    };
    const name = carriers[v];
    return name ? envs.find((e) => e[name] !== undefined)?.[name] : undefined;
  };
  const must = (v: string): string => {
    const d = deployed(v);
    if (d === undefined) throw new Error(`the emulated run used ${v}, which no function's environment names`);
    return d;
  };
  return {
    bucket: must,
    topicArn: must,
    parameterName: must,
    secretArn: must,
    queueArn: (url) => {
      const m = /^https:\/\/sqs\.([^.]+)\.amazonaws\.com\/(\d+)\/(.+)$/.exec(must(url));
      if (!m) throw new Error(`not an SQS queue URL: ${must(url)}`);
      return `arn:aws:sqs:${m[1]}:${m[2]}:${m[3]}`;
    },
  };
}

/**
 * The IAM requests of a run: the recorded calls, what AWS does with the roles on the
 * functions' behalf, and KMS where the bucket, a topic or the webhook SecureString uses a
 * customer managed key (the bucket's from its encryption, the SecureString's from the param
 * naming it: the parameter itself is not part of the stack).
 */
function requestsOf(p: Packaged, t: Template, run: RecordedRun): IamRequest[] {
  const r = new Resolver(t);
  const bucketKey = /arn:aws:kms:[^"]+/.exec(
    JSON.stringify(t.Resources.LogsBucket?.Properties?.BucketEncryption ?? ''),
  )?.[0];
  const parameterKey = p.set.params.slackWebhookKmsKeyArn;
  const secretKeyId = t.Resources.ReportLinkSecret?.Properties?.KmsKeyId;
  const secretKey = secretKeyId === undefined ? undefined : r.string(secretKeyId);
  const keys = {
    ...(bucketKey ? { bucketKey } : {}),
    ...(parameterKey ? { parameterKey } : {}),
    ...(secretKey ? { secretKey } : {}),
  };
  const fromCalls = run.calls.flatMap((c) => requestsForCall(c, translation(t, run), r.d, keys));
  return [...fromCalls, ...implicitRequests(t, r), ...topicKeyRequests(t, r, fromCalls)];
}

/** The KMS key S3 encrypts the bucket's objects with: the stack's bucket's, or the param's for an existing bucket. */
function bucketKeyOf(p: Packaged, t: Template): string | undefined {
  const own = /arn:aws:kms:[^"]+/.exec(
    JSON.stringify(t.Resources.LogsBucket?.Properties?.BucketEncryption ?? ''),
  );
  return own?.[0] ?? (p.set.params.kmsKeyArn || undefined);
}

/**
 * The requests of every principal that is not a function at work: each custom resource's
 * function running its own code on the template's properties, and the service roles
 * (Firehose delivering to the bucket, CloudWatch Logs delivering to Firehose).
 */
async function principalRequests(p: Packaged, t: Template): Promise<IamRequest[]> {
  const r = new Resolver(t);
  const calls = await customResourceCalls(t, r);
  const noTranslation = (v: string): string => v;
  const translate: Translate = {
    bucket: noTranslation,
    queueArn: noTranslation,
    topicArn: noTranslation,
    parameterName: noTranslation,
    secretArn: noTranslation,
  };
  return [
    // The custom resources' objects are in the bucket (the saved bucket policy): its key applies.
    ...calls.flatMap((c) => {
      const bucketKey = bucketKeyOf(p, t);
      return requestsForCall(c, translate, r.d, bucketKey ? { bucketKey } : {});
    }),
    ...firehoseRequests(t, r, bucketKeyOf(p, t)),
    ...subscriptionRequests(t, r, calls),
  ];
}

async function principalVerdict(p: Packaged, t: Template) {
  const r = new Resolver(t);
  const roles = new Map([...rolesOfFunctions(t, r), ...rolesOfServices(t, r)]);
  return evaluateRequests(roles, await principalRequests(p, t), '123456789012');
}

beforeAll(async () => {
  packaged = await packageAll();
  specDatabase();
}, 900_000);

describe.each(PARAMETER_SETS.map((s) => [s.name]))('parameter set: %s', (name) => {
  const of = (): Packaged => packaged.find((p) => p.set.name === name)!;

  it('matches AWS’s resource schemas and name limits', () => {
    const t = effectiveTemplate(of().template);
    expect(schemaViolations(t)).toEqual([]);
    expect(nameViolations(t)).toEqual([]);
  });

  it('can be deployed again after a failed first deploy: nothing the rollback keeps is created again', () => {
    const t = effectiveTemplate(of().template);
    expect(retryConflicts(t, new Resolver(t))).toEqual([]);
  });

  it('has no dependency cycle, in any branch', () => {
    expect(danglingReferences(of().template)).toEqual([]);
    expect(cycles(dependencyGraph(of().template))).toEqual([]);
  });

  it('allows every call the functions make, as the role policies say', async () => {
    const p = of();
    const t = effectiveTemplate(p.template);
    const run = await runFor(t);
    // The run did what a deployment does: alerts published and posted.
    expect(run.alerts).toBeGreaterThan(0);
    // ...to Slack only where the notifier is deployed.
    const slack = functionKeys(t).has('NotifySlackLambdaFunction');
    expect(slack).toBe(p.set.params.slackWebhookParameter !== 'none');
    expect(run.slackPosts).toBe(slack ? run.alerts : 0);
    // Where the report-link function is deployed, every alert's two links (JSON, HTML) open.
    const linkFunction = functionKeys(t).has('ReportLinkLambdaFunction');
    expect(linkFunction).toBe((p.set.params.reportLink ?? 'function') === 'function');
    expect(run.linksRedirected).toBe(linkFunction ? 2 * run.alerts : 0);
    const requests = requestsOf(p, t, run);
    const verdict = await evaluateRequests(rolesOfFunctions(t, new Resolver(t)), requests, '123456789012');
    expect(verdict.denied).toEqual([]);
    expect(verdict.evaluated).toBeGreaterThan(10);
    if (verdict.unused.length > 0)
      console.warn(`[${name}] allowed, but no recorded call needs it:\n  ${verdict.unused.join('\n  ')}`);
  }, 300_000);

  it('allows every request of the custom resources and the service roles (Firehose, CloudWatch Logs)', async () => {
    const p = of();
    const t = effectiveTemplate(p.template);
    const verdict = await principalVerdict(p, t);
    expect(verdict.denied).toEqual([]);
    // With clusters listed: each log group created, described, subscribed and unsubscribed
    // (distinct requests: the role passed and the stream put into are one each), Firehose
    // writes, CloudWatch Logs puts.
    const clusters = (p.set.params.eksClusters ?? '').split(',').filter(Boolean).length;
    expect(verdict.evaluated).toBeGreaterThanOrEqual(clusters > 0 ? 4 * clusters + 8 : 0);
    const requests = await principalRequests(p, t);
    const actions = new Set(requests.map((q) => q.action));
    if (clusters > 0)
      for (const a of [
        'logs:CreateLogGroup',
        'logs:PutRetentionPolicy',
        'logs:DescribeSubscriptionFilters',
        'logs:PutSubscriptionFilter',
        'logs:DeleteSubscriptionFilter',
        'iam:PassRole',
        'firehose:PutRecordBatch',
      ])
        expect([a, actions.has(a)]).toEqual([a, true]);
    // The one stream's delivery error log is among them (CloudWatchLoggingOptions on).
    const logged = requests.filter((q) => q.action === 'logs:PutLogEvents');
    expect(logged).toHaveLength(clusters > 0 ? 1 : 0);
  });

  it('grants every key the bucket layout builds to the functions that use it', async () => {
    const t = effectiveTemplate(of().template);
    const envs = environments(t);
    const requests = layoutRequests(envs, envs.get('analyze')!.BUCKET!);
    expect(requests.length).toBeGreaterThanOrEqual(KEY_USES.length);
    const verdict = await evaluateRequests(rolesOfFunctions(t, new Resolver(t)), requests, '123456789012');
    expect(verdict.denied).toEqual([]);
  });
});

describe('slackWebhookParameter=none', () => {
  const of = (name: string): Template => packaged.find((p) => p.set.name === name)!.template;

  it('deploys nothing that exists only for Slack; the default deploys the notifier and all it needs', () => {
    expect(slackResources(of('no Slack'))).toEqual([]);
    expect(slackResources(of('default'))).toEqual(
      expect.arrayContaining([
        'NotifySlackLambdaFunction',
        'NotifySlackLogGroup',
        'NotifySlackLambdaEvConf',
        'NotifySlackSnsSubscriptionKoperatoraudittestalerts',
        'NotifySlackLambdaPermissionKoperatoraudittestalertsSNS',
        'NotifyRole',
        'NotifyDeadLetterQueue',
        'NotifyDeadLetterAlarm',
        'Outputs.NotifyDeadLetterQueueUrl',
      ]),
    );
  });

  // The subscription osls generates, missed by the condition (a wrong logical ID in
  // infra/slack.cjs), and the dead-letter alarm left without it: each is seen.
  it.each<[string, (t: Template) => void, string]>([
    [
      'the generated subscription',
      (t) => delete t.Resources.NotifySlackSnsSubscriptionKoperatoraudittestalerts!.Condition,
      'NotifySlackSnsSubscriptionKoperatoraudittestalerts',
    ],
    [
      'the dead-letter alarm',
      (t) => delete t.Resources.NotifyDeadLetterAlarm!.Condition,
      'NotifyDeadLetterAlarm',
    ],
  ])('a planted fault: %s deployed without the notifier', (_, plant, id) => {
    const t = clone(of('no Slack'));
    plant(t);
    expect(slackResources(t)).toContain(id);
  });
});

/** An existing bucket as S3 keeps it: its policy and its objects (logs among them). */
function existingBucket(policy: string | null) {
  const state = { policy, objects: new Map<string, string>([['logs/prod/audit-1.json.gz', 'logs']]) };
  const client = {
    send: async (c: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const i = c.input;
      switch (c.constructor.name) {
        case 'GetBucketPolicyCommand':
          if (state.policy === null)
            throw Object.assign(new Error('The bucket policy does not exist'), {
              name: 'NoSuchBucketPolicy',
            });
          return { Policy: state.policy };
        case 'PutBucketPolicyCommand':
          state.policy = String(i.Policy);
          return {};
        case 'DeleteBucketPolicyCommand':
          state.policy = null;
          return {};
        case 'PutObjectCommand':
          state.objects.set(String(i.Key), String(i.Body));
          return {};
        case 'GetObjectCommand': {
          const body = state.objects.get(String(i.Key));
          if (body === undefined)
            throw Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey' });
          return { Body: { transformToString: async () => body } };
        }
        default:
          throw new Error(`not modelled: ${c.constructor.name}`);
      }
    },
  };
  return { state, client: client as never };
}

/**
 * A first deploy with existingBucketPolicy=true that fails after the custom resource put the
 * policy (a later resource fails), CloudFormation's rollback on the template's rules (a
 * resource it does not keep is deleted: the custom resource's delete), then the retry.
 */
async function failedFirstDeployThenRetry(t: Template, policy: string | null) {
  const eff = effectiveTemplate(t);
  const spec = bucketPolicySpecOf(
    new Resolver(eff).value(eff.Resources.ExistingBucketPolicy!.Properties!) as never,
  );
  const bucket = existingBucket(policy);
  await putExistingBucketPolicy(bucket.client, spec, null);
  const replaced = bucket.state.policy;
  if (!survivorsOfFailedCreate(eff).includes('ExistingBucketPolicy'))
    await restoreExistingBucketPolicy(bucket.client, spec);
  const afterRollback = bucket.state.policy;
  await putExistingBucketPolicy(bucket.client, spec, null);
  const afterRetry = bucket.state.policy;
  // The stack removed later: the custom resource's delete.
  await restoreExistingBucketPolicy(bucket.client, spec);
  return { spec, replaced, afterRollback, afterRetry, afterRemoval: bucket.state.policy, bucket };
}

describe('existingBucketPolicy=true: the bucket’s own policy saved, kept, and put back', () => {
  const USERS = JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'AnalyticsReads',
        Effect: 'Allow',
        Principal: { AWS: 'arn:aws:iam::123456789012:role/analytics' },
        Action: 's3:GetObject',
        Resource: 'arn:aws:s3:::acme-eks-audit-logs/*',
      },
    ],
  });
  const template = (): Template =>
    clone(packaged.find((p) => p.set.name === 'EKS on an existing bucket')!.template);

  it('a failed first deploy leaves the old policy, the retry works, and a removal puts it back, keeping the logs', async () => {
    const run = await failedFirstDeployThenRetry(template(), USERS);
    // Saved in the bucket, under the state prefix, before anything changed.
    expect(run.spec.savedKey).toBe('state/existing-bucket-policy/koperator-audit-test.json');
    expect(JSON.parse(run.bucket.state.objects.get(run.spec.savedKey)!).policy).toBe(USERS);
    // While deployed: the bucket's statements and the TLS-only one.
    expect(JSON.parse(run.replaced!).Statement.map((x: { Sid: string }) => x.Sid)).toEqual([
      'AnalyticsReads',
      'DenyInsecureTransport',
    ]);
    expect(run.afterRollback).toBe(USERS);
    expect(run.afterRetry).toBe(run.replaced);
    expect(run.afterRemoval).toBe(USERS);
    expect(run.bucket.state.objects.has('logs/prod/audit-1.json.gz')).toBe(true);
  });

  it('a bucket that had no policy has none again after the rollback', async () => {
    const run = await failedFirstDeployThenRetry(template(), null);
    expect(run.afterRollback).toBeNull();
    expect(run.afterRemoval).toBeNull();
  });

  it('a planted fault: the policy retained on rollback (the blocker that was) leaves the replacement', async () => {
    const t = template();
    t.Resources.ExistingBucketPolicy!.DeletionPolicy = 'Retain';
    const run = await failedFirstDeployThenRetry(t, USERS);
    expect(run.afterRollback).not.toBe(USERS);
  });
});

it('the bucket layout’s exports are each a key the IAM checks place, or not a key', () => {
  expect(uncatalogued()).toEqual([]);
});

describe('each check fails on a planted fault', () => {
  const base = (): Template => clone(packaged.find((p) => p.set.name === 'default')!.template);
  type Props = Record<string, Json>;
  const props = (t: Template, id: string): Props => t.Resources[id]!.Properties as Props;

  it.each<[string, (t: Template) => void, RegExp]>([
    [
      'a misspelt property',
      (t) => (props(t, 'IngestQueue').VisibilityTimout = 1800),
      /IngestQueue\.Properties\.VisibilityTimout: AWS::SQS::Queue has no property VisibilityTimout/,
    ],
    [
      'a value of the wrong type',
      (t) => (props(t, 'AnalysisQueue').FifoQueue = 'yes'),
      /FifoQueue: must be a boolean/,
    ],
    [
      'a value outside the allowed ones',
      (t) => {
        const lc = props(t, 'LogsBucket').LifecycleConfiguration as Props;
        lc.TransitionDefaultMinimumObjectSize = 'all';
      },
      /TransitionDefaultMinimumObjectSize: must be one of varies_by_storage_class, all_storage_classes_128K/,
    ],
    [
      'a missing required property',
      (t) => delete props(t, 'IngestRole').AssumeRolePolicyDocument,
      /requires AssumeRolePolicyDocument/,
    ],
    [
      'an attribute the target does not have',
      (t) =>
        (props(t, 'NotifyDeadLetterAlarm').Dimensions = [
          { Name: 'QueueName', Value: { 'Fn::GetAtt': ['NotifyDeadLetterQueue', 'Name'] } },
        ]),
      /NotifyDeadLetterQueue \(AWS::SQS::Queue\) has no attribute Name/,
    ],
    [
      'an unknown deletion policy',
      (t) => (t.Resources.LogsBucket!.DeletionPolicy = 'Keep'),
      /LogsBucket\.DeletionPolicy: Keep is not a policy/,
    ],
    [
      'RetainExceptOnCreate as an update-replace policy (valid only as a deletion policy)',
      (t) => (t.Resources.LogsBucket!.UpdateReplacePolicy = 'RetainExceptOnCreate'),
      /LogsBucket\.UpdateReplacePolicy: RetainExceptOnCreate is not a policy/,
    ],
    [
      'an unknown resource type',
      (t) => (t.Resources.LogsBucket!.Type = 'AWS::S3::Buckets'),
      /AWS::S3::Buckets is not a CloudFormation resource type/,
    ],
  ])('schema: %s', (_, plant, expected) => {
    const t = base();
    plant(t);
    const found = schemaViolations(effectiveTemplate(t));
    expect(found.some((v) => expected.test(v))).toBe(true);
  });

  it('rollback: a logs bucket retained on the rollback of its creation blocks the retry (the blocker that was)', () => {
    const t = base();
    t.Resources.LogsBucket!.DeletionPolicy = 'Retain';
    const eff = effectiveTemplate(t);
    expect(retryConflicts(eff, new Resolver(eff))).toEqual([
      expect.stringMatching(
        /^LogsBucket \(AWS::S3::Bucket koperator-audit-test-1234567db123\) survives the rollback and is created again$/,
      ),
    ]);
  });

  it('names: a function name over Lambda’s 64 characters', () => {
    const t = effectiveTemplate(base());
    props(t, 'DispatchAnalysisLambdaFunction').FunctionName =
      `koperator-audit-${'x'.repeat(32)}-dispatchAnalysis`;
    expect(nameViolations(t)).toEqual([
      expect.stringMatching(/FunctionName: .* \(65 characters\) breaks Lambda/),
    ]);
  });

  it('dependencies: the queue policy naming the bucket by Ref, which waits for the policy (the cycle that was)', () => {
    const t = base();
    const allow = (props(t, 'IngestQueuePolicy').PolicyDocument as { Statement: Props[] }).Statement[0]!;
    (allow.Condition as Props).ArnLike = {
      'aws:SourceArn': {
        'Fn::Sub': [
          'arn:${AWS::Partition}:s3:::${B}',
          { B: { 'Fn::If': ['CreateBucket', { Ref: 'LogsBucket' }, ''] } },
        ],
      },
    };
    expect(cycles(dependencyGraph(t))).toEqual([['IngestQueuePolicy', 'LogsBucket']]);
  });

  it('dependencies: a DependsOn loop through three resources, and one in an Fn::If branch', () => {
    const t = base();
    t.Resources.AlertsTopic!.DependsOn = 'ChatTopic';
    t.Resources.ChatTopic!.DependsOn = 'AnalysisQueue';
    props(t, 'AnalysisQueue').Tags = {
      'Fn::If': ['UseKms', [{ Key: 'k', Value: { Ref: 'AlertsTopic' } }], []],
    };
    expect(cycles(dependencyGraph(t))).toEqual([['AlertsTopic', 'AnalysisQueue', 'ChatTopic']]);
  });

  it.each<[string, (t: Template) => void, RegExp]>([
    [
      'analyze may list only under facts/ (the silent monitor that was)',
      (t) => {
        const s = (
          props(t, 'AnalyzeRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument.Statement.find((x) => x.Sid === 'ListBucket')!;
        s.Condition = { StringLike: { 's3:prefix': ['facts/', 'facts/*'] } };
      },
      /AnalyzeRole: s3:ListBucket on arn:aws:s3:::koperator-audit-test-\w+ is ImplicitlyDenied \(analyze: S3 GetObject \(NoSuchKey 404\): may find no object\)/,
    ],
    [
      'analyze may not publish to the chat topic',
      (t) => {
        const s = (
          props(t, 'AnalyzeRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument.Statement.find((x) => x.Sid === 'PublishAlerts')!;
        s.Resource = [{ Ref: 'AlertsTopic' }];
      },
      /AnalyzeRole: sns:Publish on arn:aws:sns:us-east-1:123456789012:koperator-audit-test-chat is ImplicitlyDenied/,
    ],
    [
      'the analysis may not send its traces',
      (t) => {
        const doc = (props(t, 'AnalyzeRole').Policies as { PolicyDocument: { Statement: Props[] } }[])[0]!
          .PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => x.Sid !== 'SendTraces');
      },
      /AnalyzeRole: xray:PutTraceSegments on \* is ImplicitlyDenied \(analyze: Lambda sends the function’s traces\)/,
    ],
    [
      'ingest may not bring a failed message back soon',
      (t) => {
        const s = (
          props(t, 'IngestRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument.Statement.find((x) => x.Sid === 'ConsumeIngestQueue')!;
        s.Action = (s.Action as string[]).filter((a) => a !== 'sqs:ChangeMessageVisibility');
      },
      /IngestRole: sqs:ChangeMessageVisibility on arn:aws:sqs:us-east-1:123456789012:koperator-audit-test-ingest is ImplicitlyDenied \(ingest: SQS ChangeMessageVisibility\)/,
    ],
    [
      'ingest may not read the logs',
      (t) => {
        const doc = (props(t, 'IngestRole').Policies as { PolicyDocument: { Statement: Props[] } }[])[0]!
          .PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => x.Sid !== 'ReadLogs');
      },
      /IngestRole: s3:GetObject on arn:aws:s3:::koperator-audit-test-\w+\/logs\/eks-rules\/.* is ImplicitlyDenied/,
    ],
    [
      'the report-link function may not read the link secret',
      (t) => {
        const doc = (props(t, 'ReportLinkRole').Policies as { PolicyDocument: { Statement: Props[] } }[])[0]!
          .PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => x.Sid !== 'ReadLinkSecret');
      },
      /ReportLinkRole: secretsmanager:GetSecretValue on arn:aws:secretsmanager:us-east-1:123456789012:secret:koperator-audit-test-ReportLinkSecret-[\w-]+ with \{"secretsmanager:VersionStage":"AWSPREVIOUS"\} is ImplicitlyDenied/,
    ],
    [
      'the report-link function may read facts too, but not reports',
      (t) => {
        const s = (
          props(t, 'ReportLinkRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument.Statement.find((x) => x.Sid === 'ReadReports')!;
        s.Resource = { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::koperator-audit-test-*/facts/*' };
      },
      /ReportLinkRole: s3:GetObject on arn:aws:s3:::koperator-audit-test-\w+\/reports\/cluster=eks-rules\/.*\.html is ImplicitlyDenied \(reportLink: S3 PresignGetObject\)/,
    ],
  ])(
    'IAM: %s',
    async (_, plant, expected) => {
      const t = base();
      plant(t);
      const eff = effectiveTemplate(t);
      const run = await runFor(eff);
      const verdict = await evaluateRequests(
        rolesOfFunctions(eff, new Resolver(eff)),
        requestsOf(packaged[0]!, eff, run),
        '123456789012',
      );
      expect(verdict.denied.some((d) => expected.test(d))).toBe(true);
    },
    300_000,
  );

  // The principals that are not functions at work, on the EKS set: each shown to fail.
  const statementOf = (t: Template, role: string, sid: string): Props =>
    (
      props(t, role).Policies as { PolicyDocument: { Statement: Props[] } }[]
    )[0]!.PolicyDocument.Statement.find((x) => x.Sid === sid)!;
  it.each<[string, string, (t: Template) => void, RegExp]>([
    [
      'the custom resource may act only on the bare log-group ARN (blocker 1)',
      'EKS, 2 clusters',
      (t) => {
        const s = statementOf(t, 'EksLogGroupsRole', 'PrepareAndSubscribeEksLogGroups');
        const sub = s.Resource as { 'Fn::Sub': string };
        sub['Fn::Sub'] = sub['Fn::Sub'].replace(/:\*$/, '');
      },
      /EksLogGroupsRole: logs:CreateLogGroup on arn:aws:logs:us-east-1:123456789012:log-group:\/aws\/eks\/prod-eu\/cluster:log-stream: is ImplicitlyDenied \(eksLogGroups: CloudWatchLogs CreateLogGroup\)/,
    ],
    [
      'the custom resource may not pass the CloudWatch Logs role (PutSubscriptionFilter needs iam:PassRole)',
      'EKS, 2 clusters',
      (t) => {
        const doc = (
          props(t, 'EksLogGroupsRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => x.Sid !== 'PassLogsRole');
      },
      /EksLogGroupsRole: iam:PassRole on arn:aws:iam::123456789012:role\/\S*EksLogsRole\S* with \{"iam:PassedToService":"logs.amazonaws.com"\} is ImplicitlyDenied \(eksLogGroups: CloudWatchLogs PutSubscriptionFilter: passes its role\)/,
    ],
    [
      'the custom resource may pass the role to another service only',
      'EKS, 2 clusters',
      (t) => {
        const s = statementOf(t, 'EksLogGroupsRole', 'PassLogsRole');
        s.Condition = { StringEquals: { 'iam:PassedToService': 'firehose.amazonaws.com' } };
      },
      /EksLogGroupsRole: iam:PassRole on \S+ with \{"iam:PassedToService":"logs.amazonaws.com"\} is ImplicitlyDenied/,
    ],
    [
      'the custom resource may not look for free filter slots',
      'EKS, a fleet of 200',
      (t) => {
        const s = statementOf(t, 'EksLogGroupsRole', 'PrepareAndSubscribeEksLogGroups');
        s.Action = (s.Action as string[]).filter((a) => a !== 'logs:DescribeSubscriptionFilters');
      },
      /EksLogGroupsRole: logs:DescribeSubscriptionFilters on arn:aws:logs:us-east-1:123456789012:log-group:\/aws\/eks\/eks-eu-west-1-team-kafka-0199\/cluster:log-stream: is ImplicitlyDenied/,
    ],
    [
      'the custom resource may not take back a filter (update, delete)',
      'EKS, 2 clusters',
      (t) => {
        const s = statementOf(t, 'EksLogGroupsRole', 'PrepareAndSubscribeEksLogGroups');
        s.Action = (s.Action as string[]).filter((a) => a !== 'logs:DeleteSubscriptionFilter');
      },
      /EksLogGroupsRole: logs:DeleteSubscriptionFilter on arn:aws:logs:us-east-1:123456789012:log-group:\/aws\/eks\/prod_us\/cluster:log-stream: is ImplicitlyDenied/,
    ],
    [
      'the custom resource may not subscribe Container Insights’ groups (eksOperatorLogs)',
      'EKS with KMS',
      (t) => {
        const doc = (
          props(t, 'EksLogGroupsRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
        )[0]!.PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => x.Sid !== 'SubscribeOperatorLogGroups');
      },
      /EksLogGroupsRole: logs:DescribeSubscriptionFilters on arn:aws:logs:us-east-1:123456789012:log-group:\/aws\/containerinsights\/prod-eu\/application:log-stream: is ImplicitlyDenied/,
    ],
    [
      'the custom resource may subscribe a named operator group by its bare ARN only',
      'EKS on an existing bucket',
      (t) => {
        const s = statementOf(t, 'EksLogGroupsRole', 'SubscribeOperatorLogGroups');
        for (const r of s.Resource as { 'Fn::Sub': string }[])
          r['Fn::Sub'] = r['Fn::Sub'].replace(/:\*$/, '');
      },
      /EksLogGroupsRole: logs:PutSubscriptionFilter on arn:aws:logs:us-east-1:123456789012:log-group:\/fluent-bit\/prod_us\/kafka-operator:log-stream: is ImplicitlyDenied/,
    ],
    [
      'the custom resource may not save the existing bucket’s policy',
      'EKS on an existing bucket',
      (t) => {
        const doc = (props(t, 'EksLogGroupsRole').Policies as { PolicyDocument: { Statement: Json[] } }[])[0]!
          .PolicyDocument;
        doc.Statement = doc.Statement.filter((x) => !JSON.stringify(x).includes('SaveExistingBucketPolicy'));
      },
      /EksLogGroupsRole: s3:PutObject on arn:aws:s3:::acme-eks-audit-logs\/state\/existing-bucket-policy\/koperator-audit-test\.json is ImplicitlyDenied/,
    ],
    [
      'Firehose may not write failed records',
      'EKS, 2 clusters',
      (t) => {
        const s = statementOf(t, 'EksFirehoseRole', 'WriteClusterLogs');
        s.Resource = (s.Resource as Json[]).slice(0, -1);
      },
      /EksFirehoseRole: s3:PutObject on arn:aws:s3:::koperator-audit-test-\w+\/firehose-errors\/_eks\/processing-failed\/\S+ is ImplicitlyDenied/,
    ],
    [
      'Firehose may not use the bucket’s key',
      'EKS with KMS',
      (t) => {
        const doc = (props(t, 'EksFirehoseRole').Policies as { PolicyDocument: { Statement: Json[] } }[])[0]!
          .PolicyDocument;
        doc.Statement = doc.Statement.slice(0, 2);
      },
      /EksFirehoseRole: kms:GenerateDataKey on arn:aws:kms:us-east-1:123456789012:key\/1234abcd\S+ is ImplicitlyDenied/,
    ],
    [
      'Firehose may log its delivery errors to another log stream only (the console’s default name)',
      'EKS, 2 clusters',
      (t) => {
        const sub = statementOf(t, 'EksFirehoseRole', 'LogDeliveryErrors').Resource as { 'Fn::Sub': string };
        sub['Fn::Sub'] = sub['Fn::Sub'].replace(/S3Delivery$/, 'DestinationDelivery');
      },
      /EksFirehoseRole: logs:PutLogEvents on arn:aws:logs:us-east-1:123456789012:log-group:\/aws\/kinesisfirehose\/koperator-audit-test-eks:log-stream:S3Delivery is ImplicitlyDenied/,
    ],
    [
      'CloudWatch Logs may put into another stream only',
      'EKS, 2 clusters',
      (t) => {
        const s = statementOf(t, 'EksLogsRole', 'PutIntoDeliveryStream');
        s.Resource = {
          'Fn::Sub': 'arn:${AWS::Partition}:firehose:${AWS::Region}:${AWS::AccountId}:deliverystream/other',
        };
      },
      /EksLogsRole: firehose:PutRecordBatch on arn:aws:firehose:us-east-1:123456789012:deliverystream\/koperator-audit-test-eks is ImplicitlyDenied \(EksLogsRole: CloudWatch Logs delivers \/aws\/eks\/prod-eu\/cluster \(put by eksLogGroups\)\)/,
    ],
  ])('IAM of other principals: %s', async (_, setName, plant, expected) => {
    const p = packaged.find((x) => x.set.name === setName)!;
    const t = clone(p.template);
    plant(t);
    const verdict = await principalVerdict(p, effectiveTemplate(t));
    expect(verdict.denied.some((d) => expected.test(d))).toBe(true);
  });

  // The layout's keys alone, without the emulated run: each shown to fail on a role that
  // grants its prefix only in part.
  const narrow = (sid: string, from: string, to: string) => (t: Template) => {
    const s = (
      props(t, 'AnalyzeRole').Policies as { PolicyDocument: { Statement: Props[] } }[]
    )[0]!.PolicyDocument.Statement.find((x) => x.Sid === sid)!;
    const sub = (s.Resource as { 'Fn::Sub': [string, Json] })['Fn::Sub'];
    if (!sub[0].endsWith(from)) throw new Error(`${sid}: ${sub[0]} does not end with ${from}`);
    sub[0] = sub[0].slice(0, -from.length) + to;
  };
  it.each<[string, (t: Template) => void, RegExp]>([
    [
      'analyze may write only JSON reports',
      narrow('WriteReports', '/reports/*', '/reports/*.json'),
      /AnalyzeRole: s3:(Put|Get)Object on arn:aws:s3:::koperator-audit-test-\w+\/reports\/cluster=eks-prod\/\S+\.html is ImplicitlyDenied \(analyze: bucket layout: reportHtmlKey\)/,
    ],
    [
      'analyze may keep only the alert state under the state prefix',
      narrow('AlertState', '/state/*', '/state/*/alerts.json'),
      /AnalyzeRole: s3:(Get|Put)Object on arn:aws:s3:::koperator-audit-test-\w+\/state\/cluster=eks-prod\/(findings-history\.json|facts-window\.pack) is ImplicitlyDenied \(analyze: bucket layout: (findingsHistoryStateKey|factsSnapshotKey)\)/,
    ],
  ])('layout: %s', async (_, plant, expected) => {
    const t = base();
    plant(t);
    const eff = effectiveTemplate(t);
    const envs = environments(eff);
    const verdict = await evaluateRequests(
      rolesOfFunctions(eff, new Resolver(eff)),
      layoutRequests(envs, envs.get('analyze')!.BUCKET!),
      '123456789012',
    );
    // Denied: that kind of key, for each action on it, and nothing else.
    expect(verdict.denied.length).toBeGreaterThan(0);
    expect(verdict.denied.filter((d) => !expected.test(d))).toEqual([]);
  });
});
