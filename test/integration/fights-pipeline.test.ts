// The deployed pipeline over the shared fights corpus (when present), on the emulator: its
// files land in the logs bucket, go through the ingest queue and handler, the scheduled
// analysis runs, and the alerts topic announces every fight of expected.json (started, and
// ended for those over), beside the koperator loop, once: a second delivery and a second
// analysis publish nothing.
import { promises as fs } from 'fs';
import * as path from 'path';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { describeWithCorpus, FIGHTS, corpusLogFiles } from '../support/shared-corpus';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { fightKey } from '../../lib/fights/key';
import type { Fight, FindingsDocument } from '../../lib/model/findings';
import type { FightAlertMessage } from '../../lib/notify/message';
import {
  deploy,
  handlerEnv,
  notifyObjects,
  receivedAlerts,
  scheduleAnalysis,
  watchedBefore,
  type Env,
} from './support';

const CLUSTER = 'eks-fights';

describeWithCorpus(FIGHTS, 'deployed pipeline over the fights corpus (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let truth: FindingsDocument & { fights: Fight[] };
  const saved = { ...process.env };
  // Five minutes after the data ends (16:00 UTC), the corpus' two hours inside the window.
  const runTime = new Date('2026-11-09T16:05:00Z');

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'fights-logs');
    handlerEnv(fx, env.stack, { LOOKBACK: '6h' });
    ingest = (await import('../../functions/ingest')).handler;
    truth = JSON.parse(await fs.readFile(path.join(FIGHTS, 'expected.json'), 'utf8')) as typeof truth;
    for (const f of await corpusLogFiles(FIGHTS)) {
      await uploadObject(
        env.s3,
        env.stack.bucket,
        `logs/${CLUSTER}/${path.relative(FIGHTS, f).split(path.sep).join('/')}`,
        await fs.readFile(f),
      );
    }
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('announces every fight of the truth, the ended ones as ended too, beside the koperator loop', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest, {
      batchSize: 10,
    });
    expect(drive.failures.flat()).toEqual([]);
    // The deployment watched the cluster before these logs arrived: loops already over are news.
    await watchedBefore(env, CLUSTER, new Date('2026-11-01T00:00:00Z'));
    await scheduleAnalysis(env, runTime);
    const { alerts, events } = await receivedAlerts(env);
    const fights = alerts.filter((a): a is FightAlertMessage => a.findingType === 'fight');
    const started = fights.filter((a) => a.event === 'fight-started').map((a) => fightKey(a.finding));
    expect(started.sort()).toEqual(truth.fights.map((f) => fightKey(f)).sort());
    const ended = fights.filter((a) => a.event === 'fight-ended').map((a) => fightKey(a.finding));
    expect(ended.sort()).toEqual(
      truth.fights
        .filter((f) => !f.active)
        .map((f) => fightKey(f))
        .sort(),
    );
    // The koperator loop is announced as a loop, never as a fight.
    expect(alerts.filter((a) => a.findingType === 'loop' && a.event === 'loop-started')).toHaveLength(
      truth.loops.length,
    );
    for (const a of fights) {
      expect(a.finding.recommendation.length).toBeGreaterThan(40);
      expect(a.severity).toBe(a.event === 'fight-ended' ? 'info' : a.finding.active ? 'critical' : 'warning');
    }
    const subjects = events
      .filter((e) => e.Records[0]!.Sns.MessageAttributes.event?.Value?.startsWith('fight-'))
      .map((e) => e.Records[0]!.Sns.Subject ?? '');
    expect(subjects.length).toBe(fights.length);
    expect(subjects.every((s) => s.startsWith(`[${CLUSTER}] fight `) && s.length < 100)).toBe(true);
  });

  it('publishes nothing new when the objects come again and the analysis runs again', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    await scheduleAnalysis(env, new Date(runTime.getTime() + 60_000));
    expect((await receivedAlerts(env)).alerts).toEqual([]);
  });
});
