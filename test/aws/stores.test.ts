// The S3/SQS/SSM adapters against real servers: fauxqs for S3 and SQS, the Parameter
// Store stand-in for SSM.
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient, CreateQueueCommand } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { loadAlertState, saveAlertState } from '../../lib/aws/alert-state-store';
import { listFactsClusters, readFactsWindow, writeFacts } from '../../lib/aws/facts-store';
import { writeReport } from '../../lib/aws/report-store';
import { signToken } from '../../lib/links/token';
import { cachedSsmParameter } from '../../lib/aws/ssm-secret';
import { startLocalSsm, type LocalSsm } from '../../lib/local-aws/local-ssm';
import { runBackfill } from '../../lib/cli/backfill';
import { drainQueue } from '../../lib/local-aws/local-stack';
import { parseS3Notification } from '../../lib/aws/s3-events';
import { defaultLayout } from '../../lib/aws/bucket-layout';
import type { OperatorFact } from '../../lib/model/facts';

let fx: Fauxqs;
let s3: S3Client;
const layout = defaultLayout();

beforeAll(async () => {
  fx = await startFauxqs();
  s3 = new S3Client(fx.clientConfig);
  await s3.send(new CreateBucketCommand({ Bucket: 'stores' }));
});
afterAll(async () => fx?.stop());

const op = (at: string, source = 's3://stores/logs/a.log', msg = 'm'): OperatorFact => ({
  type: 'operator',
  at,
  src: { source, line: 1 },
  msg,
  level: 'info',
  kafkaCluster: 'orders',
  namespace: 'kafka',
  pod: null,
  brokerId: null,
  fields: {},
});

describe('alert state store', () => {
  it('reads nothing at first, then the written state with its ETag', async () => {
    expect(await loadAlertState(s3, 'stores', 'state/cluster=x/alerts.json')).toEqual({
      text: null,
      etag: null,
    });
    const etag = await saveAlertState(s3, 'stores', 'state/cluster=x/alerts.json', '{"v":1}', null);
    const read = await loadAlertState(s3, 'stores', 'state/cluster=x/alerts.json');
    expect(read).toEqual({ text: '{"v":1}', etag });
    const etag2 = await saveAlertState(s3, 'stores', 'state/cluster=x/alerts.json', '{"v":2}', etag);
    expect(etag2).not.toBe(etag);
  });

  // Why the deployment relies on one run per cluster (FIFO groups, infra/README-deploy.md): the
  // emulator accepts a conditional PutObject whose condition does not hold, so a test
  // here cannot prove the conditional write; real S3 answers 412. If this starts
  // failing, fauxqs enforces the conditions and a race test can replace it.
  it('fauxqs 1.9 does not enforce If-None-Match / If-Match on PutObject', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'stores', Key: 'probe.json', Body: 'a' }));
    await expect(
      s3.send(new PutObjectCommand({ Bucket: 'stores', Key: 'probe.json', Body: 'b', IfNoneMatch: '*' })),
    ).resolves.toBeDefined();
    await expect(
      s3.send(
        new PutObjectCommand({ Bucket: 'stores', Key: 'probe.json', Body: 'c', IfMatch: '"not-the-etag"' }),
      ),
    ).resolves.toBeDefined();
  });
});

describe('facts store', () => {
  it('writes one object per hour and reads a window back merged, in order, without duplicates', async () => {
    const facts = [
      op('2026-11-02T09:59:00Z'),
      op('2026-11-02T10:00:01Z'),
      op('2026-11-02T11:30:00Z'),
      op('bad time'),
    ];
    const w = await writeFacts(
      s3,
      'stores',
      layout,
      { cluster: 'eks-a', bucket: 'stores', key: 'logs/eks-a/a.log', etag: 'e1' },
      facts,
    );
    expect(w.keys).toHaveLength(3);
    expect(w.untimed).toBe(1);
    // The same line shipped by a second pipeline, in another object.
    await writeFacts(
      s3,
      'stores',
      layout,
      { cluster: 'eks-a', bucket: 'stores', key: 'logs/eks-a/b.log', etag: 'e2' },
      [op('2026-11-02T10:00:01Z', 's3://stores/logs/eks-a/b.log')],
    );
    await writeFacts(
      s3,
      'stores',
      layout,
      { cluster: 'eks-b', bucket: 'stores', key: 'logs/eks-b/a.log', etag: 'e3' },
      [op('2026-11-02T10:00:00Z')],
    );
    expect(await listFactsClusters(s3, 'stores', layout)).toEqual(['eks-a', 'eks-b']);
    const win = await readFactsWindow(
      s3,
      'stores',
      layout,
      'eks-a',
      new Date('2026-11-02T10:00:00Z'),
      new Date('2026-11-02T11:00:00Z'),
    );
    expect(win.objects).toBe(2 + 1);
    expect([...win.facts.facts()].map((f) => f.at)).toEqual(['2026-11-02T10:00:01Z']);
    // Objects written without a newest event read say so: unknown.
    expect(win.newestEventAt).toBeNull();
  });

  it('carries the newest event read past every fact kept, in an object of its own hour if need be', async () => {
    const source = { cluster: 'eks-c', bucket: 'stores', key: 'logs/eks-c/a.log', etag: 'e4' };
    const w = await writeFacts(
      s3,
      'stores',
      layout,
      source,
      [op('2026-11-02T10:00:01Z')],
      '2026-11-02T12:40:00Z',
    );
    // 10:00 for the fact, 12:00 (empty) for the newest event read.
    expect(w.keys).toHaveLength(2);
    const read = (from: string, to: string) =>
      readFactsWindow(s3, 'stores', layout, 'eks-c', new Date(from), new Date(to));
    expect((await read('2026-11-02T10:00:00Z', '2026-11-02T13:00:00Z')).newestEventAt).toBe(
      '2026-11-02T12:40:00Z',
    );
    // A window that ends before it does not see past its own end.
    expect((await read('2026-11-02T10:00:00Z', '2026-11-02T12:30:00Z')).newestEventAt).toBeNull();
  });
});

describe('report store', () => {
  it('links reports under a base URL (a CloudFront front), or as pre-signed URLs that fetch the report and say until when', async () => {
    expect(
      await writeReport(
        s3,
        'stores',
        'reports/cluster=a b/r1.json',
        { a: 1 },
        { mode: 'url', baseUrl: 'https://reports.example.com/' },
        '<p>r1</p>',
      ),
    ).toEqual({
      uri: 's3://stores/reports/cluster=a b/r1.json',
      url: 'https://reports.example.com/reports/cluster%3Da%20b/r1.json',
      html: {
        uri: 's3://stores/reports/cluster=a b/r1.html',
        url: 'https://reports.example.com/reports/cluster%3Da%20b/r1.html',
      },
    });
    const before = Date.now();
    const link = await writeReport(
      s3,
      'stores',
      'reports/r2.json',
      { a: 2 },
      { mode: 'presigned', expiresSeconds: 60 },
    );
    expect(link.url).toMatch(/X-Amz-Signature=/);
    expect(link.url).toMatch(/X-Amz-Expires=60/);
    expect(await (await fetch(link.url!)).json()).toEqual({ a: 2 });
    // The stated lifetime is the requested one (these static credentials do not expire).
    const until = Date.parse(link.expiresAt!);
    expect(until).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(link.expiry).toBe('exact');
  });

  const soon = new Date(Date.now() + 30 * 60_000);
  it.each([
    // Lambda hands its role's credentials through the environment: a session token, no end.
    ['temporary credentials without a stated end', { sessionToken: 't' }, 'requested', 'at-most'],
    [
      'temporary credentials ending before the request',
      { sessionToken: 't', expiration: soon },
      'session',
      'exact',
    ],
    [
      'temporary credentials ending after the request',
      { sessionToken: 't', expiration: new Date(Date.now() + 48 * 3600_000) },
      'requested',
      'exact',
    ],
  ] as const)('states the lifetime of a link signed with %s', async (_name, extra, bound, expiry) => {
    const signer = new S3Client({
      ...fx.clientConfig,
      credentials: { ...fx.clientConfig.credentials, ...extra },
    });
    const before = Date.now();
    const link = await writeReport(
      signer,
      'stores',
      'reports/r3.json',
      { a: 3 },
      {
        mode: 'presigned',
        expiresSeconds: 3600,
      },
    );
    expect(link.expiry).toBe(expiry);
    const until = Date.parse(link.expiresAt!);
    if (bound === 'session') expect(until).toBe(Math.floor(soon.getTime() / 1000) * 1000);
    else {
      expect(until).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 3600_000);
    }
  });
});

describe('report store, links by the report-link function', () => {
  const config = {
    mode: 'function' as const,
    baseUrl: 'https://abc.lambda-url.us-east-1.on.aws/',
    secretId: 'links',
    expiresSeconds: 30 * 86_400,
    reportsPrefix: 'reports/',
  };

  it('signs a token per link, valid exactly the configured time from now', async () => {
    const now = Date.parse('2026-12-02T10:00:00.700Z');
    const link = await writeReport(s3, 'stores', 'reports/cluster=a/r4.json', { a: 4 }, config, '<p>r4</p>', {
      secret: () => Promise.resolve('k'.repeat(64)),
      now: () => now,
    });
    const expiresAt = Math.floor(now / 1000) + 30 * 86_400;
    expect(link).toEqual({
      uri: 's3://stores/reports/cluster=a/r4.json',
      url: config.baseUrl + signToken('k'.repeat(64), 'cluster=a/r4.json', expiresAt),
      html: {
        uri: 's3://stores/reports/cluster=a/r4.html',
        url: config.baseUrl + signToken('k'.repeat(64), 'cluster=a/r4.html', expiresAt),
      },
      expiresAt: '2027-01-01T10:00:00.000Z',
      expiry: 'exact',
    });
  });

  it('falls back to pre-signed links (at most 7 days) when the secret cannot be read, and says so', async () => {
    const failures: unknown[] = [];
    const link = await writeReport(s3, 'stores', 'reports/r5.json', { a: 5 }, config, undefined, {
      secret: () => Promise.reject(new Error('AccessDeniedException')),
      onFallback: (e) => failures.push(e),
    });
    expect(failures).toEqual([new Error('AccessDeniedException')]);
    expect(link.url).toMatch(/X-Amz-Expires=604800&/);
    expect(await (await fetch(link.url!)).json()).toEqual({ a: 5 });
  });

  it('refuses to write function links without a way to sign them', async () => {
    await expect(writeReport(s3, 'stores', 'reports/r6.json', {}, config)).rejects.toThrow(/link secret/);
  });
});

describe('SSM secret', () => {
  let ssm: LocalSsm;
  beforeAll(async () => {
    ssm = await startLocalSsm({ '/p': { value: 'https://hooks.example/1' } });
  });
  afterAll(async () => ssm.stop());

  it('reads with decryption once, serves from cache until the TTL, then reads again', async () => {
    let now = 0;
    const client = new SSMClient({ ...fx.clientConfig, endpoint: ssm.endpoint });
    const secret = cachedSsmParameter(
      () => client,
      '/p',
      1000,
      () => now,
    );
    expect(await Promise.all([secret.get(), secret.get()])).toEqual([
      'https://hooks.example/1',
      'https://hooks.example/1',
    ]);
    expect(ssm.requests).toEqual([{ name: '/p', withDecryption: true }]);
    now = 999;
    await secret.get();
    expect(ssm.requests).toHaveLength(1);
    now = 1000;
    await secret.get();
    expect(ssm.requests).toHaveLength(2);
    secret.invalidate();
    await secret.get();
    expect(ssm.requests).toHaveLength(3);
  });

  it('fails on a missing parameter', async () => {
    const client = new SSMClient({ ...fx.clientConfig, endpoint: ssm.endpoint });
    await expect(cachedSsmParameter(() => client, '/nope', 1000).get()).rejects.toThrow(/not found/);
  });
});

describe('backfill', () => {
  it('enqueues one S3 ObjectCreated notification per object under the prefix', async () => {
    for (let i = 0; i < 13; i++)
      await s3.send(
        new PutObjectCommand({
          Bucket: 'stores',
          Key: `logs/eks-c/f${String(i).padStart(2, '0')}.log`,
          Body: `line ${i}`,
        }),
      );
    await s3.send(
      new PutObjectCommand({ Bucket: 'stores', Key: 'logs/eks-c/folder/', Body: Buffer.alloc(0) }),
    );
    const sqs = new SQSClient(fx.clientConfig);
    const q = await sqs.send(new CreateQueueCommand({ QueueName: 'backfill' }));
    const lines: string[] = [];
    const res = await runBackfill({
      uri: 's3://stores/logs/eks-c/',
      queueUrl: q.QueueUrl!,
      region: 'us-east-1',
      s3,
      sqs,
      log: (l) => lines.push(l),
    });
    expect(res).toEqual({ objects: 13, failed: [] });
    expect(lines).toEqual(['enqueued 13 objects from s3://stores/logs/eks-c/']);
    const msgs = await drainQueue(sqs, q.QueueUrl!);
    const objects = msgs.flatMap((m) => {
      const p = parseS3Notification(m.Body!);
      return p.kind === 'objects' ? p.objects : [];
    });
    expect(objects.map((o) => o.key).sort()).toEqual(
      Array.from({ length: 13 }, (_, i) => `logs/eks-c/f${String(i).padStart(2, '0')}.log`),
    );
    expect(objects.every((o) => /^[0-9a-f]{32}$/.test(o.etag ?? ''))).toBe(true);
    expect(
      await runBackfill({ uri: 's3://stores/logs/eks-c/', queueUrl: q.QueueUrl!, s3, sqs, dryRun: true }),
    ).toEqual({ objects: 13, failed: [] });
    await expect(runBackfill({ uri: 'stores/logs', queueUrl: q.QueueUrl!, s3, sqs })).rejects.toThrow(
      /not an s3:\/\/ URI/,
    );
  });
});
