// AWS SDK clients for the handlers, made on first use and kept per container (the SDK
// client holds the connection pool worth reusing across invocations).
//
// Endpoints and region come from the SDK's own environment chain (AWS_REGION,
// AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3, ...), which is how the local pipeline and the
// tests point the unchanged handlers at the fauxqs emulator. S3 path-style addressing has
// no standard variable, so KOPERATOR_AUDIT_S3_PATH_STYLE=true asks for it: an emulator
// on 127.0.0.1 has no bucket subdomains.
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

export interface AwsClients {
  s3(): S3Client;
  sns(): SNSClient;
  sqs(): SQSClient;
  ssm(): SSMClient;
}

export function createAwsClients(env: Record<string, string | undefined> = process.env): AwsClients {
  let s3: S3Client | undefined;
  let sns: SNSClient | undefined;
  let sqs: SQSClient | undefined;
  let ssm: SSMClient | undefined;
  return {
    s3: () => (s3 ??= new S3Client({ forcePathStyle: env.KOPERATOR_AUDIT_S3_PATH_STYLE === 'true' })),
    sns: () => (sns ??= new SNSClient({})),
    sqs: () => (sqs ??= new SQSClient({})),
    ssm: () => (ssm ??= new SSMClient({})),
  };
}
