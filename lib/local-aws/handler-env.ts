// The environment the deployed functions read, pointed at the emulator: their SDK clients
// and configuration come from process.env, so the local pipeline's and the tests' handlers
// run against fauxqs exactly as deployed ones run against AWS.
import type { Fauxqs } from './fauxqs-server';
import type { LocalStack } from './local-stack';

export function pointHandlersAt(
  fx: Pick<Fauxqs, 'region' | 'endpoint'>,
  stack: Pick<LocalStack, 'bucket' | 'topicArn' | 'analysisQueueUrl'>,
  extra: Record<string, string> = {},
): void {
  Object.assign(process.env, {
    AWS_REGION: fx.region,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL: fx.endpoint,
    KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
    BUCKET: stack.bucket,
    TOPIC_ARN: stack.topicArn,
    ANALYSIS_QUEUE_URL: stack.analysisQueueUrl,
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ...extra,
  });
}
