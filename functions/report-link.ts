// The report-link function, behind a Lambda function URL (AuthType NONE: the token in the
// path is the authorization, SECURITY.md). A genuine, unexpired token is answered with a
// redirect to a pre-signed GET of its report valid a few minutes, signed now with this
// function's role; anything else with a short page saying why (lib/links/link-request.ts).
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Context, LambdaFunctionURLEvent, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { s3Client, secretsManagerClient } from '../lib/aws/clients';
import { reportLinkFunctionConfigFromEnv } from '../lib/aws/env-config';
import { cachedLinkSecrets, type LinkSecrets } from '../lib/aws/link-secret';
import { createLogger } from '../lib/aws/observability';
import { answerLink, pageHtml } from '../lib/links/link-request';

const logger = createLogger('reportLink');
const clients = { s3: s3Client(), secrets: secretsManagerClient() };
const secretsById = new Map<string, LinkSecrets>();
/** After a refused token, the secret is read again at most this often (a rotation may be why). */
const REFRESH_MIN_AGE_MS = 60_000;

/** Nothing here may be cached or leak where it came from: each answer is for this request only. */
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export const handler = async (
  event: LambdaFunctionURLEvent,
  context?: Context,
): Promise<APIGatewayProxyStructuredResultV2> => {
  if (context) logger.addContext(context);
  const config = reportLinkFunctionConfigFromEnv(process.env);
  let secrets = secretsById.get(config.secretId);
  if (!secrets) {
    secrets = cachedLinkSecrets(clients.secrets, config.secretId, {
      ttlMs: config.secretTtlMs,
      withPrevious: true,
    });
    secretsById.set(config.secretId, secrets);
  }
  const request = { method: event.requestContext.http.method, path: event.rawPath };
  const answerNow = async () =>
    answerLink(request, await secrets.accepted(), config.reportsPrefix, Math.floor(Date.now() / 1000));
  let answer;
  try {
    answer = await answerNow();
    // A link signed with a secret rotated after this container read it: read it again, once.
    if (answer.kind === 'page' && answer.status === 403 && (await secrets.refresh(REFRESH_MIN_AGE_MS)))
      answer = await answerNow();
  } catch (e) {
    logger.error('report link secret could not be read', { error: String(e) });
    answer = {
      kind: 'page' as const,
      status: 503 as const,
      title: 'Report link unavailable',
      text: 'The report link could not be checked just now. Try again in a minute.',
    };
  }
  if (answer.kind === 'redirect') {
    const location = await getSignedUrl(
      clients.s3(),
      new GetObjectCommand({ Bucket: config.bucket, Key: answer.key }),
      { expiresIn: config.redirectSeconds },
    );
    logger.info('report link opened', { key: answer.key });
    return { statusCode: 302, headers: { ...COMMON_HEADERS, location }, body: '' };
  }
  logger.info('report link refused', { status: answer.status, title: answer.title });
  return {
    statusCode: answer.status,
    headers: {
      ...COMMON_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
    body: pageHtml(answer),
  };
};
