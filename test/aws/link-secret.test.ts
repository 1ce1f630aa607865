// The link secret as the functions read it: through the real Secrets Manager client, from
// the local stand-in, cached, with the previous version while a rotation is under way.
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedLinkSecrets } from '../../lib/aws/link-secret';
import { startLocalSecrets, type LocalSecrets } from '../../lib/local-aws/local-secrets';

describe('link secret', () => {
  let sm: LocalSecrets;
  let client: SecretsManagerClient;
  let clock = 0;
  const now = (): number => clock;

  beforeEach(async () => {
    sm = await startLocalSecrets({ links: 'one'.repeat(10) });
    client = new SecretsManagerClient({
      endpoint: sm.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    clock = 1_000_000;
  });
  afterEach(async () => {
    client.destroy();
    await sm.stop();
  });

  it('reads the current version once per TTL; a secret never rotated has no previous one', async () => {
    const s = cachedLinkSecrets(() => client, sm.arns.links!, { ttlMs: 60_000, withPrevious: true, now });
    expect(await s.accepted()).toEqual(['one'.repeat(10)]);
    expect(await s.current()).toBe('one'.repeat(10));
    expect(sm.requests.map((r) => r.versionStage).sort()).toEqual(['AWSCURRENT', 'AWSPREVIOUS']);
    clock += 60_000;
    await s.current();
    expect(sm.requests).toHaveLength(4);
  });

  it('after a rotation accepts both, the new one first; the signer reads the current one only', async () => {
    const verifier = cachedLinkSecrets(() => client, 'links', { ttlMs: 60_000, withPrevious: true, now });
    const signer = cachedLinkSecrets(() => client, 'links', { ttlMs: 60_000, withPrevious: false, now });
    sm.rotate('links', 'two'.repeat(10));
    expect(await verifier.accepted()).toEqual(['two'.repeat(10), 'one'.repeat(10)]);
    const before = sm.requests.length;
    expect(await signer.current()).toBe('two'.repeat(10));
    expect(sm.requests.slice(before).map((r) => r.versionStage)).toEqual(['AWSCURRENT']);
  });

  it('reads again on refresh only when the last read is old enough', async () => {
    const s = cachedLinkSecrets(() => client, 'links', { ttlMs: 900_000, withPrevious: false, now });
    await s.current();
    sm.rotate('links', 'two'.repeat(10));
    expect(await s.refresh(60_000)).toBe(false);
    expect(await s.current()).toBe('one'.repeat(10));
    clock += 60_000;
    expect(await s.refresh(60_000)).toBe(true);
    expect(await s.current()).toBe('two'.repeat(10));
  });

  it('fails on a secret that does not exist, rather than signing with nothing', async () => {
    const s = cachedLinkSecrets(() => client, 'nope', { ttlMs: 1, withPrevious: false, now });
    await expect(s.current()).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});
