// Each analysis run's full JSON report, and the link to it that alerts carry.
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import { linkUrl, relativeReportKey } from '../links/link-request';
import { signToken } from '../links/token';
import { reportHtmlKey } from './bucket-layout';
import type { ReportLinkConfig } from './env-config';

export interface ReportLink {
  uri: string;
  url?: string;
  html?: { uri: string; url?: string };
  /** When the pre-signed URLs stop working (RFC 3339). */
  expiresAt?: string;
  /**
   * `exact`: the link function's token ends then, or the signing credentials end no sooner
   * (or were known to end then). `at-most`:
   * temporary credentials whose end the SDK was not told (a Lambda role's, from the
   * environment), so the link may stop working sooner, when that session ends.
   */
  expiry?: 'exact' | 'at-most';
}

/** SigV4's longest pre-signed URL. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export interface TokenSigning {
  /** The link secret (Secrets Manager's AWSCURRENT, cached by the caller). */
  secret: () => Promise<string>;
  now?: () => number;
  /** The secret could not be read: this report's links are pre-signed instead, "at the latest". */
  onFallback?: (error: unknown) => void;
}

export async function writeReport(
  s3: S3Client,
  bucket: string,
  key: string,
  report: unknown,
  link: ReportLinkConfig,
  /** The same run rendered for people, stored beside the JSON as `<key>.html`. */
  html?: string,
  /** How to sign token links; needed in `function` mode only. */
  tokens?: TokenSigning,
): Promise<ReportLink> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: JSON.stringify(report, null, 1),
      ContentType: 'application/json',
    }),
  );
  const htmlKey = html === undefined ? null : reportHtmlKey(key);
  if (htmlKey !== null) {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: htmlKey,
        Body: html,
        ContentType: 'text/html; charset=utf-8',
      }),
    );
  }
  const result: ReportLink = { uri: `s3://${bucket}/${key}` };
  if (htmlKey !== null) result.html = { uri: `s3://${bucket}/${htmlKey}` };
  if (link.mode === 'url') {
    const at = (k: string) => link.baseUrl + k.split('/').map(encodeURIComponent).join('/');
    result.url = at(key);
    if (result.html && htmlKey !== null) result.html.url = at(htmlKey);
    return result;
  }
  if (link.mode === 'presigned') return presigned(s3, bucket, result, key, htmlKey, link.expiresSeconds);
  if (!tokens) throw new Error('report links by function need the link secret');
  let secret: string;
  try {
    secret = await tokens.secret();
  } catch (e) {
    // An alert with a shorter-lived link beats an alert held back until the secret is back.
    tokens.onFallback?.(e);
    return presigned(s3, bucket, result, key, htmlKey, Math.min(link.expiresSeconds, MAX_PRESIGN_SECONDS));
  }
  // Whole seconds, as the token holds them; the message states this very instant.
  const expiresAt = Math.floor((tokens.now ?? Date.now)() / 1000) + link.expiresSeconds;
  const at = (k: string) =>
    linkUrl(link.baseUrl, signToken(secret, relativeReportKey(link.reportsPrefix, k), expiresAt));
  result.url = at(key);
  if (result.html && htmlKey !== null) result.html.url = at(htmlKey);
  return Object.assign(result, {
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    expiry: 'exact' as const,
  });
}

async function presigned(
  s3: S3Client,
  bucket: string,
  result: ReportLink,
  key: string,
  htmlKey: string | null,
  expiresSeconds: number,
): Promise<ReportLink> {
  const sign = (k: string) =>
    getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: k }), { expiresIn: expiresSeconds });
  result.url = await sign(key);
  if (result.html && htmlKey !== null) result.html.url = await sign(htmlKey);
  Object.assign(result, await signedUntil(s3, expiresSeconds));
  return result;
}

/**
 * A pre-signed URL lives at most as long as the credentials that signed it. Where the SDK
 * knows when they expire (an assumed role, AWS_CREDENTIAL_EXPIRATION) that bounds the
 * stated lifetime, exactly. Temporary credentials without a stated end (a session token
 * and nothing else, as Lambda hands its role's) leave only an upper bound: AWS notes that
 * services assuming a role, Lambda among them, need not keep to its session duration.
 */
async function signedUntil(
  s3: S3Client,
  expiresSeconds: number,
): Promise<Required<Pick<ReportLink, 'expiresAt' | 'expiry'>>> {
  let end = Date.now() + expiresSeconds * 1000;
  let expiry: 'exact' | 'at-most' = 'exact';
  try {
    const creds = await s3.config.credentials();
    const credsEnd = creds.expiration?.getTime();
    if (credsEnd !== undefined) {
      if (credsEnd < end) end = credsEnd;
    } else if (creds.sessionToken) expiry = 'at-most';
  } catch {
    // Signing above already succeeded with these credentials, whose end is not known here.
    expiry = 'at-most';
  }
  return { expiresAt: new Date(Math.floor(end / 1000) * 1000).toISOString(), expiry };
}
