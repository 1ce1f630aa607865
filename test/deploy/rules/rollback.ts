// A failed first deploy played on the template by CloudFormation's documented rules: the
// rollback of the operation that created a resource deletes it unless its DeletionPolicy is
// Retain (RetainExceptOnCreate deletes it then, and retains it on every later operation:
// DeletionPolicy attribute, CloudFormation template reference). What survives with a name
// fixed by the template would be created again by the retry, which fails with "already
// exists": those are the leftovers that block a second try. Pure: template in, names out.
import type { Resolver } from './resolve';
import { isObject, type Json, type Template } from './template';

/** Where each type's physical name comes from when the template fixes it. */
const NAME_PROPERTY: Record<string, (p: Record<string, Json>) => Json | undefined> = {
  'AWS::S3::Bucket': (p) => p.BucketName,
  'AWS::SQS::Queue': (p) => p.QueueName,
  'AWS::SNS::Topic': (p) => p.TopicName,
  'AWS::Lambda::Function': (p) => p.FunctionName,
  'AWS::IAM::Role': (p) => p.RoleName,
  'AWS::Logs::LogGroup': (p) => p.LogGroupName,
  'AWS::KinesisFirehose::DeliveryStream': (p) => p.DeliveryStreamName,
  'AWS::SecretsManager::Secret': (p) => p.Name,
  'AWS::CloudWatch::Alarm': (p) => p.AlarmName,
  'AWS::Glue::Database': (p) => (isObject(p.DatabaseInput) ? p.DatabaseInput.Name : undefined),
};

/** The resources a rollback of the operation that created them leaves in the account. */
export function survivorsOfFailedCreate(t: Template): string[] {
  return Object.entries(t.Resources)
    .filter(([, r]) => r.DeletionPolicy === 'Retain')
    .map(([id]) => id);
}

/** Survivors whose fixed name the retry creates again, each with that name: what blocks a second try. */
export function retryConflicts(t: Template, r: Resolver): string[] {
  const out: string[] = [];
  for (const id of survivorsOfFailedCreate(t)) {
    const res = t.Resources[id]!;
    const name = NAME_PROPERTY[res.Type]?.(res.Properties ?? {});
    if (name !== undefined)
      out.push(`${id} (${res.Type} ${r.string(name)}) survives the rollback and is created again`);
  }
  return out;
}
