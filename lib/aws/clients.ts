// AWS SDK clients for the handlers, made on first use and kept per container (the SDK
// client holds the connection pool worth reusing across invocations).
//
// Endpoints and region come from the SDK's own environment chain (AWS_REGION,
// AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, ...), which is how the local pipeline and the
// tests point the unchanged handlers at the fauxqs emulator. S3 path-style addressing has
// no standard variable, so KOPERATOR_AUDIT_S3_PATH_STYLE=true asks for it: an emulator
// on 127.0.0.1 has no bucket subdomains.
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

/**
 * The settings a client is built from. In Lambda they never change; the local pipeline
 * sets them per run, so a client built for an earlier run's emulator is rebuilt.
 */
function settingsKey(env: Record<string, string | undefined>, service: string): string {
  return [
    env.AWS_REGION,
    env.AWS_ENDPOINT_URL,
    env[`AWS_ENDPOINT_URL_${service}`],
    env.KOPERATOR_AUDIT_S3_PATH_STYLE,
    env.AWS_ACCESS_KEY_ID,
  ].join('\u0000');
}

function memo<T>(env: Record<string, string | undefined>, service: string, make: () => T): () => T {
  let client: T | undefined;
  let key: string | undefined;
  return () => {
    const k = settingsKey(env, service);
    if (client === undefined || k !== key) {
      client = make();
      key = k;
    }
    return client;
  };
}

type Env = Record<string, string | undefined>;

// One factory per service, so that a function's bundle holds only the SDK clients it calls:
// esbuild drops the unused ones (the client packages declare no side effects), where one
// object of all five kept every client in every bundle.
export const s3Client = (env: Env = process.env): (() => S3Client) =>
  memo(env, 'S3', () => new S3Client({ forcePathStyle: env.KOPERATOR_AUDIT_S3_PATH_STYLE === 'true' }));

export const snsClient = (env: Env = process.env): (() => SNSClient) =>
  memo(env, 'SNS', () => new SNSClient({}));

/**
 * Against an emulator (an endpoint from the environment), keep to that endpoint instead of
 * the host in the queue URL, which names the emulator's virtual host.
 */
export const sqsClient = (env: Env = process.env): (() => SQSClient) =>
  memo(env, 'SQS', () => new SQSClient(env.AWS_ENDPOINT_URL ? { useQueueUrlAsEndpoint: false } : {}));

export const ssmClient = (env: Env = process.env): (() => SSMClient) =>
  memo(env, 'SSM', () => new SSMClient({}));

export const eventBridgeClient = (env: Env = process.env): (() => EventBridgeClient) =>
  memo(env, 'EVENTBRIDGE', () => new EventBridgeClient({}));

export const secretsManagerClient = (env: Env = process.env): (() => SecretsManagerClient) =>
  memo(env, 'SECRETS_MANAGER', () => new SecretsManagerClient({}));
