// A SecureString parameter read with decryption and cached per container: a warm
// notifier does not call SSM for every message, and a rotated webhook URL is picked up
// once the cache expires (or at the next cold start).
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';

export interface CachedSecret {
  get(): Promise<string>;
  /** Drops the cached value, e.g. after the webhook answered 404 (revoked URL). */
  invalidate(): void;
}

export function cachedSsmParameter(
  ssm: () => SSMClient,
  name: string,
  ttlMs: number,
  now: () => number = Date.now,
): CachedSecret {
  let value: string | undefined;
  let fetchedAt = 0;
  let inflight: Promise<string> | undefined;
  return {
    async get() {
      if (value !== undefined && now() - fetchedAt < ttlMs) return value;
      // Concurrent callers share one request.
      inflight ??= (async () => {
        try {
          const res = await ssm().send(new GetParameterCommand({ Name: name, WithDecryption: true }));
          const v = res.Parameter?.Value;
          if (!v) throw new Error(`SSM parameter ${name} has no value`);
          value = v;
          fetchedAt = now();
          return v;
        } finally {
          inflight = undefined;
        }
      })();
      return inflight;
    },
    invalidate() {
      value = undefined;
    },
  };
}
