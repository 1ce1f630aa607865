// Exactly-once effects on at-least-once infrastructure, against fauxqs (a real S3/SNS/SQS
// emulator) with failures injected at the wire by a proxy (./fault-proxy.ts), never by
// mocking the SDK:
//   1. every log object delivered 2-3 times, concurrently and out of order, after an
//      ingest that died half-way through writing its facts: the facts objects (keys and
//      bytes) and the SNS messages of the analysis afterwards equal a clean single run's;
//   2. SNS Publish throttled or failing with 5xx is retried by the SDK's standard
//      strategy; a publish that finally fails stays pending in the alert state, the next
//      run sends it, and nothing goes out twice across the two runs;
//   3. a poison message (a body that is not JSON, an object S3 refuses to serve) is
//      retried maxReceiveCount times alone, then lands in the DLQ (fauxqs 1.9 honours the
//      RedrivePolicy), with an error log naming the object and the reason, while the
//      other messages of its batches are ingested at once.
// Two emulators hold the same deployment (same bucket name, so facts headers and report
// URIs match byte for byte): `clean` is run once, sequentially, without faults; `chaos`
// sits behind the proxy and gets the faults.
import { PutObjectCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createHash } from 'crypto';
import { gunzipSync } from 'zlib';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { deploy, handlerEnv, type Env } from '../integration/support';
import { drainQueue, driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { analysisRequestEvent, lambdaContext } from '../../lib/local-aws/local-lambda';
import { decodeFacts } from '../../lib/facts/codec';
import { emptyAlertState } from '../../lib/alerts/diff';
import { decodeAlertState, encodeAlertState } from '../../lib/alerts/state';
import { simulateCluster, DEFAULT_SCENARIO_ORDER } from '../../sim';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import type { AnalyzeOutcome } from '../../functions/analyze';
import { startFaultProxy, s3Error, snsError, type FaultProxy, type ProxiedRequest } from './fault-proxy';
import { driveConcurrently, notificationsFor, seededRandom, sendAll, shuffle } from './deliveries';
import { captureProcessOutput } from '../support/process-output';

const BUCKET = 'hardening';
const CLUSTER = 'eks-hard';
const LOGS = `logs/${CLUSTER}/`;
const STATE_KEY = `state/cluster=${CLUSTER}/alerts.json`;

type IngestHandler = (e: SQSEvent, c: Context) => Promise<SQSBatchResponse>;
type AnalyzeHandler = (e: SQSEvent, c: Context) => Promise<AnalyzeOutcome>;

/** What a subscriber can see of one SNS message (the envelope's id and timestamp aside). */
interface Published {
  id: string;
  subject: string;
  message: string;
  attributes: unknown;
}

async function published(env: Env): Promise<Published[]> {
  return (await drainQueue(env.sqs, env.stack.alertsQueueUrl)).map((m) => {
    const e = JSON.parse(m.Body ?? '{}') as { Subject: string; Message: string; MessageAttributes: unknown };
    return {
      id: (JSON.parse(e.Message) as { id: string }).id,
      subject: e.Subject,
      message: e.Message,
      attributes: e.MessageAttributes,
    };
  });
}

const byId = (a: Published, b: Published): number =>
  a.id.localeCompare(b.id) || a.message.localeCompare(b.message);

/** Every facts object: key → sha256 of its bytes. */
async function factsObjects(s3: S3Client): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let token: string | undefined;
  do {
    const res = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'facts/', ContinuationToken: token }),
    );
    for (const o of res.Contents ?? []) {
      const body = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key }));
      const bytes = Buffer.from(await body.Body!.transformToByteArray());
      out.set(o.Key!, createHash('sha256').update(bytes).digest('hex'));
    }
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

async function factsSourceOf(s3: S3Client, key: string): Promise<string> {
  const body = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  const text = gunzipSync(Buffer.from(await body.Body!.transformToByteArray())).toString('utf8');
  return decodeFacts(text).header.source;
}

async function alertState(env: Env) {
  const res = await env.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: STATE_KEY }));
  return decodeAlertState(await res.Body!.transformToString('utf8'), CLUSTER);
}

/**
 * Forgets every announcement (and report), so the chaos deployment can announce the same
 * findings again: back to the state of a deployment that has watched the cluster and found
 * nothing yet (not to no state, which would make the next run a first analysis, which
 * leaves loops already over to its report).
 */
async function resetAlerts(env: Env): Promise<void> {
  await watched(env);
  await drainQueue(env.sqs, env.stack.alertsQueueUrl);
}

async function watched(env: Env): Promise<void> {
  const state = { ...emptyAlertState(CLUSTER), updatedAt: '2026-11-01T00:00:00.000Z' };
  await env.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: STATE_KEY, Body: encodeAlertState(state) }));
}

const isPublish = (r: ProxiedRequest): boolean => r.service === 'sns' && r.action === 'Publish';
const isFactsPut = (r: ProxiedRequest): boolean =>
  r.service === 's3' && r.method === 'PUT' && r.path.startsWith(`/${BUCKET}/facts/`);
const messageOf = (r: ProxiedRequest): string =>
  new URLSearchParams(r.body.toString('utf8')).get('Message') ?? '';

describe('exactly-once effects on at-least-once delivery (fauxqs, faults at the wire)', () => {
  let cleanFx: Fauxqs;
  let chaosFx: Fauxqs;
  let proxy: FaultProxy;
  let clean: Env;
  let chaos: Env;
  let ingest: IngestHandler;
  let analyze: AnalyzeHandler;
  let runTime: Date;
  let cleanFacts: Map<string, string>;
  let cleanMessages: Published[];
  const saved = { ...process.env };

  /** Points the handlers' SDK clients at the clean emulator or at the proxy in front of the chaos one. */
  // Report links under a fixed base URL: pre-signed ones would differ between the two
  // emulators (endpoint, signing time) and hide whether the messages are the same.
  const LINKS = { REPORT_LINK: 'url', REPORT_BASE_URL: 'https://reports.example.com/' };
  const useClean = (): void => handlerEnv(cleanFx, clean.stack, { LOOKBACK: '12h', ...LINKS });
  const useChaos = (): void =>
    handlerEnv({ ...chaosFx, endpoint: proxy.endpoint }, chaos.stack, { LOOKBACK: '12h', ...LINKS });
  const runAnalyze = (): Promise<AnalyzeOutcome> =>
    analyze(analysisRequestEvent(CLUSTER, runTime), lambdaContext('koperator-audit-analyze'));

  beforeAll(async () => {
    [cleanFx, chaosFx] = await Promise.all([startFauxqs(), startFauxqs()]);
    proxy = await startFaultProxy(chaosFx.endpoint);
    [clean, chaos] = await Promise.all([deploy(cleanFx, BUCKET), deploy(chaosFx, BUCKET)]);
    const sim = simulateCluster({
      seed: 7,
      start: '2026-11-02T06:40:00Z',
      noiseRatio: 0.3,
      scenarios: [...DEFAULT_SCENARIO_ORDER],
    });
    const newest = sim.audit.reduce((m, e) => (e.stageTimestamp > m ? e.stageTimestamp : m), '');
    runTime = new Date(Math.ceil((Date.parse(newest) + 1000) / 1000) * 1000);
    // Audit events in four overlapping objects (two delivery paths of one cluster
    // overlap), operator lines in two: every object spans several hour partitions.
    const a = sim.audit;
    const q = Math.floor(a.length / 4);
    const o = sim.operator;
    const files: [string, Buffer][] = [
      [`${LOGS}export/000000.gz`, encodeAudit('eks-cloudwatch-export', a.slice(0, 2 * q), { gzip: true })],
      [`${LOGS}export/000001.gz`, encodeAudit('eks-cloudwatch-export', a.slice(q, 3 * q), { gzip: true })],
      [`${LOGS}firehose/part-1`, encodeAudit('eks-firehose-cwl', a.slice(2 * q))],
      [`${LOGS}firehose/part-2`, encodeAudit('eks-firehose-cwl', a.slice(3 * q - 10))],
      [`${LOGS}operator/manager.log`, encodeOperator('zap-json', o.slice(0, Math.floor(o.length / 2)))],
      [
        `${LOGS}operator/fluent-bit/part-1`,
        encodeOperator('fluent-bit-operator', o.slice(Math.floor(o.length / 3)), { gzip: true }),
      ],
    ];
    for (const [key, body] of files) {
      await uploadObject(clean.s3, BUCKET, key, body);
      await uploadObject(chaos.s3, BUCKET, key, body);
    }
    handlerEnv(cleanFx, clean.stack);
    ingest = (await import('../../functions/ingest')).handler;
    analyze = (await import('../../functions/analyze')).analyzeBatch;

    // The clean run: each object delivered once, one invocation at a time, one analysis.
    useClean();
    await sendAll(clean.sqs, clean.stack.ingestQueueUrl, [
      ...(await notificationsFor(clean.s3, BUCKET, LOGS)).values(),
    ]);
    const drive = await driveSqsHandler(
      clean.sqs,
      clean.stack.ingestQueueUrl,
      clean.stack.ingestQueueArn,
      ingest,
    );
    if (drive.failures.flat().length > 0) throw new Error('the clean run failed to ingest');
    await Promise.all([watched(clean), watched(chaos)]);
    await runAnalyze();
    cleanFacts = await factsObjects(clean.s3);
    cleanMessages = (await published(clean)).sort(byId);
  }, 60_000);

  afterAll(async () => {
    process.env = saved;
    await proxy?.stop();
    await Promise.all([cleanFx?.stop(), chaosFx?.stop()]);
  });

  // The handlers' Powertools logs (JSON lines on stdout, errors on stderr), per test.
  let out: string[] = [];
  beforeEach(() => {
    out = [];
    captureProcessOutput(out);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    proxy.rule(undefined);
  });
  const errorLogs = (): Record<string, unknown>[] =>
    out
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.level === 'ERROR');

  it('has a clean run worth comparing with: facts in several hours, loops and recreations announced', () => {
    expect(new Set([...cleanFacts.keys()].map((k) => k.split('/')[2])).size).toBeGreaterThan(1);
    expect(cleanMessages.length).toBeGreaterThan(3);
    const events = new Set(cleanMessages.map((m) => (JSON.parse(m.message) as { event: string }).event));
    expect(events).toContain('loop-started');
    expect(events).toContain('recreation');
  });

  it('writes the same facts and publishes the same messages after a half-way crash and 2-3 concurrent, out-of-order deliveries', async () => {
    useChaos();
    const notes = await notificationsFor(chaos.s3, BUCKET, LOGS);
    // The object with the most hour partitions dies after writing the first of them:
    // every facts PutObject after the first fails (all three SDK attempts), as S3 going
    // away, or the function timing out, would leave it.
    const sources = new Map<string, string[]>();
    for (const k of cleanFacts.keys()) {
      const src = await factsSourceOf(clean.s3, k);
      sources.set(src, [...(sources.get(src) ?? []), k]);
    }
    const [victimSource, victimKeys] = [...sources.entries()].sort((x, y) => y[1].length - x[1].length)[0]!;
    expect(victimKeys.length).toBeGreaterThan(1);
    const victim = victimSource.replace(`s3://${BUCKET}/`, '');
    let puts = 0;
    proxy.rule((r) =>
      isFactsPut(r) && ++puts > 1
        ? s3Error(500, 'InternalError', 'We encountered an internal error.')
        : undefined,
    );
    await sendAll(chaos.sqs, chaos.stack.ingestQueueUrl, [notes.get(victim)!]);
    const crashed = await driveSqsHandler(
      chaos.sqs,
      chaos.stack.ingestQueueUrl,
      chaos.stack.ingestQueueArn,
      ingest,
      { maxInvocations: 1 },
    );
    expect(crashed.failures).toHaveLength(1);
    expect(crashed.failures[0]).toHaveLength(1);
    const half = await factsObjects(chaos.s3);
    expect(half.size).toBe(1);
    expect(victimKeys).toContain([...half.keys()][0]);
    expect(proxy.faulted.filter(isFactsPut).length).toBeGreaterThanOrEqual(3); // the SDK retried it
    expect(errorLogs()).toEqual([
      expect.objectContaining({
        objectKey: victim,
        receiveCount: '1',
        error: 'InternalError: We encountered an internal error.',
      }),
    ]);

    // The crashed message is visible again (Lambda's retry); S3 also delivers every
    // object 2 or 3 times, in a shuffled order, and Lambda runs the batches concurrently.
    proxy.rule(undefined);
    const random = seededRandom(20261102);
    const keys = [...notes.keys()];
    const deliveries = shuffle(
      keys.flatMap((k, i) => Array.from({ length: 2 + (i % 2) }, () => notes.get(k)!)),
      random,
    );
    await sendAll(chaos.sqs, chaos.stack.ingestQueueUrl, deliveries);
    const drive = await driveConcurrently(
      chaos.sqs,
      chaos.stack.ingestQueueUrl,
      chaos.stack.ingestQueueArn,
      ingest,
      { batchSize: 3 },
    );
    expect(drive.thrown).toEqual([]);
    expect(drive.failures.flat()).toEqual([]);
    expect(drive.invocations).toBeGreaterThan(3);
    expect(await drainQueue(chaos.sqs, chaos.stack.dlqUrl)).toEqual([]);

    expect(await factsObjects(chaos.s3)).toEqual(cleanFacts);

    const res = await runAnalyze();
    expect(res.clusters).toEqual([
      expect.objectContaining({ cluster: CLUSTER, published: cleanMessages.length }),
    ]);
    expect((await published(chaos)).sort(byId)).toEqual(cleanMessages);
    // And a second analysis of the same window announces nothing more.
    await runAnalyze();
    expect(await published(chaos)).toEqual([]);
  });

  it('retries throttled and 5xx publishes with the SDK back-off, publishing each message once', async () => {
    useChaos();
    await resetAlerts(chaos);
    const before = proxy.requests.length;
    // The first message: throttled, then a 503, then through (its third and last SDK attempt).
    // The third message: a 500 on its first attempt.
    let publishes = 0;
    proxy.rule((r) => {
      if (!isPublish(r)) return undefined;
      publishes++;
      if (publishes === 1) return snsError(400, 'Throttling', 'Rate exceeded');
      if (publishes === 2) return snsError(503, 'ServiceUnavailable', 'Service is unavailable');
      if (publishes === 5) return snsError(500, 'InternalError', 'Internal error');
      return undefined;
    });
    const res = await runAnalyze();
    expect(res.clusters[0]).toMatchObject({ cluster: CLUSTER, published: cleanMessages.length });
    expect((await published(chaos)).sort(byId)).toEqual(cleanMessages);

    const attempts = proxy.requests.slice(before).filter(isPublish);
    expect(attempts).toHaveLength(cleanMessages.length + 3);
    // Retried by the SDK's standard strategy: the same message, its attempt counter rising.
    expect(attempts.slice(0, 3).map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(new Set(attempts.slice(0, 3).map(messageOf)).size).toBe(1);
    expect(attempts.slice(4, 6).map((r) => r.attempt)).toEqual([1, 2]);
    expect(messageOf(attempts[4]!)).toBe(messageOf(attempts[5]!));
    expect((await alertState(chaos)).pending).toEqual([]);
  });

  it('leaves a publish that finally fails pending; the next run sends it and nothing twice', async () => {
    useChaos();
    await resetAlerts(chaos);
    const before = proxy.requests.length;
    // Two messages go out, then SNS fails every attempt (3 per message) of the rest.
    let ok = 0;
    proxy.rule((r) => {
      if (!isPublish(r)) return undefined;
      if (ok < 2) {
        ok++;
        return undefined;
      }
      return snsError(503, 'ServiceUnavailable', 'Service is unavailable');
    });
    expect((await runAnalyze()).batchItemFailures).toHaveLength(1);
    const first = await published(chaos);
    expect(first).toHaveLength(2);
    const failedAttempts = proxy.requests.slice(before).filter(isPublish).slice(2);
    expect(failedAttempts.map((r) => r.attempt)).toEqual([1, 2, 3]); // one message, given up after 3
    const left = await alertState(chaos);
    expect(left.pending).toHaveLength(cleanMessages.length - 2);
    expect(left.pending.map((p) => p.event.id).sort()).toEqual(
      cleanMessages
        .filter((m) => !first.some((f) => f.id === m.id))
        .map((m) => m.id)
        .sort(),
    );

    // SNS recovers; the failed invocation is retried (same schedule time), or the next one runs.
    proxy.rule(undefined);
    const res = await runAnalyze();
    expect(res.clusters[0]).toMatchObject({ published: cleanMessages.length - 2 });
    const second = await published(chaos);
    expect([...first, ...second].sort(byId)).toEqual(cleanMessages);
    expect((await alertState(chaos)).pending).toEqual([]);
    await runAnalyze();
    expect(await published(chaos)).toEqual([]);
  });

  it('a run that loses SNS and S3 half-way through publishing repeats nothing the next run sends', async () => {
    useChaos();
    await resetAlerts(chaos);
    // Two messages go out (each recorded as sent); then the network is gone: every
    // publish and every state write after it fails, as a run timing out between two
    // publishes leaves things. (Had the write right after a publish been lost, that one
    // message would repeat: the limit the messages' stable id is for.)
    let ok = 0;
    let down = false;
    proxy.rule((r) => {
      if (isPublish(r)) {
        if (ok < 2) {
          ok++;
          return undefined;
        }
        down = true;
        return snsError(503, 'ServiceUnavailable', 'Service is unavailable');
      }
      if (down && r.service === 's3' && r.method === 'PUT' && r.path.startsWith(`/${BUCKET}/state/`))
        return s3Error(503, 'SlowDown', 'Please reduce your request rate.');
      return undefined;
    });
    expect((await runAnalyze()).batchItemFailures).toHaveLength(1);
    const first = await published(chaos);
    expect(first).toHaveLength(2);
    // What the state says is still to be sent is exactly what was not.
    expect(
      (await alertState(chaos)).pending.map((p) => p.event.id).filter((id) => first.some((f) => f.id === id)),
    ).toEqual([]);

    proxy.rule(undefined);
    await runAnalyze();
    const second = await published(chaos);
    expect([...first, ...second].sort(byId)).toEqual(cleanMessages);
  });

  it('a publish whose response is lost repeats with the same id (the documented limit subscribers dedupe on)', async () => {
    useChaos();
    await resetAlerts(chaos);
    let publishes = 0;
    proxy.rule((r) =>
      isPublish(r) && ++publishes === 1
        ? { forwardThen: snsError(500, 'InternalError', 'Internal error') }
        : undefined,
    );
    await runAnalyze();
    const got = (await published(chaos)).sort(byId);
    expect(got).toHaveLength(cleanMessages.length + 1);
    const ids = got.map((m) => m.id);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toHaveLength(1);
    expect(got.filter((m, i) => ids.indexOf(m.id) === i)).toEqual(cleanMessages);
  });

  describe('poison messages', () => {
    it('concurrent invocations each report their own failed messages, and only those', async () => {
      useChaos();
      const notes = [...(await notificationsFor(chaos.s3, BUCKET, LOGS)).values()];
      const bodies = shuffle(
        [...notes.slice(0, 6), 'poison one', 'poison two', 'poison three'],
        seededRandom(3),
      );
      await sendAll(chaos.sqs, chaos.stack.ingestQueueUrl, bodies);
      const batches: SQSEvent[] = [];
      const recording: IngestHandler = (e, c) => {
        batches.push(e);
        return ingest(e, c);
      };
      const drive = await driveConcurrently(
        chaos.sqs,
        chaos.stack.ingestQueueUrl,
        chaos.stack.ingestQueueArn,
        recording,
        { batchSize: 2, maxRounds: 1 },
      );
      expect(drive.invocations).toBe(5);
      expect(drive.failures.map((f) => [...f].sort())).toEqual(
        batches.map((e) =>
          e.Records.filter((r) => r.body.startsWith('poison'))
            .map((r) => r.messageId)
            .sort(),
        ),
      );
      // The poison messages are back in the queue; a later drive dead-letters them.
      await driveConcurrently(chaos.sqs, chaos.stack.ingestQueueUrl, chaos.stack.ingestQueueArn, ingest);
      const dead = await drainQueue(chaos.sqs, chaos.stack.dlqUrl);
      expect(dead.map((m) => m.Body).sort()).toEqual(['poison one', 'poison three', 'poison two']);
    });

    it('dead-letters them after maxReceiveCount, logs object and reason, and never holds up their batch', async () => {
      useChaos();
      const forbidden = `${LOGS}restricted/audit.log`;
      const fresh = `${LOGS}late/audit.log`;
      await uploadObject(chaos.s3, BUCKET, forbidden, '{}\n');
      const lines = await chaos.s3.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: `${LOGS}firehose/part-1` }),
      );
      await uploadObject(chaos.s3, BUCKET, fresh, Buffer.from(await lines.Body!.transformToByteArray()));
      const notes = await notificationsFor(chaos.s3, BUCKET, LOGS);
      // S3 refuses to serve one object (a bucket policy or KMS key the function may not use).
      proxy.rule((r) =>
        r.service === 's3' && r.method === 'GET' && r.path.startsWith(`/${BUCKET}/${forbidden}`)
          ? s3Error(403, 'AccessDenied', 'Access Denied')
          : undefined,
      );
      await sendAll(chaos.sqs, chaos.stack.ingestQueueUrl, [
        'this is not JSON',
        notes.get(forbidden)!,
        notes.get(fresh)!,
      ]);
      const factsBefore = (await factsObjects(chaos.s3)).size;
      const drive = await driveSqsHandler(
        chaos.sqs,
        chaos.stack.ingestQueueUrl,
        chaos.stack.ingestQueueArn,
        ingest,
        { batchSize: 10 },
      );
      // createLocalStack's RedrivePolicy: maxReceiveCount 3. The good message succeeds in
      // the first batch; the two poison ones fail alone three times, then move to the DLQ.
      const ids = (body: string): string[] =>
        drive.events.flatMap((e) => e.Records.filter((r) => r.body === body).map((r) => r.messageId));
      const poisonIds = [...new Set([...ids('this is not JSON'), ...ids(notes.get(forbidden)!)])].sort();
      expect(poisonIds).toHaveLength(2);
      expect(drive.invocations).toBe(3);
      expect(drive.events[0]!.Records).toHaveLength(3);
      expect(drive.failures.map((f) => [...f].sort())).toEqual([poisonIds, poisonIds, poisonIds]);
      expect((await factsObjects(chaos.s3)).size).toBeGreaterThan(factsBefore);
      const dead = await drainQueue(chaos.sqs, chaos.stack.dlqUrl);
      expect(dead.map((m) => m.Body).sort()).toEqual([notes.get(forbidden)!, 'this is not JSON'].sort());
      expect(dead.map((m) => m.MessageId).sort()).toEqual(poisonIds);
      expect(await drainQueue(chaos.sqs, chaos.stack.ingestQueueUrl)).toEqual([]);

      const errors = errorLogs();
      const denied = errors.filter((l) => l.objectKey === forbidden);
      expect(denied).toHaveLength(3);
      expect(denied[0]).toMatchObject({
        bucket: BUCKET,
        error: expect.stringMatching(/AccessDenied/),
        messageId: expect.any(String),
        function_request_id: expect.any(String),
      });
      const garbage = errors.filter((l) => String(l.error).includes('not JSON'));
      expect(garbage).toHaveLength(3);
      expect(garbage[0]).toMatchObject({ messageId: ids('this is not JSON')[0] });
      expect(denied.map((l) => l.receiveCount)).toEqual(['1', '2', '3']);
    });
  });
});
