// The deployed analysis over the simulator's live-drift scenario (drift.md), on the emulator:
// the logs land in the bucket as EKS ships them, go through the ingest queue and handler, and
// the scheduled analysis writes its report to S3 and publishes to the alerts topic. The report
// carries `drifts` and `summary.fixImpact`; each tamper drift that still stands is announced
// once (a first run leaves drifts already over to the report); a second delivery of the
// objects and a second analysis publish nothing new.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { driftKey } from '../../lib/drift/key';
import { isFixImpact } from '../../lib/analyze/fix-impact';
import type { FindingsDocument } from '../../lib/model/findings';
import type { DriftAlertMessage } from '../../lib/notify/message';
import { simulateCluster, type SimulatedLogs } from '../../sim';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import { deploy, handlerEnv, notifyObjects, receivedAlerts, scheduleAnalysis, type Env } from './support';

const CLUSTER = 'eks-drift';

describe('deployed analysis over live drift (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let ingest: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
  let sim: SimulatedLogs;
  let runTime: Date;
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'drift-logs');
    handlerEnv(fx, env.stack, { LOOKBACK: '12h' });
    ingest = (await import('../../functions/ingest')).handler;
    // A webhook loop beside the drifts, so the fix's saving is more than the drift's one revert.
    sim = simulateCluster({
      seed: 20261201,
      start: '2026-12-01T20:00:00Z',
      noiseRatio: 0.3,
      scenarios: ['live-drift', 'scaleops-loop'],
    });
    const newest = sim.audit.reduce((m, e) => (e.stageTimestamp > m ? e.stageTimestamp : m), '');
    runTime = new Date(Date.parse(newest) + 60_000);
    const prefix = `logs/${CLUSTER}`;
    await uploadObject(
      env.s3,
      env.stack.bucket,
      `${prefix}/firehose/2026/12/01/audit-1.gz`,
      encodeAudit('eks-firehose-cwl', sim.audit),
    );
    await uploadObject(
      env.s3,
      env.stack.bucket,
      `${prefix}/operator/manager.log`,
      encodeOperator('zap-json', sim.operator),
    );
  });
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
  });

  it('simulates standing tamper drifts and drifts already over', () => {
    expect(sim.truth.drifts.some((d) => d.severity === 'tamper' && d.ended === null)).toBe(true);
    expect(sim.truth.drifts.some((d) => d.ended !== null)).toBe(true);
  });

  it('writes drifts and summary.fixImpact to the report, and announces each standing tamper drift once', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    const run = await scheduleAnalysis(env, runTime);
    expect(run.failures).toBe(0);

    // The run's report, where the run says it wrote it (the schedule's time, to the second).
    const uri = run.clusters.find((c) => c.cluster === CLUSTER)?.report ?? '';
    const key = uri.replace(`s3://${env.stack.bucket}/`, '');
    expect(key).toMatch(new RegExp(`^reports/cluster=${CLUSTER}/`));
    const res = await env.s3.send(new GetObjectCommand({ Bucket: env.stack.bucket, Key: key }));
    const report = JSON.parse(await res.Body!.transformToString('utf8')) as FindingsDocument;
    expect((report.drifts ?? []).map(driftKey).sort()).toEqual(sim.truth.drifts.map(driftKey).sort());
    const impact = report.summary.fixImpact;
    expect(isFixImpact(impact)).toBe(true);
    if (!isFixImpact(impact)) return;
    expect(impact.recreations).toBe(sim.truth.recreations.length);
    // The loop's webhook reverts are avoidable; the pre-fix revert of bob's image swap is not.
    expect(impact.avoidableWithFix).toBeGreaterThan(0);
    expect(impact.revertedTampers).toBeGreaterThan(0);

    const { alerts, events } = await receivedAlerts(env);
    const drifts = alerts.filter((a): a is DriftAlertMessage => a.findingType === 'drift');
    // The first run over these logs: drifts already over are the report's, not an alert's.
    const expected = sim.truth.drifts.filter((d) => d.severity === 'tamper' && d.ended === null);
    expect(drifts.map((a) => driftKey(a.finding)).sort()).toEqual(expected.map(driftKey).sort());
    for (const a of drifts) {
      expect(a).toMatchObject({ event: 'drift-detected', severity: 'critical', cluster: CLUSTER });
      expect(a.finding.ended).toBeNull();
      expect(a.report?.uri).toBe(uri);
    }
    const subjects = events
      .filter((e) => e.Records[0]!.Sns.MessageAttributes.event?.Value === 'drift-detected')
      .map((e) => e.Records[0]!.Sns);
    expect(subjects.length).toBe(drifts.length);
    for (const s of subjects) {
      expect(s.Subject).toMatch(new RegExp(`^\\[${CLUSTER}\\] live drift: .+, stands\\)$`));
      expect(s.MessageAttributes.driftSeverity?.Value).toBe('tamper');
    }
  });

  it('publishes nothing new when the objects come again and the analysis runs again', async () => {
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    const run = await scheduleAnalysis(env, new Date(runTime.getTime() + 5 * 60_000));
    expect(run.failures).toBe(0);
    expect((await receivedAlerts(env)).alerts).toEqual([]);
  });
});
