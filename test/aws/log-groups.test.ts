// The subscription steps of the EksSubscriptions custom resource on a scripted CloudWatch
// Logs client and a fake clock: the IAM-propagation race (CloudWatch Logs refusing a filter
// whose test record it could not deliver) is retried until the role's policy has propagated,
// and only for so long; any other refusal is not retried; a failed create takes back the
// filters it put; work stops at the deadline with a message that says a retry continues.
import { InvalidParameterException, LimitExceededException } from '@aws-sdk/client-cloudwatch-logs';
import { ResourceNotFoundException } from '@aws-sdk/client-cloudwatch-logs';
import {
  applySubscriptions,
  isPropagationRace,
  operatorLogGroupNamesOf,
  removeSubscriptions,
  type RetryOptions,
  type SubscriptionSpec,
} from '../../lib/aws/log-groups';

const spec: SubscriptionSpec = {
  logGroupNames: ['/aws/eks/a/cluster', '/aws/eks/b/cluster'],
  operatorLogGroupNames: [],
  operatorFilterPattern: '',
  filterName: 'koperator-audit-test-eks',
  legacyFilterName: 'koperator-audit-test',
  filterPattern: '',
  destinationArn: 'arn:aws:firehose:us-east-1:123456789012:deliverystream/koperator-audit-test-eks',
  roleArn: 'arn:aws:iam::123456789012:role/r',
  retentionInDays: null,
};

const race = () =>
  new InvalidParameterException({
    message:
      'Could not deliver test message to specified Firehose stream. Check if the given Firehose stream is in ACTIVE state.',
    $metadata: {},
  });

/** A client answering each operation from a script (a function of the call's index for that operation). */
function scripted(answer: (op: string, n: number, input: Record<string, unknown>) => unknown) {
  const calls: [string, string][] = [];
  const seen = new Map<string, number>();
  return {
    calls,
    send: async (c: { constructor: { name: string }; input: object }) => {
      const op = c.constructor.name.replace(/Command$/, '');
      const input = c.input as Record<string, unknown>;
      calls.push([op, String(input.logGroupName)]);
      const n = seen.get(op) ?? 0;
      seen.set(op, n + 1);
      const a = answer(op, n, input);
      if (a instanceof Error) throw a;
      return a ?? {};
    },
  };
}

function clock(deadline = Infinity): RetryOptions & { slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return {
    slept,
    propagationMs: 120_000,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
    deadline,
  };
}

describe('applySubscriptions', () => {
  it('retries the propagation race until the filter is accepted', async () => {
    const logs = scripted((op, n) => (op === 'PutSubscriptionFilter' && n < 3 ? race() : undefined));
    const c = clock();
    const out = await applySubscriptions(logs as never, spec, null, c, { undoOnFailure: true });
    expect(out.subscribed).toEqual(spec.logGroupNames);
    expect(c.slept).toEqual([2000, 4000, 8000]);
  });

  it('gives up on the race after propagationMs, and takes back the filters it put on a create', async () => {
    const logs = scripted((op, n) => (op === 'PutSubscriptionFilter' && n >= 1 ? race() : undefined));
    const c = clock();
    await expect(applySubscriptions(logs as never, spec, null, c, { undoOnFailure: true })).rejects.toThrow(
      /Could not deliver test message/,
    );
    expect(c.now()).toBeGreaterThanOrEqual(120_000);
    expect(logs.calls.at(-1)).toEqual(['DeleteSubscriptionFilter', '/aws/eks/a/cluster']);
  });

  it('does not retry another refusal', async () => {
    const logs = scripted((op) =>
      op === 'PutSubscriptionFilter'
        ? new LimitExceededException({ message: 'Resource limit exceeded.', $metadata: {} })
        : undefined,
    );
    const c = clock();
    await expect(applySubscriptions(logs as never, spec, null, c, { undoOnFailure: false })).rejects.toThrow(
      /Resource limit exceeded/,
    );
    expect(c.slept).toEqual([]);
    expect(isPropagationRace(new InvalidParameterException({ message: 'bad pattern', $metadata: {} }))).toBe(
      false,
    );
  });

  it('stops at the deadline, saying a second deploy continues', async () => {
    const logs = scripted(() => undefined);
    await expect(
      applySubscriptions(logs as never, spec, null, clock(-1), { undoOnFailure: false }),
    ).rejects.toThrow(/ran out of time after subscribing 0 of 2 log groups; deploy again/);
  });
});

describe('operator log groups (eksOperatorLogs)', () => {
  const withOperators: SubscriptionSpec = {
    ...spec,
    operatorLogGroupNames: ['/aws/containerinsights/a/application', '/custom/b-operator'],
    operatorFilterPattern: '{ $.kubernetes.container_image = %kafka-operator|koperator% }',
  };

  it('puts the operator pattern on operator groups and the audit pattern on audit groups, creating only audit groups', async () => {
    const patterns: [string, unknown][] = [];
    const logs = scripted((op, _n, input) => {
      if (op === 'PutSubscriptionFilter') patterns.push([String(input.logGroupName), input.filterPattern]);
      return undefined;
    });
    const out = await applySubscriptions(logs as never, withOperators, null, clock(), {
      undoOnFailure: true,
    });
    expect(out.subscribed).toEqual([...spec.logGroupNames, ...withOperators.operatorLogGroupNames]);
    expect(patterns).toEqual([
      ['/aws/eks/a/cluster', ''],
      ['/aws/eks/b/cluster', ''],
      ['/aws/containerinsights/a/application', withOperators.operatorFilterPattern],
      ['/custom/b-operator', withOperators.operatorFilterPattern],
    ]);
    const created = logs.calls.filter(([op]) => op === 'CreateLogGroup').map(([, g]) => g);
    expect(created).toEqual(spec.logGroupNames);
  });

  it('fails before any filter is put, naming a missing operator group and what to do', async () => {
    const logs = scripted((op, _n, input) =>
      op === 'DescribeSubscriptionFilters' && input.logGroupName === '/custom/b-operator'
        ? new ResourceNotFoundException({ message: 'The specified log group does not exist.', $metadata: {} })
        : undefined,
    );
    await expect(
      applySubscriptions(logs as never, withOperators, null, clock(), { undoOnFailure: true }),
    ).rejects.toThrow(/operator log group\(s\) not found: \/custom\/b-operator\. Install Container Insights/);
    expect(logs.calls.some(([op]) => op === 'PutSubscriptionFilter')).toBe(false);
  });

  it('takes the filter off an operator group no longer listed, and off every group on delete', async () => {
    const logs = scripted(() => undefined);
    const out = await applySubscriptions(
      logs as never,
      { ...withOperators, operatorLogGroupNames: ['/aws/containerinsights/a/application'] },
      withOperators,
      clock(),
      { undoOnFailure: false },
    );
    expect(out.unsubscribed).toEqual(['/custom/b-operator']);
    const del = scripted(() => undefined);
    expect(await removeSubscriptions(del as never, withOperators)).toEqual([
      ...spec.logGroupNames,
      ...withOperators.operatorLogGroupNames,
    ]);
  });

  it.each([
    [{ OperatorLogGroupNames: ['/aws/eks/a/cluster'] }, /not operator log group names/],
    [{ OperatorLogGroupNames: ['bad name'] }, /not operator log group names/],
    [{ OperatorLogGroupNames: ['/x', '/x'] }, /twice/],
    [{ OperatorLogGroupNames: '/x' }, /must be a list/],
  ])('refuses OperatorLogGroupNames %j', (props, message) => {
    expect(() => operatorLogGroupNamesOf(props)).toThrow(message);
  });

  it('takes a resource without OperatorLogGroupNames (stacks before eksOperatorLogs) as none', () => {
    expect(operatorLogGroupNamesOf({})).toEqual([]);
  });
});
