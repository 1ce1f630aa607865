// Structured logs and EMF metrics for the functions (Powertools). One namespace for all
// three and one service name per stage (POWERTOOLS_SERVICE_NAME, koperator-audit-<stage>),
// so the template's alarms name exactly their own stage's metrics.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

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
  findingsRowsWritten: 'FindingsRowsWritten',
  bucketSettingsMissing: 'BucketSettingsMissing',
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
