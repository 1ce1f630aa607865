// Scheduled (EventBridge rate rule): one analysis request per cluster onto the FIFO
// analysis queue, which functions/analyze consumes. Listing the clusters is all it does,
// so a fleet's schedule costs one small invocation however many clusters there are.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { sendAnalysisRequests } from '../lib/aws/analysis-queue';
import { clustersToAnalyze } from '../lib/aws/facts-store';
import { s3Client, sqsClient } from '../lib/aws/clients';
import { dispatchConfigFromEnv } from '../lib/aws/env-config';
import { createLogger, createMetrics, METRIC } from '../lib/aws/observability';

const logger = createLogger('dispatchAnalysis');
const metrics = createMetrics();
const clients = { s3: s3Client(), sqs: sqsClient() };

export interface DispatchResponse {
  time: string;
  clusters: string[];
}

/** The run's "now" is the schedule's time, so a delayed or replayed invocation analyses the window it was meant for. */
export function runTime(event: Pick<ScheduledEvent, 'time'>): Date {
  const t = Date.parse(event.time);
  return Number.isNaN(t) ? new Date() : new Date(t);
}

export const handler = async (event: ScheduledEvent, context: Context): Promise<DispatchResponse> => {
  logger.addContext(context);
  const config = dispatchConfigFromEnv(process.env);
  const time = runTime(event).toISOString();
  try {
    const clusters = await clustersToAnalyze(clients.s3(), config);
    await sendAnalysisRequests(
      clients.sqs(),
      config.queueUrl,
      clusters.map((cluster) => ({ cluster, time })),
    );
    metrics.addMetric(METRIC.analysesDispatched, MetricUnit.Count, clusters.length);
    logger.info('analyses dispatched', { time, clusters: clusters.length });
    return { time, clusters };
  } finally {
    metrics.publishStoredMetrics();
  }
};
