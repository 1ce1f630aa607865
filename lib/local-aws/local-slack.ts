// A Slack incoming-webhook stand-in on 127.0.0.1 that records every request. It can be
// told to answer the first requests with 429 + Retry-After, as Slack does when a channel
// is rate limited, so the notifier's retry is exercised over real HTTP.
import { createServer, type Server } from 'http';
import { listenLocal } from './local-listen';

export interface SlackRequest {
  at: number;
  path: string;
  contentType: string | undefined;
  body: string;
}

export interface LocalSlack {
  /** The webhook URL to store in the SSM parameter. */
  url: string;
  requests: SlackRequest[];
  /** Answer the next `n` requests with this status (and Retry-After seconds when given). */
  failNext(n: number, status: number, retryAfterSeconds?: number): void;
  stop(): Promise<void>;
}

export async function startLocalSlack(): Promise<LocalSlack> {
  const requests: SlackRequest[] = [];
  let failures: { status: number; retryAfter?: number }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      requests.push({ at: Date.now(), path: req.url ?? '', contentType: req.headers['content-type'], body });
      const f = failures.shift();
      if (f) {
        const headers: Record<string, string> = { 'content-type': 'text/plain' };
        if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
        res.writeHead(f.status, headers);
        res.end(f.status === 429 ? 'rate_limited' : 'error');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  const listener = await listenLocal(server);
  return {
    url: `${listener.endpoint}/services/T000/B000/local`,
    requests,
    failNext(n, status, retryAfterSeconds) {
      failures = [
        ...failures,
        ...Array.from({ length: n }, () => ({ status, retryAfter: retryAfterSeconds })),
      ];
    },
    stop: listener.close,
  };
}
