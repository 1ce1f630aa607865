// SQS (bucket ObjectCreated notifications, with a DLQ) → facts in S3. Each message is
// processed on its own through Powertools' batch utility, so one bad object is reported
// in batchItemFailures and retried alone instead of failing the whole batch.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { evidenceClock, triggerDecision } from '../lib/alerts/evidence';
import { sendAnalysisRequests } from '../lib/aws/analysis-queue';
import { retryDelaySeconds, retrySoon } from '../lib/aws/ingest-retry';
import { s3Client, sqsClient } from '../lib/aws/clients';
import { ingestConfigFromEnv, type IngestConfig } from '../lib/aws/env-config';
import { ingestS3Object, skippedByReason, type IngestObjectResult } from '../lib/aws/ingest-object';
import { createLogger, createMetrics, METRIC, recordMemoryUse } from '../lib/aws/observability';
import { parseS3Notification, type S3ObjectRef } from '../lib/aws/s3-events';
import { missingBucketSettings, readBucketSettings } from '../lib/aws/bucket-check';

const logger = createLogger('ingest');
const metrics = createMetrics();
const clients = { s3: s3Client(), sqs: sqsClient() };

/** `at.ref` is the object being ingested when it throws, for the failure's log line. */
async function processRecord(
  record: SQSRecord,
  config: IngestConfig,
  at: { ref?: S3ObjectRef },
): Promise<void> {
  const parsed = parseS3Notification(record.body);
  if (parsed.kind === 'test') {
    // Sent once by S3 when the notification is configured; nothing to read.
    logger.info('s3:TestEvent ignored', { messageId: record.messageId });
    return;
  }
  for (const ignored of parsed.ignored)
    logger.info('not an ObjectCreated event, ignored', { messageId: record.messageId, ignored });
  for (const ref of parsed.objects) {
    const started = Date.now();
    at.ref = ref;
    const r = await ingestS3Object(clients.s3(), config, ref);
    const skipped = skippedByReason(r.stats);
    // Read and emitted, but not something the analysis reads (projection returned null).
    if (r.records > r.facts + r.untimedFacts) skipped['not-a-fact'] = r.records - r.facts - r.untimedFacts;
    if (r.untimedFacts > 0) skipped['untimed-fact'] = r.untimedFacts;
    // A shared EKS stream's record from a log group that names no EKS cluster (not the stack's subscription).
    if (r.unattributed > 0) skipped['no-cluster'] = r.unattributed;
    logger.info('object ingested', {
      messageId: record.messageId,
      objectKey: ref.key,
      bucket: ref.bucket,
      etag: r.etag,
      cluster: r.cluster,
      ...(r.clusters.length > 1 || r.clusters[0]?.cluster !== r.cluster
        ? { clusters: r.clusters.map((p) => ({ cluster: p.cluster, facts: p.facts })) }
        : {}),
      outcome: r.outcome.status,
      factsKeys: r.outcome.status === 'ingested' ? r.outcome.factsKeys : [],
      records: r.records,
      facts: r.facts,
      skipped,
      bytes: r.stats.bytes,
      ms: Date.now() - started,
    });
    if (r.outcome.status === 'gone') {
      // Not retried: counted by reason, and the log line names the object and why.
      logger.warn('object skipped: deleted since its notification', {
        messageId: record.messageId,
        bucket: ref.bucket,
        objectKey: ref.key,
        reason: r.outcome.status,
      });
      metrics
        .singleMetric()
        .addDimension('reason', r.outcome.status)
        .addMetric(METRIC.objectsSkipped, MetricUnit.Count, 1);
      continue;
    }
    metrics.addMetric(METRIC.objectsIngested, MetricUnit.Count, 1);
    metrics.addMetric(METRIC.recordsIngested, MetricUnit.Count, r.records);
    metrics.addMetric(METRIC.factsWritten, MetricUnit.Count, r.facts);
    for (const [reason, n] of Object.entries(skipped)) {
      if (n > 0)
        metrics
          .singleMetric()
          .addDimension('reason', reason)
          .addMetric(METRIC.recordsSkipped, MetricUnit.Count, n);
    }
    await requestAnalysisOnEvidence(record.messageId, r, config, evidenceClock(ref.arrivedAt, Date.now()));
  }
}

/**
 * Facts holding evidence (a broker pod deleted by its operator, a fight's write) ask for
 * their cluster's analysis now (each cluster of a shared stream's object its own), on the schedule's FIFO queue: the message group keeps one
 * run per cluster at a time, the deduplication id (cluster and time) makes a redelivered
 * object's request a no-op. A failed send fails the message, so the object is ingested
 * again (the same facts keys) and the request sent again.
 */
async function requestAnalysisOnEvidence(
  messageId: string,
  r: IngestObjectResult,
  config: IngestConfig,
  /** The object's arrival in S3 (evidenceClock): what the evidence's age is measured against. */
  arrivedMs: number,
): Promise<void> {
  const trigger = config.trigger;
  if (!trigger) return;
  const requests: Extract<ReturnType<typeof triggerDecision>, { action: 'request' }>[] = [];
  for (const part of r.clusters) {
    const d = triggerDecision(part.cluster, part.evidence, arrivedMs, trigger.maxAgeSeconds * 1000);
    if (d.action === 'none') continue;
    if (d.action === 'too-old') {
      logger.info('evidence older than ANALYSIS_MAX_AGE: left to the schedule', {
        messageId,
        cluster: part.cluster,
        time: d.time,
        evidence: d.counts,
      });
      metrics.addMetric(METRIC.evidenceLeftToSchedule, MetricUnit.Count, 1);
      continue;
    }
    requests.push(d);
  }
  if (requests.length === 0) return;
  await sendAnalysisRequests(
    clients.sqs(),
    trigger.queueUrl,
    // `evidence`: the run reads up to the newest facts, covering the requests queued behind it.
    requests.map((d) => ({ ...d.request, reason: 'evidence' as const })),
  );
  for (const d of requests) {
    logger.info('analysis requested on evidence', { messageId, ...d.request, evidence: d.counts });
    for (const kind of Object.keys(d.counts))
      metrics
        .singleMetric()
        .addDimension('evidence', kind)
        .addMetric(METRIC.analysesRequestedOnEvidence, MetricUnit.Count, 1);
  }
}

/** Per container: an existing bucket's settings are checked on the first invocation only. */
let bucketChecked = false;

/**
 * With an existing bucket (CHECK_BUCKET=true) the stack could not set its encryption,
 * public access block or lifecycle: say what is missing, once per container, as a
 * warning and the BucketSettingsMissing metric (its alarm is in infra/alarms.yml).
 */
async function checkBucketOnce(config: IngestConfig): Promise<void> {
  if (bucketChecked || process.env.CHECK_BUCKET !== 'true') return;
  bucketChecked = true;
  const bucket = config.factsBucket;
  const missing = missingBucketSettings(await readBucketSettings(clients.s3(), bucket), {
    factsPrefix: config.layout.factsPrefix,
    reportsPrefix: config.layout.reportsPrefix,
    factsRetentionDays: Number(process.env.FACTS_RETENTION_DAYS || 30),
    reportsRetentionDays: Number(process.env.REPORTS_RETENTION_DAYS || 14),
  });
  if (missing.length > 0)
    logger.warn('the existing logs bucket lacks settings SECURITY.md relies on; set them on the bucket', {
      bucket,
      missing,
    });
  else
    logger.info('existing logs bucket has encryption, public access block, TLS-only policy and retention', {
      bucket,
    });
  metrics.addMetric(METRIC.bucketSettingsMissing, MetricUnit.Count, missing.length);
}

/** The first retry's delay in seconds (INGEST_RETRY_SECONDS, default 10); later ones grow threefold. */
function retryBaseSeconds(): number {
  const n = Number(process.env.INGEST_RETRY_SECONDS);
  return Number.isFinite(n) && n >= 0 ? n : 10;
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const config = ingestConfigFromEnv(process.env);
  await checkBucketOnce(config);
  // One processor per invocation: it holds the batch's records and failures, so a
  // module-level one shared by invocations running at once in one process (the local
  // pipeline, tests) would report one batch's failures in another's response.
  const processor = new BatchProcessor(EventType.SQS);
  try {
    const res = await processPartialResponse(
      event,
      async (record: SQSRecord) => {
        const at: { ref?: S3ObjectRef } = {};
        try {
          await processRecord(record, config, at);
        } catch (e) {
          // Names the object and the reason: an SDK error's message alone ("Access
          // Denied", "We encountered an internal error.") does not say which object.
          const retryIn = retryDelaySeconds(
            Number(record.attributes.ApproximateReceiveCount),
            retryBaseSeconds(),
          );
          logger.error('message failed; it returns to the queue (then the DLQ)', {
            messageId: record.messageId,
            receiveCount: record.attributes.ApproximateReceiveCount,
            retryInSeconds: retryIn,
            ...(at.ref ? { bucket: at.ref.bucket, objectKey: at.ref.key } : {}),
            error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
          });
          const queueUrl = process.env.INGEST_QUEUE_URL;
          if (queueUrl)
            await retrySoon(clients.sqs(), queueUrl, record.receiptHandle, retryIn).catch((err: unknown) =>
              logger.warn(
                'could not shorten the failed message’s visibility; it returns after the queue’s timeout',
                {
                  messageId: record.messageId,
                  error: String(err),
                },
              ),
            );
          throw e;
        }
      },
      processor,
      // A batch that fails whole is reported like any other (every id in batchItemFailures)
      // instead of thrown, so the logs and metrics above still get flushed.
      { context, throwOnFullBatchFailure: false },
    );
    return res;
  } finally {
    metrics.addMetric('MessagesReceived', MetricUnit.Count, event.Records.length);
    recordMemoryUse(metrics, 'ingest');
    metrics.publishStoredMetrics();
  }
};
