// A stand-in for Secrets Manager's GetSecretValue, on 127.0.0.1, for the tests: fauxqs has
// no Secrets Manager, and the report-link function and the analysis must still read the link
// secret through the real SDK client, over the wire, as they do in Lambda. It speaks the
// AWS JSON 1.1 protocol for that one action, keeps AWSCURRENT and AWSPREVIOUS as a rotation
// moves them, and records each request.
import { serveJsonAction } from './local-json-action';

export interface LocalSecrets {
  endpoint: string;
  /** The ARN of each secret, by the name it was started with. */
  arns: Record<string, string>;
  requests: { secretId: string; versionStage: string }[];
  /** As `put-secret-value` does: the new value becomes AWSCURRENT, the old one AWSPREVIOUS. */
  rotate(name: string, value: string): void;
  stop(): Promise<void>;
}

export async function startLocalSecrets(secrets: Record<string, string>): Promise<LocalSecrets> {
  const arns = Object.fromEntries(
    Object.keys(secrets).map((n) => [n, `arn:aws:secretsmanager:us-east-1:000000000000:secret:${n}-AbCdEf`]),
  );
  const versions = new Map(
    Object.entries(secrets).map(([n, v]) => [n, { current: v, previous: null as string | null }]),
  );
  const requests: LocalSecrets['requests'] = [];
  const listener = await serveJsonAction(
    {
      target: 'secretsmanager.GetSecretValue',
      unknownType: 'InvalidRequestException',
      what: 'local Secrets Manager serves GetSecretValue',
    },
    (input) => {
      const secretId = typeof input.SecretId === 'string' ? input.SecretId : '';
      const versionStage = typeof input.VersionStage === 'string' ? input.VersionStage : 'AWSCURRENT';
      requests.push({ secretId, versionStage });
      const name = Object.keys(arns).find((n) => n === secretId || arns[n] === secretId);
      const v = name === undefined ? undefined : versions.get(name);
      const value =
        versionStage === 'AWSCURRENT' ? v?.current : versionStage === 'AWSPREVIOUS' ? v?.previous : null;
      if (name === undefined || value === undefined || value === null)
        return {
          status: 400,
          body: {
            __type: 'ResourceNotFoundException',
            message: `Secrets Manager can't find the specified secret value for staging label: ${versionStage}`,
          },
        };
      return {
        status: 200,
        body: {
          ARN: arns[name],
          Name: name,
          SecretString: value,
          VersionId: Buffer.from(value).toString('hex').slice(0, 32).padEnd(32, '0'),
          VersionStages: [versionStage],
          CreatedDate: 1_780_000_000,
        },
      };
    },
  );
  return {
    endpoint: listener.endpoint,
    arns,
    requests,
    rotate(name, value) {
      const v = versions.get(name);
      if (!v) throw new Error(`no secret ${name}`);
      versions.set(name, { current: value, previous: v.current });
    },
    stop: listener.close,
  };
}
