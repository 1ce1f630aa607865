// The EksLogGroups custom resource's function on the wire: the unchanged handler talks to a
// local stand-in for the CloudWatch Logs API (its JSON protocol) and answers CloudFormation
// by PUT to a local response URL, as it would to S3's pre-signed one. A missing log group
// is created, an existing one left alone, a delete touches nothing, and every failure is
// still answered (else the stack would hang for an hour).
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { CloudFormationCustomResourceEvent, Context } from 'aws-lambda';
import { lambdaContext } from '../../lib/local-aws/local-lambda';
import { sendCustomResourceResponse, type CustomResourceResponse } from '../../lib/aws/custom-resource';

interface Call {
  target: string;
  body: { logGroupName?: string };
}

describe('eksLogGroups custom resource handler', () => {
  let server: Server;
  let base: string;
  const existing = new Set<string>(['/aws/eks/already/cluster']);
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
        const call = { target: String(req.headers['x-amz-target']), body: JSON.parse(body || '{}') };
        calls.push(call);
        const reply = (status: number, json: object) =>
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(json));
        if (deny)
          return reply(400, {
            __type: 'AccessDeniedException',
            message: 'not authorized to perform logs:CreateLogGroup',
          });
        const name = call.body.logGroupName!;
        if (existing.has(name))
          return reply(400, {
            __type: 'ResourceAlreadyExistsException',
            message: 'The specified log group already exists',
          });
        existing.add(name);
        return reply(200, {});
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
  });

  function request(
    type: 'Create' | 'Update' | 'Delete',
    names: unknown,
    url = '/cfn-response',
  ): CloudFormationCustomResourceEvent {
    return {
      RequestType: type,
      ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:koperator-audit-test-eksLogGroups',
      ResponseURL: `${base}${url}`,
      StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/koperator-audit-test/1',
      RequestId: 'req-1',
      LogicalResourceId: 'EksLogGroups',
      ResourceType: 'Custom::EksLogGroups',
      ResourceProperties: { ServiceToken: 'x', LogGroupNames: names },
      ...(type === 'Create' ? {} : { PhysicalResourceId: 'EksLogGroups-first', OldResourceProperties: {} }),
    } as CloudFormationCustomResourceEvent;
  }

  const rows: [string, 'Create' | 'Update', string[], number, number][] = [
    [
      'creates the missing log group and leaves the existing one',
      'Create',
      ['/aws/eks/already/cluster', '/aws/eks/new-1/cluster'],
      1,
      1,
    ],
    [
      'on update, creates a newly listed cluster’s log group',
      'Update',
      ['/aws/eks/new-1/cluster', '/aws/eks/new_2/cluster'],
      1,
      1,
    ],
  ];
  it.each(rows)('%s', async (_, type, names, created, existingCount) => {
    await handler(request(type, names), lambdaContext('eksLogGroups'));
    expect(calls.map((c) => [c.target, c.body.logGroupName])).toEqual(
      names.map((n) => ['Logs_20140328.CreateLogGroup', n]),
    );
    expect(responses).toEqual([
      expect.objectContaining({
        Status: 'SUCCESS',
        PhysicalResourceId: type === 'Create' ? 'EksLogGroups-req-1' : 'EksLogGroups-first',
        RequestId: 'req-1',
        LogicalResourceId: 'EksLogGroups',
        Data: { Created: created, Existing: existingCount },
      }),
    ]);
  });

  it('on delete, answers success and deletes nothing (the log groups are EKS’s)', async () => {
    await handler(request('Delete', ['/aws/eks/new-1/cluster']), lambdaContext('eksLogGroups'));
    expect(calls).toEqual([]);
    expect(responses).toEqual([
      expect.objectContaining({ Status: 'SUCCESS', PhysicalResourceId: 'EksLogGroups-first' }),
    ]);
  });

  it('answers a refused create as FAILED, with the reason and where the log is', async () => {
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
