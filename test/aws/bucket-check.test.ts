// What the ingest function reports about an existing bucket the stack could not configure.
import {
  missingBucketSettings,
  policyDeniesPlainHttp,
  type BucketSettings,
} from '../../lib/aws/bucket-check';

const want = {
  factsPrefix: 'facts/',
  reportsPrefix: 'reports/',
  factsRetentionDays: 30,
  reportsRetentionDays: 14,
};
const good: BucketSettings = {
  encryption: 'aws:kms',
  publicAccessBlocked: true,
  tlsOnly: true,
  expirations: [
    { prefix: 'facts/', days: 30 },
    { prefix: 'reports/', days: 7 },
  ],
};

describe('missingBucketSettings', () => {
  it.each<[string, BucketSettings, string[]]>([
    ['everything in place', good, []],
    ['a bucket-wide rule covers both prefixes', { ...good, expirations: [{ prefix: '', days: 10 }] }, []],
    [
      'no default encryption',
      { ...good, encryption: null },
      ['default encryption: none (set SSE-S3 or SSE-KMS)'],
    ],
    [
      'public access not blocked',
      { ...good, publicAccessBlocked: false },
      ['public access block: not all four settings on'],
    ],
    [
      'no TLS-only statement',
      { ...good, tlsOnly: false },
      ['TLS-only policy: no statement denies aws:SecureTransport=false'],
    ],
    [
      'facts kept too long, reports forever',
      { ...good, expirations: [{ prefix: 'facts/', days: 90 }] },
      [
        'lifecycle: facts/ expires after 90 days (want 30)',
        'lifecycle: nothing expires reports/ (want 14 days)',
      ],
    ],
    [
      'nothing readable',
      {},
      [
        'default encryption: could not be read',
        'public access block: could not be read',
        'TLS-only policy: could not be read',
        'lifecycle: could not be read (want facts/ expiring after 30 days)',
        'lifecycle: could not be read (want reports/ expiring after 14 days)',
      ],
    ],
  ])('%s', (_name, settings, expected) => expect(missingBucketSettings(settings, want)).toEqual(expected));
});

describe('policyDeniesPlainHttp', () => {
  const deny = {
    Effect: 'Deny',
    Principal: '*',
    Action: 's3:*',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  };
  it.each<[string, string, boolean]>([
    ['the stack’s statement', JSON.stringify({ Statement: [deny] }), true],
    [
      'a boolean false',
      JSON.stringify({ Statement: [{ ...deny, Condition: { Bool: { 'aws:SecureTransport': false } } }] }),
      true,
    ],
    ['a single statement object', JSON.stringify({ Statement: deny }), true],
    [
      'an Allow on TLS',
      JSON.stringify({
        Statement: [{ ...deny, Effect: 'Allow', Condition: { Bool: { 'aws:SecureTransport': 'true' } } }],
      }),
      false,
    ],
    ['no statements', JSON.stringify({ Statement: [] }), false],
    ['not JSON', 'nope', false],
  ])('%s', (_name, policy, expected) => expect(policyDeniesPlainHttp(policy)).toBe(expected));
});
