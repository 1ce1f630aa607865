// A stand-in for SSM Parameter Store's GetParameter, on 127.0.0.1, for the local pipeline
// and the tests: fauxqs emulates S3/SNS/SQS only, and the notifier must still read its
// webhook URL through the real SSM client, over the wire, as it does in Lambda. It speaks
// the AWS JSON 1.1 protocol for the one action the notifier uses and records each request
// so a test can check it asked for decryption.
import { serveJsonAction } from './local-json-action';

export interface LocalSsm {
  endpoint: string;
  requests: { name: string; withDecryption: boolean }[];
  stop(): Promise<void>;
}

export async function startLocalSsm(
  parameters: Record<string, { value: string; type?: 'String' | 'SecureString' }>,
): Promise<LocalSsm> {
  const requests: LocalSsm['requests'] = [];
  const listener = await serveJsonAction(
    { target: 'AmazonSSM.GetParameter', unknownType: 'InvalidAction', what: 'local SSM serves GetParameter' },
    (input) => {
      const name = typeof input.Name === 'string' ? input.Name : '';
      const withDecryption = input.WithDecryption === true;
      requests.push({ name, withDecryption });
      const p = parameters[name];
      if (!p)
        return { status: 400, body: { __type: 'ParameterNotFound', message: `parameter ${name} not found` } };
      const type = p.type ?? 'SecureString';
      // Like SSM: a SecureString read without decryption returns ciphertext, not the secret.
      const value =
        type === 'SecureString' && !withDecryption
          ? Buffer.from(`encrypted:${p.value}`).toString('base64')
          : p.value;
      return {
        status: 200,
        body: {
          Parameter: {
            Name: name,
            Type: type,
            Value: value,
            Version: 1,
            ARN: `arn:aws:ssm:us-east-1:000000000000:parameter${name.startsWith('/') ? '' : '/'}${name}`,
          },
        },
      };
    },
  );
  return {
    endpoint: listener.endpoint,
    requests,
    stop: listener.close,
  };
}
