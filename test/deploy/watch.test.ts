// What an operator of the deployment watches (infra/watch.yml, lib/deploy/dashboard.ts), on
// the packaged default template: every alarm notifies and says what to look at, watches a
// metric that exists (a queue and function of this stack, or one the functions emit), and
// the dashboard's graphs name only those.
import { METRIC, METRICS_NAMESPACE } from '../../lib/aws/observability';
import { dashboardBody } from '../../lib/deploy/dashboard';
import { readFileSync } from 'fs';
import * as path from 'path';
import { BASE_SPEC, cacheRoot, packaged } from './package-cache';

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
}
let template: { Resources: Record<string, Resource>; Outputs: Json };
let state: { service: { provider: Json } };

beforeAll(async () => {
  const entry = await packaged(BASE_SPEC);
  template = entry.template as typeof template;
  // What osls deploys beside the template: the stack's own settings, its tags among them.
  state = JSON.parse(
    readFileSync(path.join(cacheRoot(), entry.key, 'serverless-state.json'), 'utf8'),
  ) as typeof state;
}, 300_000);

const SERVICE = 'koperator-audit-test';
const WATCH = [
  'IngestQueueAgeAlarm',
  'AnalysisQueueAgeAlarm',
  'StaleAnalysesAlarm',
  'AnalysisDurationAlarm',
  'AnalyzeMemoryAlarm',
  'IngestMemoryAlarm',
];
const res = (id: string): Resource => {
  const r = template.Resources[id];
  if (!r) throw new Error(`no resource ${id}`);
  return r;
};
const ofType = (type: string): [string, Resource][] =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const functionNames = (): string[] =>
  ofType('AWS::Lambda::Function').map(([, f]) => f.Properties.FunctionName as string);
const queueNames = (): string[] => ofType('AWS::SQS::Queue').map(([, q]) => q.Properties.QueueName as string);
const emitted = new Set<string>(Object.values(METRIC));

describe('the alarms an operator watches', () => {
  it.each(WATCH)('%s notifies, clears, and says what to look at', (id) => {
    const a = res(id).Properties;
    expect(a.AlarmActions).toEqual({ 'Fn::If': ['HasAlarmTopic', [''], [{ Ref: 'AlarmTopic' }]] });
    expect(a.OKActions).toEqual(a.AlarmActions);
    expect(a.AlarmName).toMatch(new RegExp(`^${SERVICE}-`));
    expect(a.AlarmDescription).toMatch(/look at|raise/i);
    // CloudWatch's own limit on the description.
    expect((a.AlarmDescription as string).length).toBeLessThanOrEqual(1024);
  });

  it('watches queues of this stack, by name, for their oldest message', () => {
    for (const [id, queue] of [
      ['IngestQueueAgeAlarm', 'IngestQueue'],
      ['AnalysisQueueAgeAlarm', 'AnalysisQueue'],
    ]) {
      const a = res(id!).Properties;
      expect(a).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage' });
      expect(a.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }]);
      expect(res(queue!).Type).toBe('AWS::SQS::Queue');
    }
  });

  it('warns of an analysis at 80 % of the timeout the function really has', () => {
    const analyze = ofType('AWS::Lambda::Function').find(
      ([, f]) => f.Properties.FunctionName === `${SERVICE}-analyze`,
    )!;
    const a = res('AnalysisDurationAlarm').Properties;
    expect(a.Dimensions).toEqual([{ Name: 'FunctionName', Value: `${SERVICE}-analyze` }]);
    expect(a.Threshold).toBe((analyze[1].Properties.Timeout as number) * 1000 * 0.8);
  });

  it('watches only metrics the functions emit, with the dimensions they emit them under', () => {
    const custom = ofType('AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.Namespace === METRICS_NAMESPACE,
    );
    expect(custom.length).toBeGreaterThanOrEqual(4);
    for (const [, a] of custom) {
      expect(emitted.has(a.Properties.MetricName as string)).toBe(true);
      expect((a.Properties.Dimensions as Json[])[0]).toEqual({ Name: 'service', Value: SERVICE });
    }
    for (const id of ['AnalyzeMemoryAlarm', 'IngestMemoryAlarm'])
      expect((res(id).Properties.Dimensions as Json[])[1]).toMatchObject({ Name: 'function' });
  });
});

describe('tags', () => {
  it('tags the stack with the application and the stage, which CloudFormation copies onto each resource that takes tags', () => {
    expect(state.service.provider.stackTags).toEqual({ application: 'koperator-audit', stage: 'test' });
  });
});

describe('tracing', () => {
  it('traces every function of the pipeline, ingest to publication, actively by default', () => {
    const traced = ofType('AWS::Lambda::Function')
      .filter(([, f]) => (f.Properties.TracingConfig as Json | undefined)?.Mode === 'Active')
      .map(([, f]) => (f.Properties.FunctionName as string).replace(`${SERVICE}-`, ''))
      .sort();
    expect(traced).toEqual(['analyze', 'dispatchAnalysis', 'ingest', 'notifySlack', 'reportLink']);
  });
});

describe('the dashboard', () => {
  const body = (): {
    widgets: Array<{ x: number; y: number; width: number; height: number; properties: Json }>;
  } => {
    const sub = (res('Dashboard').Properties.DashboardBody as { 'Fn::Sub': string })['Fn::Sub'];
    // Fn::Sub is given only the region to fill; anything else in ${} would fail the deploy.
    expect(sub.match(/\$\{[^}]*\}/g)?.every((v) => v === '${AWS::Region}')).toBe(true);
    return JSON.parse(sub.replaceAll('${AWS::Region}', 'eu-west-1')) as ReturnType<typeof body>;
  };

  it('is the one lib/deploy/dashboard.ts builds for this stage, with its link in the outputs', () => {
    expect(res('Dashboard').Properties.DashboardName).toBe(SERVICE);
    expect(body()).toEqual(
      JSON.parse(
        JSON.stringify(dashboardBody({ service: 'koperator-audit', stage: 'test', slack: true })).replaceAll(
          '${AWS::Region}',
          'eu-west-1',
        ),
      ),
    );
    expect(JSON.stringify(template.Outputs.DashboardUrl)).toContain(`#dashboards:name=${SERVICE}`);
  });

  it("graphs only this stack's functions and queues and the metrics the functions emit", () => {
    const functions = new Set(functionNames());
    const queues = new Set(queueNames());
    let rows = 0;
    for (const w of body().widgets) {
      for (const row of w.properties.metrics as Array<Array<string | Json>>) {
        rows++;
        const [first] = row;
        if (typeof first !== 'string') {
          // A SEARCH over one of the functions' metrics, in this stage's service.
          const expr = (first as { expression: string }).expression;
          const metric = /MetricName="([^"]+)"/.exec(expr)?.[1] ?? '';
          expect(emitted.has(metric)).toBe(true);
          expect(expr).toContain(`service="${SERVICE}"`);
          continue;
        }
        const [ns, metric, dim, value] = row as string[];
        if (ns === 'AWS/Lambda') expect(functions.has(value!)).toBe(true);
        else if (ns === 'AWS/SQS') expect(queues.has(value!)).toBe(true);
        else {
          expect([ns, emitted.has(metric!), dim, value]).toEqual([
            METRICS_NAMESPACE,
            true,
            'service',
            SERVICE,
          ]);
        }
      }
    }
    expect(rows).toBeGreaterThan(10);
  });

  it('lays its graphs out on the 24-column grid without overlap', () => {
    const ws = body().widgets;
    for (const w of ws) expect(w.x + w.width).toBeLessThanOrEqual(24);
    for (let i = 0; i < ws.length; i++)
      for (let j = i + 1; j < ws.length; j++) {
        const [a, b] = [ws[i]!, ws[j]!];
        const overlap =
          a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        expect(overlap).toBe(false);
      }
  });
});
