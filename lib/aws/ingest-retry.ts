// A failed ingest message comes back within seconds, not after the queue's visibility
// timeout. That timeout must stay six times the function's (AWS's rule for an SQS event
// source: 1,800 s here), which once made every failure wait half an hour and its evidence
// arrive too old. The message's own visibility is shortened instead, growing with each
// receive so a lasting fault still reaches the dead-letter queue (maxReceiveCount 5).
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';

/** Seconds before the 1st, 2nd, 3rd... retry: 10, 30, 90, 270, then at most 15 minutes. */
export function retryDelaySeconds(receiveCount: number, baseSeconds = 10): number {
  const n = Number.isInteger(receiveCount) && receiveCount >= 1 ? receiveCount : 1;
  return Math.min(baseSeconds * 3 ** (n - 1), 900);
}

/**
 * Makes the failed message visible again after `seconds`. Best effort: when it fails the
 * message returns after the queue's own timeout, as before; the caller logs why.
 */
export async function retrySoon(
  sqs: SQSClient,
  queueUrl: string,
  receiptHandle: string,
  seconds: number,
): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}
