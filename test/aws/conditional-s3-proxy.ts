// An HTTP proxy in front of fauxqs that enforces S3's conditional writes (If-None-Match: *
// and If-Match on PutObject), which fauxqs 1.9 accepts but ignores. Everything else is
// forwarded untouched, so the SDK still talks the S3 wire protocol to a real emulator;
// this only adds the one behaviour of real S3 the alert-state claim relies on.
import { createServer, type Server } from 'http';
import { forwardRequest } from '../support/http-forward';
import { listenLocal } from '../../lib/local-aws/local-listen';

export interface ConditionalProxy {
  endpoint: string;
  /** PutObject requests answered 412. */
  rejected: string[];
  stop(): Promise<void>;
}

export async function startConditionalProxy(upstream: string): Promise<ConditionalProxy> {
  const target = new URL(upstream);
  const rejected: string[] = [];
  // One conditional write at a time, as S3 serialises them per key.
  let queue: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const ifNoneMatch = req.headers['if-none-match'];
      const ifMatch = req.headers['if-match'];
      const conditional =
        req.method === 'PUT' &&
        !req.headers['x-amz-copy-source'] &&
        (ifNoneMatch !== undefined || ifMatch !== undefined);
      const forward = async (): Promise<void> => {
        if (conditional) {
          const head = await forwardRequest(target, 'HEAD', path, {}, Buffer.alloc(0));
          const exists = head.status === 200;
          const etag = head.headers.etag;
          const fails =
            (ifNoneMatch === '*' && exists) || (ifMatch !== undefined && (!exists || ifMatch !== etag));
          if (fails) {
            rejected.push(path);
            res.writeHead(412, { 'content-type': 'application/xml' });
            res.end(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code>' +
                '<Message>At least one of the pre-conditions you specified did not hold</Message>' +
                `<Condition>${ifMatch !== undefined ? 'If-Match' : 'If-None-Match'}</Condition><RequestId>proxy</RequestId></Error>`,
            );
            return;
          }
        }
        const up = await forwardRequest(target, req.method ?? 'GET', path, req.headers, body);
        res.writeHead(up.status, up.headers);
        res.end(up.body);
      };
      const run = conditional ? (queue = queue.then(forward, forward)) : forward();
      run.catch((e: unknown) => {
        res.writeHead(502);
        res.end(String(e));
      });
    });
  });
  const listener = await listenLocal(server);
  return {
    endpoint: listener.endpoint,
    rejected,
    stop: listener.close,
  };
}
