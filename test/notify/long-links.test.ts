// Real pre-signed report links, as Lambda signs them: a role's session token makes them
// 1,300-1,700 characters. Every message people get must carry such a link whole (a cut URL
// is a broken one), within each field's limit, and say a lifetime that is true.
import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { CHAT_LIMITS, buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { linkUrl } from '../../lib/links/link-request';
import { signToken } from '../../lib/links/token';
import { chatSchemaProblems } from '../support/chat-schema';
import { ctx, loopEvent, recreationEvent } from './fixtures';

/** A URL signed the way the analyze function signs it, with a session token of `tokenChars`. */
async function presigned(tokenChars: number): Promise<string> {
  const s3 = new S3Client({
    region: 'eu-west-1',
    credentials: {
      accessKeyId: 'ASIAEXAMPLEEXAMPLE00',
      secretAccessKey: 'example/secret/example/secret/example/abcd',
      // Session tokens are base64: '+', '/' and '=' are escaped in the query, as real ones are.
      sessionToken: 'IQoJb3JpZ2luX2VjE+/='.repeat(Math.ceil(tokenChars / 20)).slice(0, tokenChars),
    },
  });
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: 'acme-eks-audit',
      Key: 'reports/cluster=eks-prod/2026-11-02T11-31-00Z.html',
    }),
    { expiresIn: 86_400 },
  );
}

const urlsIn = (text: string): string[] => text.match(/https:\/\/[^\s|>)]+/g) ?? [];

describe('report links of real length', () => {
  it.each([
    ['a static key (no session token)', 0],
    ['a short session', 600],
    ['a Lambda role session', 1000],
    ['a long role session', 1300],
  ])('with %s: whole in every message, never cut', async (_name, tokenChars) => {
    const url = await presigned(tokenChars);
    if (tokenChars >= 1000) expect(url.length).toBeGreaterThanOrEqual(1300);
    const report = { ...ctx.report, url, html: { uri: 's3://b/r.html', url } };
    for (const event of [loopEvent, recreationEvent]) {
      const m = toAlertMessage(event, { ...ctx, report });
      const chat = buildChatNotification(m);
      expect(chatSchemaProblems(JSON.stringify(chat))).toEqual([]);
      for (const step of chat.content.nextSteps)
        expect(step.length).toBeLessThanOrEqual(CHAT_LIMITS.nextStepChars);
      expect(chat.content.description.length).toBeLessThanOrEqual(CHAT_LIMITS.descriptionChars);
      const slack = JSON.stringify(buildSlackPayload(m));
      const everywhere = [chat.content.description, ...chat.content.nextSteps, buildEmailText(m), slack];
      // Every URL any of them shows is the link whole; the description and the email show it.
      for (const text of everywhere) for (const u of urlsIn(text)) expect(u).toBe(url);
      expect(urlsIn(chat.content.description)).toEqual([url]);
      expect(urlsIn(buildEmailText(m))).toEqual([url]);
      expect(slack).toContain(`<${url}|Full report>`);
      // The next step repeats the link only where it fits.
      const repeats = chat.content.nextSteps.some((s) => s.includes(url));
      expect(repeats).toBe(`Read the full report: ${url}`.length <= CHAT_LIMITS.nextStepChars);
    }
  });

  it('says where the link is when it cannot be shown in chat at all, instead of cutting it', () => {
    const url = `https://x.example/${'a'.repeat(3100)}`;
    const m = toAlertMessage(recreationEvent, { ...ctx, report: { ...ctx.report, url } });
    const chat = buildChatNotification(m);
    expect(chat.content.description.length).toBeLessThanOrEqual(CHAT_LIMITS.descriptionChars);
    expect(chat.content.description).toContain(
      'is longer than a chat message holds: see the email or the alerts topic',
    );
    expect(JSON.stringify(chat)).not.toContain('https://x.example/');
    expect(buildEmailText(m)).toContain(url);
  });

  it.each([
    ['exact', 'link valid until 2026-11-03 11:31:00 UTC'],
    [
      'at-most',
      'link valid until 2026-11-03 11:31:00 UTC at the latest, sooner if the AWS session that signed it ends first',
    ],
  ] as const)('states an %s lifetime as what is known', (expiry, words) => {
    const m = toAlertMessage(recreationEvent, { ...ctx, report: { ...ctx.report, expiry } });
    expect(buildEmailText(m)).toContain(`(${words})`);
    expect(buildChatNotification(m).content.description).toContain(`(${words})`);
  });

  it('carries a report-link function link (~150 characters) whole everywhere, the next step included, with its exact end', () => {
    const expiresAt = Math.floor(Date.parse('2026-11-09T11:31:00Z') / 1000);
    const url = linkUrl(
      'https://abcdefghijklmnopqrstuvwxyz234567.lambda-url.eu-west-1.on.aws/',
      signToken('s'.repeat(64), 'cluster=eks-prod/2026-11-02T11-31-00Z.html', expiresAt),
    );
    expect(url.length).toBeLessThan(160);
    const report = {
      ...ctx.report,
      url,
      html: { uri: 's3://b/r.html', url },
      expiresAt: new Date(expiresAt * 1000).toISOString(),
      expiry: 'exact' as const,
    };
    const m = toAlertMessage(loopEvent, { ...ctx, report });
    const chat = buildChatNotification(m);
    expect(chat.content.nextSteps.some((s) => s.includes(url))).toBe(true);
    expect(chat.content.description).toContain(`${url}`);
    expect(chat.content.description).toContain('(link valid until 2026-11-09 11:31:00 UTC)');
    expect(buildEmailText(m)).toContain('(link valid until 2026-11-09 11:31:00 UTC)');
    expect(buildEmailText(m)).not.toContain('at the latest');
    expect(JSON.stringify(buildSlackPayload(m))).toContain(`<${url}|Full report>`);
  });
});
