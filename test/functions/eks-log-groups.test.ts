// The EksSubscriptions custom resource's function on the wire: the unchanged handler talks
// to a local stand-in for the CloudWatch Logs API (its JSON protocol: log groups, their
// retention and at most two subscription filters each) and answers CloudFormation by PUT to
// a local response URL, as it would to S3's pre-signed one. A missing log group is created
// (and only it gets the retention), every group is checked for a free filter slot before any
// filter is put, a group no longer listed loses the stack's filter, a delete takes the
// filters back and leaves the log groups, and every failure is still answered (else the
// stack would hang for an hour). The retry of the IAM-propagation race is played on the
// library with a fake clock (test/aws/log-groups.test.ts).
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { lambdaContext } from '../../lib/local-aws/local-lambda';
import { sendCustomResourceResponse, type CustomResourceResponse } from '../../lib/aws/custom-resource';

interface Call {
  op: string;
  body: { logGroupName?: string; filterName?: string; retentionInDays?: number };
}

interface Group {
  retention?: number;
  filters: Map<string, { destinationArn: string }>;
}

const FILTER = 'koperator-audit-test-eks';
const LEGACY = 'koperator-audit-test';
const props = (names: unknown): Record<string, unknown> => ({
  ServiceToken: 'x',
  LogGroupNames: names,
  FilterName: FILTER,
  LegacyFilterName: LEGACY,
  FilterPattern: '{ $.verb != "get" }',
  DestinationArn: 'arn:aws:firehose:us-east-1:000000000000:deliverystream/koperator-audit-test-eks',
  RoleArn: 'arn:aws:iam::000000000000:role/koperator-audit-test-EksLogsRole-X',
  RetentionInDays: '30',
});

describe('eksLogGroups custom resource handler', () => {
  let server: Server;
  let base: string;
  const groups = new Map<string, Group>();
  let deny = false;
  const calls: Call[] = [];
  const responses: CustomResourceResponse[] = [];
  let handler: (e: CloudFormationCustomResourceEvent, c: Context) => Promise<void>;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.method === 'PUT' && req.url?.startsWith('/cfn-response')) {
          responses.push(JSON.parse(body) as CustomResourceResponse);
          res.writeHead(req.url.includes('refuse') ? 403 : 200).end();
          return;
        }
        const op = String(req.headers['x-amz-target']).replace(/^Logs_20140328\./, '');
        const call: Call = { op, body: JSON.parse(body || '{}') };
        calls.push(call);
        const reply = (status: number, json: object) =>
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(json));
        const fail = (type: string, message: string) => reply(400, { __type: type, message });
        if (deny) return fail('AccessDeniedException', `not authorized to perform logs:${op}`);
        const name = call.body.logGroupName!;
        const g = groups.get(name);
        switch (op) {
          case 'CreateLogGroup':
            if (g) return fail('ResourceAlreadyExistsException', 'The specified log group already exists');
            groups.set(name, { filters: new Map() });
            return reply(200, {});
          case 'PutRetentionPolicy':
            if (!g) return fail('ResourceNotFoundException', 'The specified log group does not exist.');
            g.retention = call.body.retentionInDays;
            return reply(200, {});
          case 'DescribeSubscriptionFilters':
            if (!g) return fail('ResourceNotFoundException', 'The specified log group does not exist.');
            return reply(200, {
              subscriptionFilters: [...g.filters].map(([filterName, f]) => ({
                filterName,
                logGroupName: name,
                ...f,
              })),
            });
          case 'PutSubscriptionFilter': {
            if (!g) return fail('ResourceNotFoundException', 'The specified log group does not exist.');
            const f = call.body.filterName!;
            if (!g.filters.has(f) && g.filters.size >= 2)
              return fail('LimitExceededException', 'Resource limit exceeded.');
            g.filters.set(f, {
              destinationArn: String((call.body as Record<string, unknown>).destinationArn),
            });
            return reply(200, {});
          }
          case 'DeleteSubscriptionFilter':
            if (!g?.filters.delete(call.body.filterName!))
              return fail('ResourceNotFoundException', 'The specified resource does not exist.');
            return reply(200, {});
          default:
            return fail('UnknownOperationException', op);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_ENDPOINT_URL: base,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    });
    handler = (await import('../../functions/eks-log-groups')).handler;
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    calls.length = 0;
    responses.length = 0;
    deny = false;
    groups.clear();
    // An existing log group with a retention of its own, and one whose SIEM filter leaves a slot.
    groups.set('/aws/eks/already/cluster', { retention: 365, filters: new Map() });
    groups.set('/aws/eks/siem/cluster', { filters: new Map([['siem', { destinationArn: 'arn:siem' }]]) });
  });

  function request(
    type: 'Create' | 'Update' | 'Delete',
    names: unknown,
    url = '/cfn-response',
    oldNames: unknown = names,
  ): CloudFormationCustomResourceEvent {
    return {
      RequestType: type,
      ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:koperator-audit-test-eksLogGroups',
      ResponseURL: `${base}${url}`,
      StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/koperator-audit-test/1',
      RequestId: 'req-1',
      LogicalResourceId: 'EksSubscriptions',
      ResourceType: 'Custom::EksSubscriptions',
      ResourceProperties: props(names),
      ...(type === 'Create'
        ? {}
        : { PhysicalResourceId: 'EksSubscriptions-first', OldResourceProperties: props(oldNames) }),
    } as CloudFormationCustomResourceEvent;
  }
  const ops = (): [string, string | undefined][] => calls.map((c) => [c.op, c.body.logGroupName]);
  const filtersOf = (g: string): string[] => [...(groups.get(g)?.filters.keys() ?? [])].sort();

  it('creates the missing log group with the retention, leaves the existing one’s, checks slots, then subscribes both', async () => {
    const names = ['/aws/eks/already/cluster', '/aws/eks/new-1/cluster'];
    await handler(request('Create', names), lambdaContext('eksLogGroups'));
    expect(ops()).toEqual([
      ['CreateLogGroup', names[0]],
      ['CreateLogGroup', names[1]],
      ['PutRetentionPolicy', names[1]],
      ['DescribeSubscriptionFilters', names[0]],
      ['DescribeSubscriptionFilters', names[1]],
      ['PutSubscriptionFilter', names[0]],
      ['PutSubscriptionFilter', names[1]],
    ]);
    expect(groups.get(names[0]!)!.retention).toBe(365);
    expect(groups.get(names[1]!)!.retention).toBe(30);
    for (const n of names) expect(filtersOf(n)).toEqual([FILTER]);
    expect(responses).toEqual([
      expect.objectContaining({
        Status: 'SUCCESS',
        PhysicalResourceId: 'EksSubscriptions-req-1',
        RequestId: 'req-1',
        LogicalResourceId: 'EksSubscriptions',
        Data: { Created: 1, Existing: 1, Subscribed: 2, Unsubscribed: 0 },
      }),
    ]);
  });

  it('refuses before putting any filter when a log group has no free slot, naming each such group and its filters', async () => {
    groups.set('/aws/eks/full/cluster', {
      filters: new Map([
        ['siem', { destinationArn: 'a' }],
        ['datadog', { destinationArn: 'b' }],
      ]),
    });
    const names = ['/aws/eks/siem/cluster', '/aws/eks/full/cluster', '/aws/eks/already/cluster'];
    await handler(request('Create', names), lambdaContext('eksLogGroups'));
    expect(ops().filter(([op]) => op === 'PutSubscriptionFilter')).toEqual([]);
    expect(responses.map((r) => r.Status)).toEqual(['FAILED']);
    expect(responses[0]!.Reason).toMatch(
      /^no free subscription filter slot \(a log group takes 2\) on 1 log group\(s\): \/aws\/eks\/full\/cluster \(siem, datadog\)/,
    );
    expect(filtersOf('/aws/eks/siem/cluster')).toEqual(['siem']);
  });

  it('on update, does not count its own filter, replaces its former CloudFormation one where no slot is left, and unsubscribes a cluster no longer listed', async () => {
    groups.set('/aws/eks/upgraded/cluster', {
      filters: new Map([
        ['siem', { destinationArn: 'a' }],
        [LEGACY, { destinationArn: 'old-stream' }],
      ]),
    });
    groups.set('/aws/eks/kept/cluster', {
      filters: new Map([
        ['siem', { destinationArn: 'a' }],
        [FILTER, { destinationArn: 'x' }],
      ]),
    });
    groups.set('/aws/eks/dropped/cluster', { filters: new Map([[FILTER, { destinationArn: 'x' }]]) });
    const names = ['/aws/eks/upgraded/cluster', '/aws/eks/kept/cluster'];
    await handler(
      request('Update', names, '/cfn-response', ['/aws/eks/kept/cluster', '/aws/eks/dropped/cluster']),
      lambdaContext('eksLogGroups'),
    );
    expect(responses).toEqual([
      expect.objectContaining({ Status: 'SUCCESS', PhysicalResourceId: 'EksSubscriptions-first' }),
    ]);
    expect(filtersOf('/aws/eks/upgraded/cluster')).toEqual([FILTER, 'siem'].sort());
    expect(filtersOf('/aws/eks/kept/cluster')).toEqual([FILTER, 'siem'].sort());
    expect(filtersOf('/aws/eks/dropped/cluster')).toEqual([]);
    // The log group stays.
    expect(groups.has('/aws/eks/dropped/cluster')).toBe(true);
  });

  it('on delete, takes its filters back and leaves the log groups and every other filter', async () => {
    await handler(
      request('Create', ['/aws/eks/siem/cluster', '/aws/eks/new-1/cluster']),
      lambdaContext('eksLogGroups'),
    );
    responses.length = 0;
    calls.length = 0;
    await handler(
      request('Delete', ['/aws/eks/siem/cluster', '/aws/eks/new-1/cluster', '/aws/eks/never/cluster']),
      lambdaContext('eksLogGroups'),
    );
    expect(ops().map(([op]) => op)).toEqual(Array(3).fill('DeleteSubscriptionFilter'));
    expect(filtersOf('/aws/eks/siem/cluster')).toEqual(['siem']);
    expect(filtersOf('/aws/eks/new-1/cluster')).toEqual([]);
    expect(groups.has('/aws/eks/new-1/cluster')).toBe(true);
    expect(responses).toEqual([
      expect.objectContaining({ Status: 'SUCCESS', PhysicalResourceId: 'EksSubscriptions-first' }),
    ]);
  });

  it('answers the delete of the former EksLogGroups resource (an upgrade) without a call', async () => {
    const e = request('Delete', ['/aws/eks/new-1/cluster']) as CloudFormationCustomResourceEvent & {
      ResourceType: string;
      ResourceProperties: Record<string, unknown>;
    };
    e.ResourceType = 'Custom::EksLogGroups';
    e.ResourceProperties = { ServiceToken: 'x', LogGroupNames: ['/aws/eks/new-1/cluster'] };
    await handler(e, lambdaContext('eksLogGroups'));
    expect(calls).toEqual([]);
    expect(responses.map((r) => r.Status)).toEqual(['SUCCESS']);
  });

  it('answers a refused call as FAILED, with the reason and where the log is', async () => {
    deny = true;
    const ctx = lambdaContext('eksLogGroups');
    await handler(request('Create', ['/aws/eks/other/cluster']), ctx);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.Status).toBe('FAILED');
    expect(responses[0]!.Reason).toContain('logs:CreateLogGroup');
    expect(responses[0]!.Reason).toContain(ctx.logStreamName);
  });

  it.each([
    ['no list', undefined],
    ['an empty list', []],
    ['a log group that is not an EKS control plane’s', ['/aws/lambda/something']],
    ['a log group listed twice', ['/aws/eks/a/cluster', '/aws/eks/a/cluster']],
  ])('answers FAILED without calling CloudWatch Logs for %s', async (_, names) => {
    await handler(request('Create', names), lambdaContext('eksLogGroups'));
    expect(calls).toEqual([]);
    expect(responses.map((r) => r.Status)).toEqual(['FAILED']);
  });

  it('says so when CloudFormation refuses the response', async () => {
    await expect(
      sendCustomResourceResponse(`${base}/cfn-response/refuse`, {
        Status: 'SUCCESS',
        PhysicalResourceId: 'p',
        StackId: 's',
        RequestId: 'r',
        LogicalResourceId: 'l',
      }),
    ).rejects.toThrow(/HTTP 403/);
  });
});
