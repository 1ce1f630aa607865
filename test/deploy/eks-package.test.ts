// `npm run package` with the EKS onboarding and the reservations turned on, offline: the
// eksClusters param becomes the fleet's resources through osls' own variable resolution
// (infra/eks-shipping.cjs), wired to the stack's bucket, alarm topic and custom resource
// function; a fleet of 200 packages within every limit; a bad cluster name, and a fleet past
// the limits, stop the packaging with a message that names it.
import { mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { auditFilterPattern, renderPattern } from '../../lib/ingest/subscription-filter';
import { parseEksClusters } from '../../lib/deploy/eks-clusters';
import {
  environmentBytes,
  MAX_ENVIRONMENT_BYTES,
  MAX_RESOURCES,
  MAX_ROLE_POLICY_CHARACTERS,
  MAX_TEMPLATE_BYTES,
  rolePolicyCharacters,
  templateBytes,
  type LimitsTemplate,
} from '../../lib/deploy/stack-limits';
import { packaged, runPackage, type PackageRun } from './package-cache';
import { EKS_LARGEST_FLEET, EKS_TWO, eksClusterNames } from './rules/packaged-sets';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  Condition?: string;
  DependsOn?: string | string[];
}

/** A packaging expected to fail: never cached, in folders of its own. */
async function packageFailing(params: Record<string, string>): Promise<PackageRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'koperator-audit-eks-package-'));
  try {
    const [out, home, tmp] = ['package', 'home', 'tmp'].map((d) => path.join(dir, d));
    for (const d of [out!, home!, tmp!]) mkdirSync(d);
    return await runPackage({ stage: 'test', params }, out!, { home: home!, tmp: tmp! });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every Ref and GetAtt target in a value. */
function targets(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(v)) for (const x of v) targets(x, out);
  else if (v && typeof v === 'object') {
    const o = v as Json;
    if (typeof o.Ref === 'string') out.add(o.Ref);
    const ga = o['Fn::GetAtt'];
    if (Array.isArray(ga) && typeof ga[0] === 'string') out.add(ga[0]);
    for (const x of Object.values(o)) targets(x, out);
  }
  return out;
}

describe('osls package with eksClusters and reservedConcurrency=true (offline)', () => {
  let template: { Resources: Record<string, Resource>; Conditions: Json; Outputs: Json; Parameters?: Json };
  const clusters = parseEksClusters(EKS_TWO);

  beforeAll(async () => {
    const entry = await packaged({
      stage: 'test',
      params: { eksClusters: EKS_TWO, reservedConcurrency: 'true' },
    });
    template = entry.template as typeof template;
  }, 300_000);

  it('ships every listed cluster’s log group through the one stream into the stack’s bucket under logs/_eks/', () => {
    const subs = template.Resources.EksSubscriptions!;
    expect(subs.Type).toBe('Custom::EksSubscriptions');
    expect(subs.Properties.LogGroupNames).toEqual(clusters.map((c) => `/aws/eks/${c.name}/cluster`));
    expect(subs.Properties.FilterPattern).toBe(renderPattern(auditFilterPattern()));
    expect(subs.Properties.RetentionInDays).toBe(30);
    expect(subs.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': ['EksLogGroupsLambdaFunction', 'Arn'] });
    const stream = template.Resources.EksDeliveryStream!.Properties;
    const s3 = stream.ExtendedS3DestinationConfiguration as Json;
    expect(stream.DeliveryStreamName).toBe('koperator-audit-test-eks');
    expect(s3.Prefix).toBe('logs/_eks/');
    expect(s3.BufferingHints).toEqual({ IntervalInSeconds: 0, SizeInMBs: 5 });
    // The stack's own bucket, by its constructed name (a Ref would close a dependency cycle).
    expect(JSON.stringify(s3.BucketARN)).toContain(
      '"Fn::If":["CreateBucket",{"Fn::Join":["-",["koperator-audit","test"',
    );
    expect(
      Object.values(template.Resources).filter((r) => r.Type === 'AWS::Logs::SubscriptionFilter'),
    ).toEqual([]);
    // The custom resource function has the time to subscribe a fleet.
    expect(template.Resources.EksLogGroupsLambdaFunction!.Properties.Timeout).toBe(900);
    // The analysis derives the listed clusters' ARNs: its environment does not grow with them.
    expect(
      (template.Resources.AnalyzeLambdaFunction!.Properties.Environment as { Variables: Json }).Variables
        .EKS_CLUSTER_ARN_PREFIX,
    ).toEqual({
      'Fn::If': [
        'ShipEks',
        { 'Fn::Sub': 'arn:${AWS::Partition}:eks:${AWS::Region}:${AWS::AccountId}:cluster/' },
        '',
      ],
    });
  });

  it('points every Ref and GetAtt at a resource, parameter or pseudo parameter of the template', () => {
    const known = new Set([...Object.keys(template.Resources), ...Object.keys(template.Parameters ?? {})]);
    const dangling = [...targets(template.Resources)].filter((t) => !known.has(t) && !t.startsWith('AWS::'));
    expect(dangling).toEqual([]);
    for (const [id, r] of Object.entries(template.Resources))
      for (const d of [r.DependsOn ?? []].flat()) expect([id, known.has(d)]).toEqual([id, true]);
  });

  it('sends the fleet’s alarms to the alarm topic', () => {
    for (const a of [
      'EksLogsStoppedAlarm1',
      'EksDeliveryStuckAlarm',
      'EksThrottledAlarm',
      'EksDeliveryErrorAlarm',
    ])
      expect(template.Resources[a]!.Properties.AlarmActions).toEqual({
        'Fn::If': ['HasAlarmTopic', [''], [{ Ref: 'AlarmTopic' }]],
      });
  });

  // The packaged set of the deploy checks (test/deploy/rules/packaged-sets.ts), from the cache.
  it('packages a fleet of 200 clusters within every limit, and says by how much', async () => {
    const big = (
      await packaged({ stage: 'test', params: { eksClusters: eksClusterNames(EKS_LARGEST_FLEET) } })
    ).template as unknown as LimitsTemplate;
    const resources = Object.keys(big.Resources).length;
    const bytes = templateBytes(big);
    const env = Math.max(
      ...Object.values(big.Resources)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .map((r) =>
          environmentBytes(((r.Properties?.Environment as { Variables?: never })?.Variables ?? {}) as never),
        ),
    );
    const policy = Math.max(
      ...Object.values(big.Resources)
        .filter((r) => r.Type === 'AWS::IAM::Role')
        .map((r) => rolePolicyCharacters(r.Properties?.Policies ?? null)),
    );
    process.stdout.write(
      `fleet of ${EKS_LARGEST_FLEET}: ${resources} resources, template ${bytes} B, largest environment ${env} B, largest role policy ${policy} characters\n`,
    );
    expect(resources).toBeLessThanOrEqual(MAX_RESOURCES);
    expect(bytes).toBeLessThanOrEqual(MAX_TEMPLATE_BYTES);
    expect(env).toBeLessThanOrEqual(MAX_ENVIRONMENT_BYTES);
    expect(policy).toBeLessThanOrEqual(MAX_ROLE_POLICY_CHARACTERS);
  }, 300_000);

  it('reserves concurrency when asked to', () => {
    expect(template.Conditions.ReserveConcurrency).toEqual({ 'Fn::Equals': ['true', 'true'] });
    expect(template.Resources.IngestLambdaFunction!.Properties.ReservedConcurrentExecutions).toEqual({
      'Fn::If': ['ReserveConcurrency', 12, { Ref: 'AWS::NoValue' }],
    });
  });

  // One failing packaging for both package-time checks (osls reports every variable it
  // could not resolve): a bad cluster name, and a prefix the bucket layout refuses
  // (infra/layout.cjs, wired in serverless.yml's custom.bucketLayout).
  it('stops packaging on a cluster name EKS would refuse, and on a prefix not in normal form, naming each', async () => {
    const run = await packageFailing({ eksClusters: 'good,bad.name', factsPrefix: '/facts' });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('factsPrefix "/facts" must be written "facts/"');
    expect(run.output).toContain('"bad.name" is not an EKS cluster name');
  }, 200_000);

  // The stack's limits on the whole template (infra/stack-limits-plugin.cjs), after the
  // variables resolved: a fleet past them stops packaging naming eksClusters.
  it('refuses 1,000 clusters at package time, naming eksClusters', async () => {
    const run = await packageFailing({ eksClusters: eksClusterNames(1000) });
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(
      /eksClusters: 1000 clusters, over the 690 one stack subscribes within its custom resource's 900 s/,
    );
  }, 200_000);

  it('refuses an event source mapping concurrency outside 2-1000, ingest polling past its reservation, and raw logs kept shorter than facts, naming each', async () => {
    const run = await packageFailing({
      analyzeConcurrency: '1',
      ingestMaxConcurrency: '20',
      reservedConcurrency: 'true',
      rawLogsRetentionDays: '7',
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('rawLogsRetentionDays (7) must be at least factsRetentionDays (30)');
    expect(run.output).toContain('analyzeConcurrency must be a whole number from 2 to 1000');
    expect(run.output).toContain('ingestMaxConcurrency (20) must not exceed ingestReservedConcurrency (12)');
  }, 200_000);
});
