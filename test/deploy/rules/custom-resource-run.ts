// The calls each custom resource of a template makes, recorded by running its own code
// (lib/aws) on the properties the template gives it, against a client that answers every
// call: what the IAM check then evaluates with the custom resource function's role. Its
// whole life is played: a create (every second log group already exists, so both outcomes
// of CreateLogGroup are recorded, and the retention is put on the created ones), an update
// that drops a cluster (its filter deleted), and the delete. Test-only.
import { ResourceAlreadyExistsException } from '@aws-sdk/client-cloudwatch-logs';
import { NoSuchKey } from '@aws-sdk/client-s3';
import {
  bucketPolicySpecOf,
  putExistingBucketPolicy,
  restoreExistingBucketPolicy,
} from '../../../lib/aws/bucket-policy';
import {
  applySubscriptions,
  removeSubscriptions,
  subscriptionSpecOf,
  type RetryOptions,
} from '../../../lib/aws/log-groups';
import type { RawCall } from './call-recorder';
import { functionKeys } from './iam-requests';
import type { Resolver } from './resolve';
import { isObject, type Template } from './template';

interface Sent {
  constructor: { name: string };
  input: object;
}

/** A CloudWatch Logs client that records each call and answers it, every second log group existing. */
function recordingLogsClient(fn: string, calls: RawCall[]): { send: (c: Sent) => Promise<unknown> } {
  let n = 0;
  return {
    send: async (command) => {
      const call: RawCall = {
        fn,
        service: 'CloudWatchLogs',
        operation: command.constructor.name.replace(/Command$/, ''),
        input: { ...(command.input as Record<string, unknown>) },
        outcome: 'ok',
      };
      calls.push(call);
      if (call.operation === 'CreateLogGroup' && n++ % 2 === 1) {
        call.outcome = 'ResourceAlreadyExistsException 400';
        throw new ResourceAlreadyExistsException({ message: 'exists', $metadata: {} });
      }
      return {};
    },
  };
}

/**
 * An S3 client that records each call and answers it from a bucket whose policy and saved
 * copy it keeps, so a create (nothing saved yet: a 404), an update and a delete each make
 * the calls they make in an account.
 */
function recordingS3Client(fn: string, calls: RawCall[]): { send: (c: Sent) => Promise<unknown> } {
  const objects = new Map<string, string>();
  let policy: string | null = '{"Version":"2012-10-17","Statement":[]}';
  return {
    send: async (command) => {
      const input = command.input as Record<string, unknown>;
      const call: RawCall = {
        fn,
        service: 'S3',
        operation: command.constructor.name.replace(/Command$/, ''),
        input: { ...input },
        outcome: 'ok',
      };
      calls.push(call);
      switch (call.operation) {
        case 'GetBucketPolicy':
          return { Policy: policy };
        case 'PutBucketPolicy':
          policy = String(input.Policy);
          return {};
        case 'DeleteBucketPolicy':
          policy = null;
          return {};
        case 'PutObject':
          objects.set(String(input.Key), String(input.Body));
          return {};
        case 'GetObject': {
          const body = objects.get(String(input.Key));
          if (body === undefined) {
            call.outcome = 'NoSuchKey 404';
            throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
          }
          return { Body: { transformToString: async () => body } };
        }
        default:
          throw new Error(`recordingS3Client: ${call.operation} not modelled`);
      }
    },
  };
}

/** How each custom resource type's function is driven: its code on the resolved properties. */
const noWait: RetryOptions = { propagationMs: 0, sleep: async () => {}, now: () => 0, deadline: Infinity };

const DRIVERS: Record<string, (fn: string, props: Record<string, unknown>) => Promise<RawCall[]>> = {
  'Custom::ExistingBucketPolicy': async (fn, props) => {
    const calls: RawCall[] = [];
    const s3 = recordingS3Client(fn, calls) as never;
    const spec = bucketPolicySpecOf(props);
    await putExistingBucketPolicy(s3, spec, null);
    await putExistingBucketPolicy(s3, spec, spec);
    await restoreExistingBucketPolicy(s3, spec);
    return calls;
  },
  'Custom::EksSubscriptions': async (fn, props) => {
    const calls: RawCall[] = [];
    const logs = recordingLogsClient(fn, calls) as never;
    const spec = subscriptionSpecOf(props);
    await applySubscriptions(logs, spec, null, noWait, { undoOnFailure: true });
    // An update that drops the last cluster, then the delete.
    const fewer = { ...spec, logGroupNames: spec.logGroupNames.slice(0, -1) };
    if (fewer.logGroupNames.length > 0)
      await applySubscriptions(logs, fewer, spec, noWait, { undoOnFailure: false });
    await removeSubscriptions(logs, spec);
    return calls;
  },
};

/** Every custom resource's calls, made as its function (named by its ServiceToken). */
export async function customResourceCalls(t: Template, r: Resolver): Promise<RawCall[]> {
  const fnKeys = functionKeys(t);
  const out: RawCall[] = [];
  for (const [id, res] of Object.entries(t.Resources)) {
    if (!res.Type.startsWith('Custom::')) continue;
    const drive = DRIVERS[res.Type];
    if (!drive) throw new Error(`${id}: no driver for ${res.Type}; add one to custom-resource-run.ts`);
    const token = res.Properties?.ServiceToken;
    const target =
      isObject(token) && Array.isArray(token['Fn::GetAtt']) ? String(token['Fn::GetAtt'][0]) : '';
    const fn = fnKeys.get(target);
    if (!fn) throw new Error(`${id}: its ServiceToken is not a function of this template`);
    out.push(...(await drive(fn, r.value(res.Properties!) as Record<string, unknown>)));
  }
  return out;
}
