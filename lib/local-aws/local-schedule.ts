// The Lambda service's part in one scheduled analysis, played on the emulator: the rule
// invokes the dispatch function, then the analysis queue's event source mapping invokes
// the analyze function one message at a time until the queue is empty (a failed message
// is retried until the redrive policy dead-letters it). Used by `local-pipeline` and the
// end-to-end tests, so both drive the handlers exactly as deployed.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaContext, scheduledEvent } from './local-lambda';
import { driveSqsHandler, type LocalStack } from './local-stack';

export interface ScheduleHandlers<S> {
  dispatch: (e: ScheduledEvent, c: Context) => Promise<unknown>;
  /** The analyze function's work with its per-cluster summaries (functions/analyze.ts `analyzeBatch`). */
  analyze: (e: SQSEvent, c: Context) => Promise<SQSBatchResponse & { clusters: S[] }>;
}

export interface ScheduleRun<S> {
  now: string;
  /** One summary per analyze attempt, in the order they ran (a retried cluster appears again). */
  clusters: S[];
  invocations: number;
  /** Messages reported failed, over all invocations. */
  failures: number;
}

export async function runSchedule<S>(
  sqs: SQSClient,
  stack: Pick<LocalStack, 'analysisQueueUrl' | 'analysisQueueArn'>,
  handlers: ScheduleHandlers<S>,
  now: Date,
): Promise<ScheduleRun<S>> {
  await handlers.dispatch(scheduledEvent(now), lambdaContext('koperator-audit-dispatchAnalysis'));
  const clusters: S[] = [];
  const drive = await driveSqsHandler(
    sqs,
    stack.analysisQueueUrl,
    stack.analysisQueueArn,
    async (e, c) => {
      const out = await handlers.analyze(e, c);
      clusters.push(...out.clusters);
      return { batchItemFailures: out.batchItemFailures };
    },
    { batchSize: 1, functionName: 'koperator-audit-analyze' },
  );
  return {
    now: now.toISOString(),
    clusters,
    invocations: drive.invocations,
    failures: drive.failures.reduce((n, f) => n + f.length, 0),
  };
}
