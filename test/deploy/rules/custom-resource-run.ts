// The calls each custom resource of a template makes, recorded by running its own code
// (lib/aws) on the properties the template gives it, against a client that answers every
// call: what the IAM check then evaluates with the custom resource function's role. Half
// the log groups already exist, so both outcomes of each call are recorded. Test-only.
import { ResourceAlreadyExistsException } from '@aws-sdk/client-cloudwatch-logs';
import { ensureLogGroups, logGroupNamesOf } from '../../../lib/aws/log-groups';
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

/** How each custom resource type's function is driven: its code on the resolved properties. */
const DRIVERS: Record<string, (fn: string, props: Record<string, unknown>) => Promise<RawCall[]>> = {
  'Custom::EksLogGroups': async (fn, props) => {
    const calls: RawCall[] = [];
    await ensureLogGroups(recordingLogsClient(fn, calls) as never, logGroupNamesOf(props));
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
