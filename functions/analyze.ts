// One cluster's analysis per message of the FIFO analysis queue (functions/dispatch-analysis
// fills it on the schedule): analyse the look-back window of that cluster's facts and
// publish to SNS only what is new since its last run. Batch size 1 and partial batch
// responses (serverless.yml): a failed cluster's message alone is retried and then
// dead-lettered, and since the queue is FIFO per cluster no other cluster waits for it.
// A request a finished run already covered (lib/alerts/coverage.ts) is skipped after one
// read of the alert state, so requests that pile up behind a slow run cost one run, not one
// each: a cluster never has more than one analysis pending.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { s3Client, snsClient, eventBridgeClient, secretsManagerClient } from '../lib/aws/clients';
import { cachedLinkSecrets, type LinkSecrets } from '../lib/aws/link-secret';
import { analyzeConfigFromEnv } from '../lib/aws/env-config';
import { parseAnalysisRequest, requestSentMs, type AnalysisRequest } from '../lib/aws/analysis-queue';
import { analyzeCluster, type ClusterRun } from '../lib/aws/analyze-run';
import { loadAlertState } from '../lib/aws/alert-state-store';
import { alertStateKey } from '../lib/aws/bucket-layout';
import type { AnalyzeConfig } from '../lib/aws/env-config';
import { coverageDecision, type CoverageDecision } from '../lib/alerts/coverage';
import { decodeAlertState } from '../lib/alerts/state';
import { parseDurationSeconds } from '../lib/config/duration';
import { createLogger, createMetrics, METRIC, recordMemoryUse } from '../lib/aws/observability';
import { alertDelaySeconds } from '../lib/alerts/event-time';

const logger = createLogger('analyze');
const metrics = createMetrics();
const clients = {
  s3: s3Client(),
  sns: snsClient(),
  events: eventBridgeClient(),
  secrets: secretsManagerClient(),
};
/** The link secret per secret id, kept across invocations like the clients. */
const linkSecrets = new Map<string, LinkSecrets>();
const linkSecretOf = (secretId: string): LinkSecrets => {
  let s = linkSecrets.get(secretId);
  if (!s) {
    s = cachedLinkSecrets(clients.secrets, secretId, { ttlMs: 300_000, withPrevious: false });
    linkSecrets.set(secretId, s);
  }
  return s;
};

export interface ClusterSummary {
  cluster: string;
  /** The scheduled time the run analysed up to. */
  now: string;
  recreations: number;
  loops: number;
  activeLoops: number;
  /** Drifts of the alerted severities already over in the window (a first run leaves them to the report). */
  endedDrifts: number;
  published: number;
  report: string | null;
  /** Rows added to the Athena findings history (its settled hours not written before). */
  findingsRows: number;
  conflict: boolean;
  /** The request waited in the queue longer than ANALYSIS_MAX_AGE and was skipped: a newer one covers its window. */
  stale?: boolean;
  /** A finished run already covered the request (its window and its facts): skipped, merged into that run. */
  merged?: boolean;
  error?: string;
}

/** What the handler did with a batch: the SQS response, and per cluster what the run did. */
export interface AnalyzeOutcome extends SQSBatchResponse {
  clusters: ClusterSummary[];
}

/**
 * A request that waited longer than this is skipped (and counted): when a cluster's runs fall behind
 * its schedule, its FIFO group would otherwise queue ever older runs; the next request
 * analyses the same window and more.
 */
function maxAgeMs(env: Record<string, string | undefined>): number {
  const s = env.ANALYSIS_MAX_AGE ? parseDurationSeconds(env.ANALYSIS_MAX_AGE) : 900;
  if (s === null || s <= 0)
    throw new Error(`ANALYSIS_MAX_AGE must be a duration, got ${env.ANALYSIS_MAX_AGE}`);
  return s * 1000;
}

/** The handler's work, with each cluster's summary (the local pipeline and tests print and check them). */
export async function analyzeBatch(event: SQSEvent, context: Context): Promise<AnalyzeOutcome> {
  logger.addContext(context);
  // Read per invocation (it is cheap) so a configuration error shows in every failed run's log.
  const config = analyzeConfigFromEnv(process.env);
  const maxAge = maxAgeMs(process.env);
  const out: AnalyzeOutcome = { batchItemFailures: [], clusters: [] };
  try {
    for (const record of event.Records) {
      let request;
      try {
        request = parseAnalysisRequest(record.body);
      } catch (e) {
        logger.error('unreadable analysis request', { messageId: record.messageId, error: String(e) });
        out.batchItemFailures.push({ itemIdentifier: record.messageId });
        continue;
      }
      const now = new Date(request.time);
      // Time spent waiting in the queue, not the request's own time: a replay of an old
      // schedule still runs. Its send time is the one the merge below judges it by (its own
      // `sentAt`, else SQS's SentTimestamp): one clock for both decisions.
      const sentMs = requestSentMs(request, record.attributes.SentTimestamp);
      if (Number.isFinite(sentMs) && Date.now() - sentMs > maxAge) {
        logger.warn('analysis request too old; a newer one covers its window', { ...request });
        metrics.addMetric(METRIC.staleAnalysesSkipped, MetricUnit.Count, 1);
        out.clusters.push({ ...summary(request.cluster, now, null), stale: true });
        continue;
      }
      const decision = await coverage(config, request, sentMs);
      if (decision.covered) {
        logger.info('analysis request already covered by a finished run; merged into it', {
          ...request,
          ...decision.by,
        });
        metrics.addMetric(METRIC.analysesMerged, MetricUnit.Count, 1);
        out.clusters.push({ ...summary(request.cluster, now, null), merged: true });
        continue;
      }
      const run = await analyzeCluster(
        {
          s3: clients.s3(),
          sns: clients.sns(),
          ...(config.eventBus ? { events: clients.events() } : {}),
          config,
          logger,
          ...(config.reportLink.mode === 'function'
            ? { linkSecret: linkSecretOf(config.reportLink.secretId).current }
            : {}),
        },
        request.cluster,
        now,
        { upToNewest: request.reason === 'evidence' },
      );
      recordMetrics(run);
      out.clusters.push(summary(request.cluster, now, run));
      if (run.error !== undefined) {
        logger.error('cluster analysis failed', { cluster: run.cluster, error: run.error });
        out.batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return out;
  } finally {
    recordMemoryUse(metrics, 'analyze');
    metrics.publishStoredMetrics();
  }
}

/**
 * Whether a finished run covered the request, from one read of the cluster's alert state. A
 * state that cannot be read or decoded covers nothing: the run then fails on it and says why.
 */
async function coverage(
  config: AnalyzeConfig,
  request: AnalysisRequest,
  sentMs: number,
): Promise<CoverageDecision> {
  try {
    const stored = await loadAlertState(
      clients.s3(),
      config.bucket,
      alertStateKey(config.layout, request.cluster),
    );
    return coverageDecision(decodeAlertState(stored.text, request.cluster), { time: request.time, sentMs });
  } catch {
    return { covered: false, why: 'state unreadable' };
  }
}

/** Lambda's entry point: exactly the partial batch response, nothing else in it. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const { batchItemFailures } = await analyzeBatch(event, context);
  return { batchItemFailures };
};

function summary(cluster: string, now: Date, r: ClusterRun | null): ClusterSummary {
  return {
    cluster,
    now: now.toISOString(),
    recreations: r ? Object.values(r.recreationsByClass).reduce((a, b) => a + (b ?? 0), 0) : 0,
    loops: r?.loops ?? 0,
    activeLoops: r?.activeLoops ?? 0,
    endedDrifts: r?.endedDrifts ?? 0,
    published: r?.published.length ?? 0,
    report: r?.report?.uri ?? null,
    findingsRows: r?.history?.rows ?? 0,
    conflict: r?.conflict ?? false,
    ...(r?.error !== undefined ? { error: r.error } : {}),
  };
}

function recordMetrics(r: ClusterRun): void {
  // ActiveLoops without extra dimensions is what the "active loops > 0" alarm watches
  // (its Maximum over the period across the clusters' runs); it is also sent per cluster
  // for dashboards.
  metrics.addMetric(METRIC.activeLoops, MetricUnit.Count, r.activeLoops);
  metrics
    .singleMetric()
    .addDimension('cluster', r.cluster)
    .addMetric(METRIC.activeLoops, MetricUnit.Count, r.activeLoops);
  for (const [cls, n] of Object.entries(r.recreationsByClass)) {
    metrics
      .singleMetric()
      .addDimension('classification', cls)
      .addMetric(METRIC.recreations, MetricUnit.Count, n ?? 0);
  }
  if (r.history) metrics.addMetric(METRIC.findingsRowsWritten, MetricUnit.Count, r.history.rows);
  const byEvent = new Map<string, number>();
  for (const e of r.published) byEvent.set(e.event, (byEvent.get(e.event) ?? 0) + 1);
  for (const [ev, n] of byEvent)
    metrics.singleMetric().addDimension('event', ev).addMetric(METRIC.alertsPublished, MetricUnit.Count, n);
  const now = Date.now();
  for (const e of r.published) {
    const delay = alertDelaySeconds(e, now);
    logger.info('alert published', {
      cluster: r.cluster,
      event: e.event,
      alertId: e.id,
      delaySeconds: delay,
    });
    if (delay !== null)
      metrics
        .singleMetric()
        .addDimension('event', e.event)
        .addMetric(METRIC.alertDelay, MetricUnit.Seconds, delay);
  }
}
