// Two analysis runs racing on one cluster, against S3 that enforces conditional writes
// (fauxqs behind a proxy adding the If-Match / If-None-Match checks real S3 makes): only
// one publishes, the other stands down. This is the guard behind the FIFO analysis queue's
// one-run-per-cluster.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { startConditionalProxy, type ConditionalProxy } from './conditional-s3-proxy';
import { AlertStateConflictError, loadAlertState, saveAlertState } from '../../lib/aws/alert-state-store';
import { analyzeCluster } from '../../lib/aws/analyze-run';
import { analyzeConfigFromEnv } from '../../lib/aws/env-config';
import { writeFacts } from '../../lib/aws/facts-store';
import { createLocalStack, drainQueue, type LocalStack } from '../../lib/local-aws/local-stack';
import { emptyAlertState } from '../../lib/alerts/diff';
import { encodeAlertState } from '../../lib/alerts/state';
import { defaultLayout } from '../../lib/aws/bucket-layout';
import { projectRecord } from '../../lib/facts/project';
import type { Fact } from '../../lib/model/facts';
import { simulateCluster } from '../../sim';
import { loopEvent } from '../notify/fixtures';

describe('alert state claims under S3 conditional writes', () => {
  let fx: Fauxqs;
  let proxy: ConditionalProxy;
  let s3: S3Client;
  let sqs: SQSClient;
  let sns: SNSClient;
  let stack: LocalStack;

  beforeAll(async () => {
    fx = await startFauxqs();
    proxy = await startConditionalProxy(fx.endpoint);
    s3 = new S3Client({ ...fx.clientConfig, endpoint: proxy.endpoint });
    sqs = new SQSClient(fx.clientConfig);
    sns = new SNSClient(fx.clientConfig);
    stack = await createLocalStack({ s3, sqs, sns }, { bucket: 'race' });
  });
  afterAll(async () => {
    await proxy?.stop();
    await fx?.stop();
  });

  const config = (clusters: string[]) =>
    analyzeConfigFromEnv({
      BUCKET: 'race',
      TOPIC_ARN: stack.topicArn,
      CLUSTERS: clusters.join(','),
      LOOKBACK: '12h',
    });

  it('maps a failed condition to AlertStateConflictError', async () => {
    const etag = await saveAlertState(s3, 'race', 'state/x.json', '{}', null);
    await expect(saveAlertState(s3, 'race', 'state/x.json', '{}', null)).rejects.toBeInstanceOf(
      AlertStateConflictError,
    );
    await expect(saveAlertState(s3, 'race', 'state/x.json', '{}', '"stale"')).rejects.toBeInstanceOf(
      AlertStateConflictError,
    );
    await expect(saveAlertState(s3, 'race', 'state/x.json', '{"b":1}', etag)).resolves.toBeTruthy();
    expect((await loadAlertState(s3, 'race', 'state/x.json')).text).toBe('{"b":1}');
  });

  it('publishes leftovers of a crashed run once when two runs find them', async () => {
    const state = {
      ...emptyAlertState('left'),
      pending: [{ event: loopEvent, window: { from: 'a', to: 'b' }, report: null }],
    };
    await s3.send(
      new PutObjectCommand({
        Bucket: 'race',
        Key: 'state/cluster=left/alerts.json',
        Body: encodeAlertState(state),
      }),
    );
    const now = new Date('2026-11-02T12:00:00Z');
    const runs = await Promise.all([
      analyzeCluster({ s3, sns, config: config(['left']) }, 'left', now),
      analyzeCluster({ s3, sns, config: config(['left']) }, 'left', now),
    ]);
    expect(runs.map((r) => r.conflict).sort()).toEqual([false, true]);
    expect(await drainQueue(sqs, stack.alertsQueueUrl)).toHaveLength(1);
  });

  it('publishes new findings once when two runs analyse the same window', async () => {
    const sim = simulateCluster({
      seed: 5,
      start: '2026-11-02T06:00:00Z',
      noiseRatio: 0.2,
      scenarios: ['scaleops-loop'],
    });
    const facts: Fact[] = [];
    const src = { source: 's3://race/logs/sim/a.log', line: 1 };
    for (const event of sim.audit) {
      const f = projectRecord({ kind: 'audit', event, format: 'audit-jsonl', at: src });
      if (f) facts.push(f);
    }
    for (const line of sim.operator) {
      const f = projectRecord({ kind: 'operator', line, format: 'zap-json', at: src });
      if (f) facts.push(f);
    }
    await writeFacts(
      s3,
      'race',
      defaultLayout(),
      { cluster: 'sim', bucket: 'race', key: 'logs/sim/a.log', etag: 'e' },
      facts,
    );
    const now = new Date(Date.parse(sim.audit[sim.audit.length - 1]!.stageTimestamp) + 1000);
    const runs = await Promise.all([
      analyzeCluster({ s3, sns, config: config(['sim']) }, 'sim', now),
      analyzeCluster({ s3, sns, config: config(['sim']) }, 'sim', now),
    ]);
    const winners = runs.filter((r) => !r.conflict);
    expect(winners).toHaveLength(1);
    const published = winners[0]!.published.length;
    expect(published).toBeGreaterThan(0);
    expect(await drainQueue(sqs, stack.alertsQueueUrl)).toHaveLength(published);
  });
});
