// The stack's custom resources. ExistingBucketPolicy (infra/storage.yml, with
// existingBucketPolicy=true): the TLS-only statement added to an existing bucket's policy,
// the policy it had saved first and put back on delete (lib/aws/bucket-policy.ts).
// EksSubscriptions (infra/eks-shipping.cjs): makes the listed EKS
// clusters' log groups ready and subscribes each one to the fleet's delivery stream, and
// takes the filters back when a log group is no longer listed or the resource is deleted
// (lib/aws/log-groups.ts). The log groups themselves are never deleted: they are EKS's.
// The EksLogGroups resource of earlier versions (log groups only) is answered on its
// delete, which an upgrade sends, and has nothing to undo.
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { S3Client } from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import {
  bucketPolicySpecOf,
  putExistingBucketPolicy,
  restoreExistingBucketPolicy,
} from '../lib/aws/bucket-policy';
import { customResourceResponse, sendCustomResourceResponse } from '../lib/aws/custom-resource';
import {
  applySubscriptions,
  defaultRetry,
  ensureLogGroups,
  logGroupNamesOf,
  removeSubscriptions,
  subscriptionSpecOf,
} from '../lib/aws/log-groups';
import { createLogger } from '../lib/aws/observability';

const logger = createLogger('eksLogGroups');
let client: CloudWatchLogsClient | undefined;
let s3: S3Client | undefined;

/** Time kept back to undo a failed create and answer CloudFormation before the function's timeout. */
const ANSWER_MARGIN_MS = 90_000;

export const handler = async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
  logger.addContext(context);
  let outcome: Parameters<typeof customResourceResponse>[1];
  try {
    // CloudWatch Logs' control-plane calls are rate-limited per account: the SDK slows down
    // instead of failing on a throttle.
    client ??= new CloudWatchLogsClient({ maxAttempts: 10, retryMode: 'adaptive' });
    if (event.ResourceType === 'Custom::ExistingBucketPolicy') {
      s3 ??= new S3Client({});
      const spec = bucketPolicySpecOf(event.ResourceProperties);
      if (event.RequestType === 'Delete') {
        const done = await restoreExistingBucketPolicy(s3, spec);
        logger.info('existing bucket policy put back', {
          bucket: spec.bucket,
          savedKey: spec.savedKey,
          done,
        });
      } else {
        const previous =
          event.RequestType === 'Update' ? bucketPolicySpecOf(event.OldResourceProperties) : null;
        const done = await putExistingBucketPolicy(s3, spec, previous);
        logger.info('TLS-only statement added to the existing bucket policy', {
          bucket: spec.bucket,
          savedKey: spec.savedKey,
          hadPolicy: done.saved.policy !== null,
        });
      }
      outcome = { ok: true };
    } else if (event.ResourceType === 'Custom::EksLogGroups') {
      // Log groups only, never deleted: nothing to do on a delete.
      if (event.RequestType !== 'Delete')
        await ensureLogGroups(client, logGroupNamesOf(event.ResourceProperties));
      outcome = { ok: true };
    } else if (event.RequestType === 'Delete') {
      const spec = subscriptionSpecOf(event.ResourceProperties);
      const removed = await removeSubscriptions(client, spec);
      logger.info('EKS subscription filters removed', { removed });
      outcome = { ok: true };
    } else {
      const spec = subscriptionSpecOf(event.ResourceProperties);
      const previous =
        event.RequestType === 'Update' ? subscriptionSpecOf(event.OldResourceProperties) : null;
      const deadline = Date.now() + context.getRemainingTimeInMillis() - ANSWER_MARGIN_MS;
      const done = await applySubscriptions(client, spec, previous, defaultRetry(deadline), {
        undoOnFailure: event.RequestType === 'Create',
      });
      logger.info('EKS log groups subscribed', {
        created: done.created,
        existing: done.existing.length,
        subscribed: done.subscribed.length,
        unsubscribed: done.unsubscribed,
      });
      outcome = {
        ok: true,
        data: {
          Created: done.created.length,
          Existing: done.existing.length,
          Subscribed: done.subscribed.length,
          Unsubscribed: done.unsubscribed.length,
        },
      };
    }
  } catch (e) {
    logger.error('EKS log groups could not be subscribed', { error: String(e) });
    outcome = { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  await sendCustomResourceResponse(
    event.ResponseURL,
    customResourceResponse(event, outcome, context.logStreamName),
  );
};
