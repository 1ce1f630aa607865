// Forwards one buffered HTTP request to an upstream and buffers the answer: the common
// part of the test proxies that sit in front of fauxqs to add S3 behaviour or faults.
import { request, type IncomingHttpHeaders } from 'http';

export interface ForwardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function forwardRequest(
  target: URL,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<ForwardedResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method, path, headers: { ...headers, host: target.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
