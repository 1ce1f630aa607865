// What the report-link function answers to one request, decided from plain data: the path
// (the token), the secrets, the time. A genuine, unexpired token is a redirect to its report;
// anything else is a short page saying why, never a hint at other reports. Pure.
import { escapeHtml } from '../report/html/escape';
import { verifyToken } from './token';

export type LinkAnswer =
  | { kind: 'redirect'; key: string }
  | { kind: 'page'; status: 400 | 403 | 404 | 405 | 410 | 503; title: string; text: string };

/** The link people get: the function's URL (ending in /) and the token as the whole path. */
export function linkUrl(baseUrl: string, token: string): string {
  return (baseUrl.endsWith('/') ? baseUrl : baseUrl + '/') + token;
}

/** The report key the token names, relative to the reports prefix (what the token carries). */
export function relativeReportKey(reportsPrefix: string, key: string): string {
  if (!key.startsWith(reportsPrefix) || key.length === reportsPrefix.length)
    throw new Error(`report key ${key} is not under the reports prefix ${reportsPrefix}`);
  return key.slice(reportsPrefix.length);
}

const at = (seconds: number): string =>
  new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

export function answerLink(
  request: { method: string; path: string },
  secrets: readonly string[],
  reportsPrefix: string,
  now: number,
): LinkAnswer {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return { kind: 'page', status: 405, title: 'Not allowed', text: 'Report links are opened with GET.' };
  const token = request.path.replace(/^\/+/, '');
  if (token === '' || token === 'favicon.ico')
    return { kind: 'page', status: 404, title: 'Not found', text: 'This address holds report links only.' };
  const check = verifyToken(token, secrets, now);
  if (check.ok) return { kind: 'redirect', key: reportsPrefix + check.key };
  switch (check.reason) {
    case 'expired':
      return {
        kind: 'page',
        status: 410,
        title: 'Report link expired',
        text: `This report link was valid until ${at(check.expiresAt)}. A newer alert carries a fresh link; the report itself stays in the bucket until its retention ends.`,
      };
    case 'forged':
      return {
        kind: 'page',
        status: 403,
        title: 'Report link not valid',
        text: 'This link was altered, cut short, or not made by this koperator-audit deployment (or its link secret was rotated twice since). Open the link from the alert again, whole.',
      };
    case 'malformed':
      return {
        kind: 'page',
        status: 400,
        title: 'Report link not valid',
        text: 'This is not a whole report link: it may have been cut or changed when it was copied. Open the link from the alert again.',
      };
  }
}

/** The page for a refusal: no script, no external resource, the words escaped. */
export function pageHtml(a: Extract<LinkAnswer, { kind: 'page' }>): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(a.title)}</title></head>` +
    `<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${escapeHtml(a.title)}</h1>` +
    `<p>${escapeHtml(a.text)}</p><p><small>koperator-audit · HTTP ${a.status}</small></p></body></html>`
  );
}
