// What the stack cannot apply to an existing logs bucket (existingBucketName): default
// encryption, public access blocking, the retention rules, and (when the stack's own
// policy is turned off) TLS-only access. Read once per ingest container and reported as
// a warning naming each missing setting, plus the BucketSettingsMissing metric its alarm
// watches. Reading is best-effort: a setting that cannot be read is reported as unknown.
import {
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

export interface BucketSettings {
  /** SSE algorithm of the default encryption, null when none, undefined when unreadable. */
  encryption?: string | null;
  publicAccessBlocked?: boolean;
  /** Whether the policy denies requests without TLS. */
  tlsOnly?: boolean;
  /** Expiration days by rule prefix. */
  expirations?: { prefix: string; days: number }[];
}

export interface BucketExpectations {
  factsPrefix: string;
  reportsPrefix: string;
  factsRetentionDays: number;
  reportsRetentionDays: number;
}

/** Plain-words findings, empty when the bucket has everything SECURITY.md promises. */
export function missingBucketSettings(s: BucketSettings, want: BucketExpectations): string[] {
  const out: string[] = [];
  if (s.encryption === undefined) out.push('default encryption: could not be read');
  else if (s.encryption === null) out.push('default encryption: none (set SSE-S3 or SSE-KMS)');
  if (s.publicAccessBlocked === undefined) out.push('public access block: could not be read');
  else if (!s.publicAccessBlocked) out.push('public access block: not all four settings on');
  if (s.tlsOnly === undefined) out.push('TLS-only policy: could not be read');
  else if (!s.tlsOnly) out.push('TLS-only policy: no statement denies aws:SecureTransport=false');
  const rules: [string, number][] = [
    [want.factsPrefix, want.factsRetentionDays],
    [want.reportsPrefix, want.reportsRetentionDays],
  ];
  for (const [prefix, days] of rules) {
    if (s.expirations === undefined) {
      out.push(`lifecycle: could not be read (want ${prefix} expiring after ${days} days)`);
      continue;
    }
    const rule = s.expirations.find((e) => prefix.startsWith(e.prefix));
    if (!rule) out.push(`lifecycle: nothing expires ${prefix} (want ${days} days)`);
    else if (rule.days > days)
      out.push(`lifecycle: ${prefix} expires after ${rule.days} days (want ${days})`);
  }
  return out;
}

function denial(e: unknown, notFound: string[]): 'absent' | 'unreadable' {
  const name = (e as { name?: string })?.name ?? '';
  return notFound.includes(name) ? 'absent' : 'unreadable';
}

export async function readBucketSettings(s3: S3Client, bucket: string): Promise<BucketSettings> {
  const out: BucketSettings = {};
  try {
    const r = await s3.send(new GetBucketEncryptionCommand({ Bucket: bucket }));
    out.encryption =
      r.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm ??
      null;
  } catch (e) {
    if (denial(e, ['ServerSideEncryptionConfigurationNotFoundError']) === 'absent') out.encryption = null;
  }
  try {
    const c = (await s3.send(new GetPublicAccessBlockCommand({ Bucket: bucket })))
      .PublicAccessBlockConfiguration;
    out.publicAccessBlocked = !!(
      c?.BlockPublicAcls &&
      c.BlockPublicPolicy &&
      c.IgnorePublicAcls &&
      c.RestrictPublicBuckets
    );
  } catch (e) {
    if (denial(e, ['NoSuchPublicAccessBlockConfiguration']) === 'absent') out.publicAccessBlocked = false;
  }
  try {
    const p = (await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))).Policy ?? '{}';
    out.tlsOnly = policyDeniesPlainHttp(p);
  } catch (e) {
    if (denial(e, ['NoSuchBucketPolicy']) === 'absent') out.tlsOnly = false;
  }
  try {
    const rules = (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }))).Rules ?? [];
    out.expirations = rules
      .filter((r) => r.Status === 'Enabled' && r.Expiration?.Days !== undefined)
      .map((r) => ({ prefix: r.Filter?.Prefix ?? r.Prefix ?? '', days: r.Expiration!.Days! }));
  } catch (e) {
    if (denial(e, ['NoSuchLifecycleConfiguration']) === 'absent') out.expirations = [];
  }
  return out;
}

/** A Deny statement on aws:SecureTransport=false covering the objects. */
export function policyDeniesPlainHttp(policy: string): boolean {
  let doc: { Statement?: unknown };
  try {
    doc = JSON.parse(policy) as { Statement?: unknown };
  } catch {
    return false;
  }
  const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
  return statements.some((s) => {
    const st = s as { Effect?: string; Condition?: { Bool?: Record<string, unknown> } };
    return st?.Effect === 'Deny' && String(st.Condition?.Bool?.['aws:SecureTransport']) === 'false';
  });
}
