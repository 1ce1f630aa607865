// A stand-in for SSM Parameter Store's GetParameter, on 127.0.0.1, for the local pipeline
// and the tests: fauxqs emulates S3/SNS/SQS only, and the notifier must still read its
// webhook URL through the real SSM client, over the wire, as it does in Lambda. It speaks
// the AWS JSON 1.1 protocol for the one action the notifier uses and records each request
// so a test can check it asked for decryption.
import { createServer, type IncomingMessage, type Server } from 'http';
import { listenLocal } from './local-listen';

export interface LocalSsm {
  endpoint: string;
  requests: { name: string; withDecryption: boolean }[];
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.on('data', (d: Buffer) => (s += d.toString('utf8')));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}

export async function startLocalSsm(
  parameters: Record<string, { value: string; type?: 'String' | 'SecureString' }>,
): Promise<LocalSsm> {
  const requests: LocalSsm['requests'] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const reply = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      if (target !== 'AmazonSSM.GetParameter') {
        return reply(400, {
          __type: 'InvalidAction',
          message: `local SSM serves GetParameter only, not ${target}`,
        });
      }
      let input: { Name?: unknown; WithDecryption?: unknown };
      try {
        input = JSON.parse(text) as typeof input;
      } catch {
        return reply(400, { __type: 'SerializationException', message: 'body is not JSON' });
      }
      const name = typeof input.Name === 'string' ? input.Name : '';
      const withDecryption = input.WithDecryption === true;
      requests.push({ name, withDecryption });
      const p = parameters[name];
      if (!p) return reply(400, { __type: 'ParameterNotFound', message: `parameter ${name} not found` });
      const type = p.type ?? 'SecureString';
      // Like SSM: a SecureString read without decryption returns ciphertext, not the secret.
      const value =
        type === 'SecureString' && !withDecryption
          ? Buffer.from(`encrypted:${p.value}`).toString('base64')
          : p.value;
      return reply(200, {
        Parameter: {
          Name: name,
          Type: type,
          Value: value,
          Version: 1,
          ARN: `arn:aws:ssm:us-east-1:000000000000:parameter${name.startsWith('/') ? '' : '/'}${name}`,
        },
      });
    });
  });
  const listener = await listenLocal(server);
  return {
    endpoint: listener.endpoint,
    requests,
    stop: listener.close,
  };
}
