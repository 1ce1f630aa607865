// SNS → Slack: each alert message becomes a Block Kit message posted to the incoming
// webhook whose URL is a SecureString in SSM Parameter Store (read at run time, cached
// per container; never resolved into the template).
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SNSEvent } from 'aws-lambda';
import { ssmClient } from '../lib/aws/clients';
import { notifyConfigFromEnv } from '../lib/aws/env-config';
import { createLogger, createMetrics, METRIC } from '../lib/aws/observability';
import { cachedSsmParameter, type CachedSecret } from '../lib/aws/ssm-secret';
import { HttpPostError, postJsonWithRetry } from '../lib/notify/http';
import { parseAlertMessage } from '../lib/notify/message';
import { buildSlackPayload } from '../lib/notify/slack';

const logger = createLogger('notify-slack');
const metrics = createMetrics();
const clients = { ssm: ssmClient() };
const secrets = new Map<string, CachedSecret>();

export const handler = async (
  event: SNSEvent,
  context: Context,
): Promise<{ posted: number; skipped: number }> => {
  logger.addContext(context);
  const config = notifyConfigFromEnv(process.env);
  let secret = secrets.get(config.webhookParameter);
  if (!secret)
    secrets.set(
      config.webhookParameter,
      (secret = cachedSsmParameter(clients.ssm, config.webhookParameter, config.secretTtlMs)),
    );
  let posted = 0;
  let skipped = 0;
  try {
    for (const record of event.Records) {
      let alert;
      try {
        alert = parseAlertMessage(record.Sns.Message);
      } catch (e) {
        // Not ours (someone published by hand): retrying cannot make it ours.
        logger.warn('skipping SNS message that is not an alert', {
          messageId: record.Sns.MessageId,
          reason: (e as Error).message,
        });
        skipped++;
        continue;
      }
      const payload = buildSlackPayload(alert);
      try {
        const res = await postJsonWithRetry(await secret.get(), payload, {
          maxAttempts: config.maxAttempts,
          maxDelayMs: config.maxDelayMs,
        });
        logger.info('posted to Slack', {
          alertId: alert.id,
          event: alert.event,
          attempts: res.attempts,
          messageId: record.Sns.MessageId,
        });
        metrics.addMetric(METRIC.slackPosts, MetricUnit.Count, 1);
        posted++;
      } catch (e) {
        // A revoked or rotated webhook answers 403/404: read the parameter afresh next time.
        if (e instanceof HttpPostError && (e.status === 403 || e.status === 404 || e.status === 410))
          secret.invalidate();
        // Thrown so Lambda's async retry (and then the on-failure destination) takes over.
        logger.error('Slack post failed', { alertId: alert.id, error: (e as Error).message });
        throw e;
      }
    }
    return { posted, skipped };
  } finally {
    // Powertools warns on an empty flush; a run that posted nothing has nothing to say.
    if (posted > 0) metrics.publishStoredMetrics();
  }
};
