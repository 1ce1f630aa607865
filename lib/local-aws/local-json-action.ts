// One AWS JSON 1.1 action served on a free loopback port: the shape the local stand-ins for
// SSM and Secrets Manager share (fauxqs has neither, and the functions must still read
// through the real SDK clients, over the wire). The stand-in gives the answer; this serves
// it, refusing any other action and any body that is not a JSON object, as AWS does.
import { createServer, type IncomingMessage } from 'http';
import { listenLocal, type LocalListener } from './local-listen';

export interface JsonReply {
  status: number;
  body: unknown;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.on('data', (d: Buffer) => (s += d.toString('utf8')));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}

export async function serveJsonAction(
  action: { target: string; unknownType: string; what: string },
  answer: (input: Record<string, unknown>) => JsonReply,
): Promise<LocalListener> {
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const reply = ({ status, body }: JsonReply): void => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      const target = String(req.headers['x-amz-target'] ?? '');
      if (target !== action.target)
        return reply({
          status: 400,
          body: { __type: action.unknownType, message: `${action.what} only, not ${target}` },
        });
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch {
        return reply({
          status: 400,
          body: { __type: 'SerializationException', message: 'body is not JSON' },
        });
      }
      const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
      return reply(answer(isObject ? (input as Record<string, unknown>) : {}));
    });
  });
  return listenLocal(server);
}
