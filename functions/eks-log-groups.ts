// The EksLogGroups custom resource (infra/eks-shipping.cjs): before the stack subscribes the
// listed EKS clusters' log groups, create those that do not exist yet, so that a cluster
// whose audit log is not on yet does not fail the deploy. Deleting the resource leaves the
// log groups alone: they are EKS's.
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { customResourceResponse, sendCustomResourceResponse } from '../lib/aws/custom-resource';
import { ensureLogGroups, logGroupNamesOf } from '../lib/aws/log-groups';
import { createLogger } from '../lib/aws/observability';

const logger = createLogger('eksLogGroups');
let client: CloudWatchLogsClient | undefined;

export const handler = async (event: CloudFormationCustomResourceEvent, context: Context): Promise<void> => {
  logger.addContext(context);
  let outcome: Parameters<typeof customResourceResponse>[1];
  try {
    if (event.RequestType === 'Delete') {
      outcome = { ok: true };
    } else {
      const names = logGroupNamesOf(event.ResourceProperties);
      client ??= new CloudWatchLogsClient({});
      const done = await ensureLogGroups(client, names);
      logger.info('EKS log groups ready', { created: done.created, existing: done.existing });
      outcome = { ok: true, data: { Created: done.created.length, Existing: done.existing.length } };
    }
  } catch (e) {
    logger.error('EKS log groups could not be prepared', { error: String(e) });
    outcome = { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  await sendCustomResourceResponse(
    event.ResponseURL,
    customResourceResponse(event, outcome, context.logStreamName),
  );
};
