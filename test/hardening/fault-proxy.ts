// An HTTP proxy in front of fauxqs that injects failures at the wire, where real AWS
// produces them: a throttled or 5xx SNS Publish, an S3 PutObject that fails (the ingest
// dying after some facts objects are written), an object S3 refuses to serve. Every
// request is forwarded untouched unless the test's rule answers it instead, so the SDK's
// own retry strategy, error parsing and the handlers run exactly as against AWS.
import { createServer, type IncomingHttpHeaders, type Server } from 'http';
import { forwardRequest } from '../support/http-forward';
import { listenLocal } from '../../lib/local-aws/local-listen';

export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/bucket/facts/cluster=a/hour=…/d.jsonl.gz`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** SNS and SQS speak the query/JSON protocols on `/`; the rest is S3 (path style). */
  service: 's3' | 'sns' | 'sqs';
  /** SNS `Action=…`, SQS `X-Amz-Target` operation, or the S3 method. */
  action: string;
  /** The SDK's `amz-sdk-request: attempt=N; max=M`, N (1 for the first try). */
  attempt: number;
  at: number;
}

export interface FaultResponse {
  status: number;
  body: string;
  contentType?: string;
}

/** Answer instead of forwarding; `forwardThen` forwards first and answers this instead of the real response. */
export type Fault = FaultResponse | { forwardThen: FaultResponse };

export type FaultRule = (req: ProxiedRequest) => Fault | undefined;

export interface FaultProxy {
  endpoint: string;
  /** Every request seen, faulted or not, in arrival order. */
  requests: ProxiedRequest[];
  /** Requests answered by the rule. */
  faulted: ProxiedRequest[];
  /** Sets the rule (undefined: forward everything). */
  rule(r: FaultRule | undefined): void;
  stop(): Promise<void>;
}

/** SNS's query-protocol error document, as Publish returns it when throttled. */
export function snsError(status: number, code: string, message: string): FaultResponse {
  return {
    status,
    contentType: 'text/xml',
    body:
      `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>${status < 500 ? 'Sender' : 'Receiver'}</Type>` +
      `<Code>${code}</Code><Message>${message}</Message></Error><RequestId>fault-proxy</RequestId></ErrorResponse>`,
  };
}

/** S3's REST error document. */
export function s3Error(status: number, code: string, message: string): FaultResponse {
  return {
    status,
    contentType: 'application/xml',
    body:
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message>` +
      `<RequestId>fault-proxy</RequestId></Error>`,
  };
}

function classify(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  const target = headers['x-amz-target'];
  if (typeof target === 'string' && target.startsWith('AmazonSQS.'))
    return { service: 'sqs' as const, action: target.slice('AmazonSQS.'.length) };
  if (method === 'POST' && (path === '/' || path.startsWith('/?'))) {
    const params = new URLSearchParams(body.toString('utf8'));
    const action = params.get('Action') ?? '';
    return { service: 'sns' as const, action };
  }
  return { service: 's3' as const, action: method };
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const faulted: ProxiedRequest[] = [];
  let current: FaultRule | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const sdkRequest = String(req.headers['amz-sdk-request'] ?? '');
      const attempt = Number(/attempt=(\d+)/.exec(sdkRequest)?.[1] ?? '1');
      const seen: ProxiedRequest = {
        method,
        path,
        headers: req.headers,
        body,
        ...classify(method, path, req.headers, body),
        attempt,
        at: Date.now(),
      };
      requests.push(seen);
      const fault = current?.(seen);
      const answer = (f: FaultResponse): void => {
        faulted.push(seen);
        res.writeHead(f.status, {
          'content-type': f.contentType ?? 'application/xml',
          'x-amzn-requestid': 'fault-proxy',
        });
        res.end(f.body);
      };
      if (fault && !('forwardThen' in fault)) {
        answer(fault);
        return;
      }
      forwardRequest(target, method, path, req.headers, body).then(
        (up) => {
          if (fault) {
            answer(fault.forwardThen);
            return;
          }
          res.writeHead(up.status, up.headers);
          res.end(up.body);
        },
        (e: unknown) => {
          res.writeHead(502);
          res.end(String(e));
        },
      );
    });
  });
  const listener = await listenLocal(server);
  return {
    endpoint: listener.endpoint,
    requests,
    faulted,
    rule: (r) => {
      current = r;
    },
    stop: listener.close,
  };
}
