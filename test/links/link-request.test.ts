// What the report-link function answers, decided from the request, the secrets and the time.
import { answerLink, linkUrl, pageHtml, relativeReportKey } from '../../lib/links/link-request';
import { signToken } from '../../lib/links/token';

const SECRET = 's'.repeat(64);
const NOW = 1_793_000_000;
const KEY = 'cluster=eks-prod/2026-11-02T11-31-00Z.html';
const token = (key = KEY, exp = NOW + 60, secret = SECRET): string => `/${signToken(secret, key, exp)}`;

describe('answering a report link', () => {
  it.each<[string, { method: string; path: string }, Record<string, unknown>]>([
    [
      'a genuine link: its report, under the prefix',
      { method: 'GET', path: token() },
      { kind: 'redirect', key: `reports/${KEY}` },
    ],
    ['HEAD (link previews)', { method: 'HEAD', path: token() }, { kind: 'redirect', key: `reports/${KEY}` }],
    [
      'an expired link',
      { method: 'GET', path: token(KEY, NOW) },
      { status: 410, text: expect.stringContaining('valid until 2026-10-26 07:33:20 UTC') },
    ],
    ['a foreign link', { method: 'GET', path: token(KEY, NOW + 60, 'o'.repeat(64)) }, { status: 403 }],
    ['a cut link', { method: 'GET', path: token().slice(0, 30) }, { status: 400 }],
    ['the root', { method: 'GET', path: '/' }, { status: 404 }],
    ['favicon', { method: 'GET', path: '/favicon.ico' }, { status: 404 }],
    ['a POST', { method: 'POST', path: token() }, { status: 405 }],
  ])('%s', (_name, request, expected) => {
    expect(answerLink(request, [SECRET], 'reports/', NOW)).toMatchObject(expected);
  });

  it('builds the link from the URL and the token, one slash between', () => {
    expect(linkUrl('https://x.on.aws', 'abc')).toBe('https://x.on.aws/abc');
    expect(linkUrl('https://x.on.aws/', 'abc')).toBe('https://x.on.aws/abc');
  });

  it.each<[string, string, string | RegExp]>([
    ['reports/', 'reports/cluster=a/t.html', 'cluster=a/t.html'],
    ['', 'reports/cluster=a/t.html', 'reports/cluster=a/t.html'],
    ['reports/', 'facts/cluster=a/x', /not under the reports prefix/],
    ['reports/', 'reports/', /not under the reports prefix/],
  ])('report key relative to %j: %s', (prefix, key, expected) => {
    if (typeof expected === 'string') expect(relativeReportKey(prefix, key)).toBe(expected);
    else expect(() => relativeReportKey(prefix, key)).toThrow(expected);
  });

  it('escapes the page words and loads nothing', () => {
    const html = pageHtml({ kind: 'page', status: 403, title: '<b>', text: 'a & "b"' });
    expect(html).toContain('<title>&lt;b&gt;</title>');
    expect(html).toContain('a &amp; &quot;b&quot;');
    expect(html).not.toMatch(/<script|src=|href=/);
  });
});
