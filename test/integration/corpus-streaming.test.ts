// The schedule as it runs in production: the analysis every few minutes over a sliding
// window, while the corpus' loops unfold. Each run sees only facts up to its own time.
// Across all runs each loop must be announced started once and ended once, escalations
// must follow the doubling rule, and no announcement may repeat.
import { promises as fs } from 'fs';
import * as path from 'path';
import type { Context, SQSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { describeWithCorpus, SCENARIOS, corpusLogFiles } from '../support/shared-corpus';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { analysisRequestEvent, lambdaContext } from '../../lib/local-aws/local-lambda';
import type { AnalyzeOutcome } from '../../functions/analyze';
import type { AlertMessage, LoopAlertMessage } from '../../lib/notify/message';
import type { FindingsDocument } from '../../lib/model/findings';
import { deploy, handlerEnv, loopKey, notifyObjects, receivedAlerts, type Env } from './support';

const CORPUS = SCENARIOS;

describeWithCorpus(CORPUS, 'scheduled runs over a sliding window (corpus)', () => {
  let fx: Fauxqs;
  let env: Env;
  let analyze: (e: SQSEvent, c: Context) => Promise<AnalyzeOutcome>;
  let truth: FindingsDocument;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'stream-logs');
    handlerEnv(fx, env.stack, { LOOKBACK: '30m', CONTEXT: '1h' });
    const ingest = (await import('../../functions/ingest')).handler;
    analyze = (await import('../../functions/analyze')).analyzeBatch;
    truth = JSON.parse(await fs.readFile(path.join(CORPUS, 'expected.json'), 'utf8')) as FindingsDocument;
    for (const f of await corpusLogFiles(CORPUS))
      await uploadObject(
        env.s3,
        env.stack.bucket,
        `logs/stream/${path.relative(CORPUS, f).split(path.sep).join('/')}`,
        await fs.readFile(f),
      );
    await notifyObjects(env, 'logs/stream/');
    await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('announces each loop started and ended once, escalates by doubling, and never repeats itself', async () => {
    const all: AlertMessage[] = [];
    const active: number[] = [];
    // Every 20 s through the loops (a tighter schedule than the default 5 min, to catch
    // them mid-way), then a run long after.
    const start = Date.parse('2026-11-02T10:37:30Z');
    const times = [
      ...Array.from({ length: 10 }, (_, i) => new Date(start + i * 20_000)),
      new Date('2026-11-02T11:05:00Z'),
    ];
    for (const t of times) {
      const res = await analyze(analysisRequestEvent('stream', t), lambdaContext('analyze'));
      active.push(res.clusters.reduce((n, c) => n + c.activeLoops, 0));
      all.push(...(await receivedAlerts(env)).alerts);
    }
    expect(new Set(all.map((a) => a.id)).size).toBe(all.length);
    // Loops were active while they ran, and over by the last run.
    expect(Math.max(...active)).toBeGreaterThan(0);
    expect(active[active.length - 1]).toBe(0);
    const loops = all.filter((a): a is LoopAlertMessage => a.findingType === 'loop');
    for (const l of truth.loops) {
      const mine = loops.filter((m) => loopKey(m.finding) === loopKey(l));
      expect(mine.filter((m) => m.event === 'loop-started')).toHaveLength(1);
      expect(mine.filter((m) => m.event === 'loop-ended')).toHaveLength(1);
      expect(mine[0]!.event).toBe('loop-started');
      expect(mine[mine.length - 1]!.event).toBe('loop-ended');
      // Announced counts: each escalation at least double the previous announcement.
      const counts = mine.filter((m) => m.event !== 'loop-ended').map((m) => m.totalCount);
      for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThanOrEqual(2 * counts[i - 1]!);
      expect(mine[mine.length - 1]!.totalCount).toBe(l.count);
    }
    // The 12-recreation loop was caught early enough to escalate at least once.
    expect(
      loops.some((m) => m.event === 'loop-escalated' && m.finding.kafkaCluster === 'pipeline-kafka'),
    ).toBe(true);
  });
});
