// Report links end to end on the emulator: the analysis (REPORT_LINK=function) writes a
// report and publishes alerts whose link is the report-link function's URL and a token;
// the function, invoked in-process with the Function URL event Lambda would give it, answers
// 302 to a pre-signed URL that fetches that very report from fauxqs's S3. Altered, expired
// and foreign links get their pages instead.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { randomUUID } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';
import type { LambdaFunctionURLEvent, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { startLocalSecrets, type LocalSecrets } from '../../lib/local-aws/local-secrets';
import { driveSqsHandler, uploadObject } from '../../lib/local-aws/local-stack';
import { signToken } from '../../lib/links/token';
import type { AlertMessage } from '../../lib/notify/message';
import { reportLinkOf } from '../../lib/notify/words';
import { listLocal } from '../../lib/sources/local';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import {
  deploy,
  handlerEnv,
  notifyObjects,
  receivedAlerts,
  scheduleAnalysis,
  watchedBefore,
  type Env,
} from './support';

const CLUSTER = 'eks-links';
const EXAMPLES = path.join(__dirname, '..', '..', 'examples', 'logs');
const LINK_BASE = 'https://abcdefghijklmnopqrstuvwxyz234567.lambda-url.us-east-1.on.aws/';

/** The event a Lambda function URL hands the function for a GET of `url`. */
function urlEvent(url: string, method = 'GET'): LambdaFunctionURLEvent {
  const u = new URL(url);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: u.pathname,
    rawQueryString: '',
    headers: { host: u.host, 'user-agent': 'Slackbot 1.0' },
    isBase64Encoded: false,
    requestContext: {
      accountId: 'anonymous',
      apiId: u.host.split('.')[0]!,
      domainName: u.host,
      domainPrefix: u.host.split('.')[0]!,
      http: {
        method,
        path: u.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'Slackbot 1.0',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: '02/Dec/2026:10:00:00 +0000',
      timeEpoch: Date.now(),
    },
  };
}

describe('report links through the report-link function (fauxqs)', () => {
  let fx: Fauxqs;
  let env: Env;
  let secrets: LocalSecrets;
  let open: (url: string, method?: string) => Promise<APIGatewayProxyStructuredResultV2>;
  let alerts: AlertMessage[];
  const saved = { ...process.env };
  const startedAt = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, 'links-logs');
    secrets = await startLocalSecrets({ 'links-secret': 'first-secret-'.padEnd(64, 'x') });
    handlerEnv(fx, env.stack, {
      LOOKBACK: '6h',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      REPORT_LINK: 'function',
      REPORT_LINK_URL: LINK_BASE,
      REPORT_LINK_SECRET: secrets.arns['links-secret']!,
      REPORT_URL_EXPIRES: '7d',
    });
    for await (const o of listLocal(EXAMPLES)) {
      const rel = path.relative(EXAMPLES, o.name).split(path.sep).join('/');
      await uploadObject(env.s3, env.stack.bucket, `logs/${CLUSTER}/${rel}`, await fs.readFile(o.name));
    }
    await notifyObjects(env, `logs/${CLUSTER}/`);
    const { handler: ingest } = await import('../../functions/ingest');
    const drive = await driveSqsHandler(env.sqs, env.stack.ingestQueueUrl, env.stack.ingestQueueArn, ingest);
    expect(drive.failures.flat()).toEqual([]);
    await watchedBefore(env, CLUSTER, new Date('2026-05-01T00:00:00Z'));
    await scheduleAnalysis(env, new Date('2026-05-04T09:30:00Z'));
    alerts = (await receivedAlerts(env)).alerts;
    const { handler } = await import('../../functions/report-link');
    open = (url, method) => handler(urlEvent(url, method));
  }, 120_000);

  afterAll(async () => {
    process.env = saved;
    await Promise.all([fx?.stop(), secrets?.stop()]);
  });

  it('gives every alert a short link to the function, with an exact lifetime of 7 days', () => {
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts) {
      const url = a.report?.html?.url ?? '';
      expect(url.startsWith(LINK_BASE)).toBe(true);
      expect(url.length).toBeLessThan(160);
      expect(a.report?.expiry).toBe('exact');
      const end = Date.parse(a.report!.expiresAt!) / 1000;
      expect(end - startedAt).toBeGreaterThanOrEqual(7 * 86_400);
      expect(end - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(7 * 86_400);
      expect(reportLinkOf(a.report)?.lifetime).toBe(
        `link valid until ${a.report!.expiresAt!.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}`,
      );
    }
  });

  it('resolves the link to a 302 whose target is the report, read from S3', async () => {
    const report = alerts[0]!.report!;
    const res = await open(report.html!.url!);
    expect(res.statusCode).toBe(302);
    expect(res.headers?.['cache-control']).toBe('no-store');
    const location = String(res.headers?.location);
    expect(location).toMatch(/X-Amz-Expires=300&/);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    const key = report.html!.uri.replace(`s3://${env.stack.bucket}/`, '');
    const stored = await env.s3.send(new GetObjectCommand({ Bucket: env.stack.bucket, Key: key }));
    const body = await fetched.text();
    expect(body).toBe(await stored.Body!.transformToString());
    expect(body).toContain('<html');
    // The JSON report has a link of its own.
    const json = await fetch(String((await open(report.url!)).headers?.location));
    expect(((await json.json()) as { cluster: string }).cluster).toBe(CLUSTER);
  });

  it.each<[string, (good: string) => string, number, RegExp]>([
    [
      'an altered link',
      (good) => good.slice(0, -3) + (good.endsWith('AAA') ? 'BBB' : 'AAA'),
      403,
      /altered, cut short/,
    ],
    ['a link cut short', (good) => good.slice(0, LINK_BASE.length + 30), 400, /may have been cut/],
    [
      'a link that expired',
      () =>
        LINK_BASE + signToken('first-secret-'.padEnd(64, 'x'), `cluster=${CLUSTER}/x.html`, startedAt - 1),
      410,
      /was valid until .* UTC/,
    ],
    [
      'a link of another deployment',
      () => LINK_BASE + signToken('z'.repeat(64), `cluster=${CLUSTER}/x.html`, startedAt + 3600),
      403,
      /not made by this/,
    ],
    ['the bare address', () => LINK_BASE, 404, /report links only/],
    [
      'a path with characters no token has',
      () => `${LINK_BASE}reports/x.html`,
      400,
      /not a whole report link/,
    ],
  ])('answers %s with its page, no redirect', async (_name, link, status, words) => {
    const res = await open(link(alerts[0]!.report!.html!.url!));
    expect(res.statusCode).toBe(status);
    expect(res.headers?.location).toBeUndefined();
    expect(res.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(words);
  });

  it('refuses other methods', async () => {
    expect((await open(alerts[0]!.report!.html!.url!, 'POST')).statusCode).toBe(405);
  });

  it('keeps honouring links after a rotation, and honours the new secret’s links', async () => {
    const before = alerts[0]!.report!.html!.url!;
    secrets.rotate('links-secret', 'second-secret-'.padEnd(64, 'y'));
    const after =
      LINK_BASE + signToken('second-secret-'.padEnd(64, 'y'), `cluster=${CLUSTER}/y.html`, startedAt + 3600);
    // A warm container that read the secret before the rotation: the new link is refused
    // until it reads again, at most once a minute (or when its cache expires).
    const reads = secrets.requests.length;
    expect((await open(after)).statusCode).toBe(403);
    expect(secrets.requests.length).toBe(reads);
    jest.useFakeTimers({
      now: Date.now() + 61_000,
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
    });
    try {
      expect((await open(after)).statusCode).toBe(302);
      expect(
        secrets.requests
          .slice(reads)
          .map((r) => r.versionStage)
          .sort(),
      ).toEqual(['AWSCURRENT', 'AWSPREVIOUS']);
      expect((await open(before)).statusCode).toBe(302);
    } finally {
      jest.useRealTimers();
    }
  });
});
