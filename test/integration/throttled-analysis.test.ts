// Without reserved concurrency (the default), a throttled analysis must be retried, not
// dead-lettered, while a run that really fails must still be dead-lettered (and alarmed)
// before analysisMaxAge would skip it as stale. On fauxqs (real SQS over the wire): the
// analysis queue is made with the template's own VisibilityTimeout and maxReceiveCount for
// each setting of reservedConcurrency; Lambda's event source mapping is played by the test,
// a throttle being a receive whose invocation never happens (the message comes back when its
// visibility times out: fast-forwarded here). What the emulator cannot show, Lambda retrying
// a throttled invoke inside one receive, is left to the queue sizes checked below.
import { readFileSync } from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import { gzipSync } from 'zlib';
import { drainQueue, receiveBatch } from '../../lib/local-aws/local-stack';
import { lambdaContext, sqsEventFromMessages } from '../../lib/local-aws/local-lambda';
import { sendAnalysisRequests, parseAnalysisRequest } from '../../lib/aws/analysis-queue';
import { writeFacts } from '../../lib/aws/facts-store';
import { parseDurationSeconds } from '../../lib/config/duration';
import { defaultLayout } from '../../lib/aws/bucket-layout';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { deploy, handlerEnv, receivedAlerts, type Env } from './support';

const root = path.join(__dirname, '..', '..');
type Json = Record<string, unknown>;
const fleet = yaml.load(readFileSync(path.join(root, 'infra', 'fleet.yml'), 'utf8')) as {
  Resources: Record<string, { Properties: Json }>;
};
const queues = yaml.load(readFileSync(path.join(root, 'infra', 'queues.yml'), 'utf8')) as {
  Resources: Record<string, { Properties: Json }>;
};
const sls = readFileSync(path.join(root, 'serverless.yml'), 'utf8');
const param = (name: string): string => new RegExp(`^    ${name}: '?([^'\\n]*)'?$`, 'm').exec(sls)![1]!;
/** The `timeout:` of a function in serverless.yml. */
const timeoutOf = (fn: string): number => {
  const block = new RegExp(`^  ${fn}:\\n([\\s\\S]*?)(?=^  \\S|^\\S)`, 'm').exec(sls)![1]!;
  return Number(/^ {4}timeout: (\d+)$/m.exec(block)![1]);
};

const analysis = fleet.Resources.AnalysisQueue!.Properties;
/** maxReceiveCount as CloudFormation resolves it for reservedConcurrency=true / false. */
function maxReceiveCount(reserved: boolean): number {
  const v = (analysis.RedrivePolicy as Json).maxReceiveCount as { 'Fn::If': [string, number, number] };
  expect(v['Fn::If'][0]).toBe('ReserveConcurrency');
  return reserved ? v['Fn::If'][1] : v['Fn::If'][2];
}

describe('queue sizes for throttled runs (template arithmetic)', () => {
  it('defaults to no reservation', () => {
    expect(param('reservedConcurrency')).toBe('false');
  });

  it('ingest: visibility six times the function timeout and five receives (AWS’s advice for SQS sources)', () => {
    const ingest = queues.Resources.IngestQueue!.Properties;
    expect(ingest.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeoutOf('ingest'));
    expect((ingest.RedrivePolicy as Json).maxReceiveCount).toBeGreaterThanOrEqual(5);
  });

  it('analysis without reservation: the last receive comes before analysisMaxAge makes a request stale', () => {
    const visibility = analysis.VisibilityTimeout as number;
    expect(visibility).toBeGreaterThan(timeoutOf('analyze'));
    const maxAge = parseDurationSeconds(param('analysisMaxAge'))!;
    // Receives at 0, v, 2v, ...: the last one must still run, not be skipped as stale.
    expect((maxReceiveCount(false) - 1) * visibility).toBeLessThan(maxAge);
    expect(maxReceiveCount(false)).toBeGreaterThan(maxReceiveCount(true));
  });
});

describe('a throttled analysis on the emulator (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  const saved = { ...process.env };
  let runTime: Date;
  let loops = 0;
  const GOOD = 'eks-good';
  const BROKEN = 'eks-broken';

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'throttle-logs');
    handlerEnv(fx, env.stack, { LOOKBACK: '12h', POWERTOOLS_LOG_LEVEL: 'SILENT' });
    const sim = simulateCluster({
      seed: 31,
      start: '2026-11-02T06:00:00Z',
      noiseRatio: 0.2,
      scenarios: ['scaleops-loop'],
    });
    loops = sim.truth.loops.length;
    runTime = new Date(Math.max(...sim.audit.map((e) => Date.parse(e.stageTimestamp))) + 1000);
    await writeFacts(
      env.s3,
      env.stack.bucket,
      defaultLayout(),
      { cluster: GOOD, bucket: env.stack.bucket, key: `logs/${GOOD}/a.log`, etag: 'e1' },
      simulatedFacts(sim),
    );
    await env.s3.send(
      new PutObjectCommand({
        Bucket: env.stack.bucket,
        Key: `facts/cluster=${BROKEN}/hour=2026-11-02-06/${'0'.repeat(40)}.jsonl.gz`,
        Body: gzipSync('not facts'),
      }),
    );
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('the emulated stack’s analysis queue dead-letters after as many receives as a default deployment’s', async () => {
    const attrs = await env.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: env.stack.analysisQueueUrl,
        AttributeNames: ['RedrivePolicy'],
      }),
    );
    const redrive = JSON.parse(attrs.Attributes!.RedrivePolicy!) as { maxReceiveCount: number | string };
    expect(Number(redrive.maxReceiveCount)).toBe(maxReceiveCount(param('reservedConcurrency') === 'true'));
  });

  /** The analysis queue and its dead-letter queue as the template makes them for this setting. */
  async function analysisQueue(
    reserved: boolean,
    name: string,
  ): Promise<{ url: string; arn: string; dlq: string }> {
    const dlq = await env.sqs.send(
      new CreateQueueCommand({ QueueName: `${name}-dlq.fifo`, Attributes: { FifoQueue: 'true' } }),
    );
    const dlqArn = (
      await env.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
      )
    ).Attributes!.QueueArn!;
    const q = await env.sqs.send(
      new CreateQueueCommand({
        QueueName: `${name}.fifo`,
        Attributes: {
          FifoQueue: 'true',
          VisibilityTimeout: String(analysis.VisibilityTimeout),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn,
            maxReceiveCount: maxReceiveCount(reserved),
          }),
        },
      }),
    );
    const arn = (
      await env.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: q.QueueUrl, AttributeNames: ['QueueArn'] }),
      )
    ).Attributes!.QueueArn!;
    return { url: q.QueueUrl!, arn, dlq: dlq.QueueUrl! };
  }

  /**
   * One attempt of the event source mapping: receive the cluster's request; if throttled, the
   * function is never invoked and the message comes back after its visibility timeout
   * (fast-forwarded); else run the analysis and delete the message or, when it reports a
   * failure, let it come back likewise. Returns what happened, or null if nothing was received.
   */
  async function attempt(
    q: { url: string; arn: string },
    throttled: boolean,
  ): Promise<'throttled' | 'ok' | 'failed' | null> {
    const [m] = await receiveBatch(env.sqs, q.url, 1);
    if (!m) return null;
    const back = (msg: Message) =>
      env.sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: q.url,
          ReceiptHandle: msg.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    if (throttled) {
      await back(m);
      return 'throttled';
    }
    const { analyzeBatch } = await import('../../functions/analyze');
    const res = await analyzeBatch(sqsEventFromMessages([m], q.arn), lambdaContext('analyze'));
    if (res.batchItemFailures.length > 0) {
      await back(m);
      return 'failed';
    }
    await env.sqs.send(new DeleteMessageCommand({ QueueUrl: q.url, ReceiptHandle: m.ReceiptHandle }));
    return 'ok';
  }

  async function run(
    reserved: boolean,
    cluster: string,
    plan: boolean[],
  ): Promise<{ steps: (string | null)[]; dead: string[] }> {
    const q = await analysisQueue(reserved, `${cluster}-${reserved ? 'reserved' : 'shared'}`);
    await sendAnalysisRequests(env.sqs, q.url, [{ cluster, time: runTime.toISOString() }]);
    const steps: (string | null)[] = [];
    for (const throttled of plan) steps.push(await attempt(q, throttled));
    const dead = (await drainQueue(env.sqs, q.dlq)).map((m) => parseAnalysisRequest(m.Body ?? '').cluster);
    return { steps, dead };
  }

  it('without reservation, two throttles then a run: analysed and alerted, nothing dead-lettered', async () => {
    const r = await run(false, GOOD, [true, true, false]);
    expect(r.steps).toEqual(['throttled', 'throttled', 'ok']);
    expect(r.dead).toEqual([]);
    const { alerts } = await receivedAlerts(env);
    expect(alerts.filter((a) => a.cluster === GOOD && a.event === 'loop-started')).toHaveLength(loops);
    expect(loops).toBeGreaterThan(0);
  }, 120_000);

  it('with maxReceiveCount 2 (the reserved setting), the same two throttles would dead-letter the request', async () => {
    const r = await run(true, GOOD, [true, true, false]);
    expect(r.steps).toEqual(['throttled', 'throttled', null]);
    expect(r.dead).toEqual([GOOD]);
  }, 120_000);

  it('without reservation, a run that fails every time is dead-lettered after three receives', async () => {
    const r = await run(false, BROKEN, [false, false, false, false]);
    expect(r.steps).toEqual(['failed', 'failed', 'failed', null]);
    expect(r.dead).toEqual([BROKEN]);
  }, 120_000);
});
