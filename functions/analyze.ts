// Scheduled analysis (EventBridge rate rule): analyse the look-back window of every
// cluster's facts and publish to SNS only what is new since the last run.
// Runs with reserved concurrency 1 (serverless.yml): see lib/aws/analyze-run.ts.
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { createAwsClients } from '../lib/aws/clients';
import { analyzeConfigFromEnv } from '../lib/aws/env-config';
import { runAnalysis, type ClusterRun } from '../lib/aws/analyze-run';
import { createLogger, createMetrics, METRIC } from '../lib/aws/observability';

const logger = createLogger('analyze');
const metrics = createMetrics();
const clients = createAwsClients();

export interface AnalyzeResponse {
  now: string;
  clusters: {
    cluster: string;
    recreations: number;
    loops: number;
    activeLoops: number;
    published: number;
    report: string | null;
    conflict: boolean;
  }[];
}

/** The run's "now" is the schedule's time, so a delayed or replayed invocation analyses the window it was meant for. */
export function runTime(event: Pick<ScheduledEvent, 'time'>): Date {
  const t = Date.parse(event.time);
  return Number.isNaN(t) ? new Date() : new Date(t);
}

export const handler = async (event: ScheduledEvent, context: Context): Promise<AnalyzeResponse> => {
  logger.addContext(context);
  // Read per invocation (it is cheap) so a configuration error shows in every failed run's log.
  const config = analyzeConfigFromEnv(process.env);
  const now = runTime(event);
  try {
    const runs = await runAnalysis(
      {
        s3: clients.s3(),
        sns: clients.sns(),
        ...(config.eventBus ? { events: clients.events() } : {}),
        config,
        logger,
      },
      now,
    );
    record(runs);
    const failed = runs.filter((r) => r.error !== undefined);
    for (const r of failed) logger.error('cluster analysis failed', { cluster: r.cluster, error: r.error });
    // Fail the invocation (the analyze-errors alarm) once every cluster has had its turn.
    if (failed.length > 0) throw new Error(`analysis failed for ${failed.map((r) => r.cluster).join(', ')}`);
    return {
      now: now.toISOString(),
      clusters: runs.map((r) => ({
        cluster: r.cluster,
        recreations: Object.values(r.recreationsByClass).reduce((a, b) => a + (b ?? 0), 0),
        loops: r.loops,
        activeLoops: r.activeLoops,
        published: r.published.length,
        report: r.report?.uri ?? null,
        conflict: r.conflict,
      })),
    };
  } finally {
    metrics.publishStoredMetrics();
  }
};

function record(runs: ClusterRun[]): void {
  // ActiveLoops without extra dimensions is what the "active loops > 0" alarm watches;
  // it is also sent per cluster for dashboards.
  metrics.addMetric(
    METRIC.activeLoops,
    MetricUnit.Count,
    runs.reduce((n, r) => n + r.activeLoops, 0),
  );
  for (const r of runs) {
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
    const byEvent = new Map<string, number>();
    for (const e of r.published) byEvent.set(e.event, (byEvent.get(e.event) ?? 0) + 1);
    for (const [ev, n] of byEvent)
      metrics.singleMetric().addDimension('event', ev).addMetric(METRIC.alertsPublished, MetricUnit.Count, n);
    for (const e of r.published)
      logger.info('alert published', { cluster: r.cluster, event: e.event, alertId: e.id });
  }
}
