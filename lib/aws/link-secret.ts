// The report-link secret from Secrets Manager, cached per container. The analysis signs with
// the current version (AWSCURRENT); the link function also accepts the previous one
// (AWSPREVIOUS), so links made before a rotation keep working until the next one.
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export interface LinkSecrets {
  /** The secret to sign with. */
  current(): Promise<string>;
  /** Every secret a link may be signed with: current first, then the previous one if any. */
  accepted(): Promise<string[]>;
  /**
   * Reads again, unless it read less than `minAgeMs` ago: a link signed right after a
   * rotation is not refused for the rest of the cache's life, and forged links cannot make
   * the function call Secrets Manager more than once per `minAgeMs`.
   */
  refresh(minAgeMs: number): Promise<boolean>;
}

async function read(
  client: SecretsManagerClient,
  secretId: string,
  stage: 'AWSCURRENT' | 'AWSPREVIOUS',
): Promise<string | null> {
  try {
    const res = await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }));
    if (!res.SecretString) throw new Error(`secret ${secretId} (${stage}) has no string value`);
    return res.SecretString;
  } catch (e) {
    // A secret never rotated has no previous version.
    if (stage === 'AWSPREVIOUS' && (e as { name?: string }).name === 'ResourceNotFoundException') return null;
    throw e;
  }
}

export function cachedLinkSecrets(
  client: () => SecretsManagerClient,
  secretId: string,
  opts: { ttlMs: number; withPrevious: boolean; now?: () => number },
): LinkSecrets {
  const now = opts.now ?? ((): number => Date.now());
  let cached: { current: string; previous: string | null; at: number } | undefined;
  let inflight: Promise<NonNullable<typeof cached>> | undefined;
  const load = (): Promise<NonNullable<typeof cached>> =>
    (inflight ??= (async () => {
      try {
        const [current, previous] = await Promise.all([
          read(client(), secretId, 'AWSCURRENT'),
          opts.withPrevious ? read(client(), secretId, 'AWSPREVIOUS') : Promise.resolve(null),
        ]);
        cached = { current: current!, previous, at: now() };
        return cached;
      } finally {
        inflight = undefined;
      }
    })());
  const fresh = async (): Promise<NonNullable<typeof cached>> =>
    cached && now() - cached.at < opts.ttlMs ? cached : load();
  return {
    current: async () => (await fresh()).current,
    accepted: async () => {
      const c = await fresh();
      return c.previous === null || c.previous === c.current ? [c.current] : [c.current, c.previous];
    },
    refresh: async (minAgeMs) => {
      if (cached && now() - cached.at < minAgeMs) return false;
      await load();
      return true;
    },
  };
}
