// Structured logs and EMF metrics for the functions (Powertools). One namespace for all
// three and one service name per stage (POWERTOOLS_SERVICE_NAME, koperator-audit-<stage>),
// so the template's alarms name exactly their own stage's metrics.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'KoperatorAudit';
export const SERVICE_NAME = 'koperator-audit';

/** Metric names, shared with serverless.yml's alarms and the tests. */
export const METRIC = {
  objectsIngested: 'ObjectsIngested',
  objectsSkipped: 'ObjectsSkipped',
  recordsIngested: 'RecordsIngested',
  recordsSkipped: 'RecordsSkipped',
  factsWritten: 'FactsWritten',
  recreations: 'Recreations',
  activeLoops: 'ActiveLoops',
  alertsPublished: 'AlertsPublished',
  slackPosts: 'SlackPosts',
  analysesDispatched: 'AnalysesDispatched',
  /** Analyses the ingest asked for at once, on evidence in the facts it wrote (dimension `evidence`). */
  analysesRequestedOnEvidence: 'AnalysesRequestedOnEvidence',
  /** Evidence too old to analyse ahead of the schedule (a backfill, a late object). */
  evidenceLeftToSchedule: 'EvidenceLeftToSchedule',
  staleAnalysesSkipped: 'StaleAnalysesSkipped',
  /** Requests a finished run already covered, skipped after one state read (lib/alerts/coverage.ts). */
  analysesMerged: 'AnalysesMerged',
  findingsRowsWritten: 'FindingsRowsWritten',
  bucketSettingsMissing: 'BucketSettingsMissing',
  /**
   * The function's peak memory as a share of its memory size (dimension `function`): AWS/Lambda
   * publishes no memory metric (only Lambda Insights would), so the function says it itself.
   */
  memoryUsedPercent: 'MemoryUsedPercent',
  /** Seconds from the newest audit event an alert is about to its publication (dimension `event`). */
  alertDelay: 'AlertDelay',
} as const;

export function createLogger(fn: string): Logger {
  return new Logger({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME,
    persistentKeys: { function: fn },
  });
}

export function createMetrics(): Metrics {
  return new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME,
  });
}

/**
 * Peak resident memory as a percentage of the function's memory size, or null outside Lambda
 * (no AWS_LAMBDA_FUNCTION_MEMORY_SIZE). `maxRssKb` is process.resourceUsage().maxRSS: the
 * execution environment's peak so far, which is what nears the limit on a warm container.
 */
export function memoryUsedPercent(env: Record<string, string | undefined>, maxRssKb: number): number | null {
  const limitMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (!Number.isFinite(limitMb) || limitMb <= 0 || !Number.isFinite(maxRssKb) || maxRssKb < 0) return null;
  return Math.round((maxRssKb / 1024 / limitMb) * 1000) / 10;
}

/** Adds the MemoryUsedPercent metric of function `fn` (the memory alarms watch it); nothing outside Lambda. */
export function recordMemoryUse(metrics: Metrics, fn: string): void {
  const pct = memoryUsedPercent(process.env, process.resourceUsage().maxRSS);
  if (pct === null) return;
  metrics
    .singleMetric()
    .addDimension('function', fn)
    .addMetric(METRIC.memoryUsedPercent, MetricUnit.Percent, pct);
}
