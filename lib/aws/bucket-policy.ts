// The ExistingBucketPolicy custom resource (existingBucketPolicy=true, infra/storage.yml):
// the TLS-only statement put on a bucket the stack does not own, without losing the policy
// the bucket had. Before anything is changed, the bucket's policy (or that it had none) is
// saved in the bucket itself, under the state prefix; the policy put is the saved one's
// statements plus the stack's (any statement of the same Sid replaced). Deleting the
// resource (the stack removed, or the rollback of a failed deploy) puts the saved policy
// back, or deletes the policy if the bucket had none; the bucket and its objects are not
// touched. A create that fails after the policy was replaced puts it back before answering.
import {
  DeleteBucketPolicyCommand,
  GetBucketPolicyCommand,
  GetObjectCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

type S3 = Pick<S3Client, 'send'>;

export interface BucketPolicySpec {
  bucket: string;
  /** Where the policy the bucket had is saved, in the bucket (under the state prefix). */
  savedKey: string;
  /** The statement the stack adds (the TLS-only Deny), by its Sid. */
  statement: Record<string, unknown> & { Sid: string };
}

/** What is saved: the bucket's policy document as S3 returned it, or null for none. */
export interface SavedPolicy {
  bucket: string;
  policy: string | null;
  savedAt: string;
}

const errorName = (e: unknown): string => (e as { name?: string; Code?: string }).name ?? '';

/** The ExistingBucketPolicy resource's properties, checked. */
export function bucketPolicySpecOf(props: Record<string, unknown> | undefined): BucketPolicySpec {
  const p = props ?? {};
  const statement = p.Statement as BucketPolicySpec['statement'] | undefined;
  if (typeof p.Bucket !== 'string' || p.Bucket === '') throw new Error('Bucket must be a bucket name');
  if (typeof p.SavedPolicyKey !== 'string' || p.SavedPolicyKey === '')
    throw new Error('SavedPolicyKey must be an object key');
  if (
    !statement ||
    typeof statement !== 'object' ||
    typeof statement.Sid !== 'string' ||
    statement.Sid === ''
  )
    throw new Error('Statement must be a policy statement with a Sid');
  return { bucket: p.Bucket, savedKey: p.SavedPolicyKey, statement };
}

async function currentPolicy(s3: S3, bucket: string): Promise<string | null> {
  try {
    const res = (await s3.send(new GetBucketPolicyCommand({ Bucket: bucket }))) as { Policy?: string };
    return res.Policy ?? null;
  } catch (e) {
    if (errorName(e) === 'NoSuchBucketPolicy') return null;
    throw e;
  }
}

async function readSaved(
  s3: S3,
  spec: Pick<BucketPolicySpec, 'bucket' | 'savedKey'>,
): Promise<SavedPolicy | null> {
  try {
    const res = (await s3.send(new GetObjectCommand({ Bucket: spec.bucket, Key: spec.savedKey }))) as {
      Body?: { transformToString(): Promise<string> };
    };
    const text = (await res.Body?.transformToString()) ?? '';
    return JSON.parse(text) as SavedPolicy;
  } catch (e) {
    if (errorName(e) === 'NoSuchKey' || errorName(e) === 'NotFound') return null;
    throw e;
  }
}

/** The saved policy's statements, any of the stack's Sid replaced by the stack's statement. */
export function mergedPolicy(saved: string | null, statement: BucketPolicySpec['statement']): string {
  const doc = saved ? (JSON.parse(saved) as { Version?: string; Id?: string; Statement?: unknown }) : {};
  const statements = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement ? [doc.Statement] : [];
  const others = statements.filter((s) => (s as { Sid?: string }).Sid !== statement.Sid);
  return JSON.stringify({
    ...doc,
    Version: doc.Version ?? '2012-10-17',
    Statement: [...others, statement],
  });
}

async function restore(s3: S3, bucket: string, saved: SavedPolicy): Promise<'restored' | 'deleted'> {
  if (saved.policy === null) {
    await s3.send(new DeleteBucketPolicyCommand({ Bucket: bucket }));
    return 'deleted';
  }
  await s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: saved.policy }));
  return 'restored';
}

/**
 * Create: save the bucket's policy, then put the merged one; a failure after the save puts
 * the saved one back. Update: the merged policy again from what was saved at create (the
 * bucket's policy now holds the stack's statement). A changed bucket is a new create, and
 * the old bucket's policy is restored.
 */
export async function putExistingBucketPolicy(
  s3: S3,
  spec: BucketPolicySpec,
  previous: BucketPolicySpec | null,
  now: () => Date = () => new Date(),
): Promise<{ saved: SavedPolicy; policy: string }> {
  if (previous && previous.bucket !== spec.bucket) await restoreExistingBucketPolicy(s3, previous);
  let saved = previous && previous.bucket === spec.bucket ? await readSaved(s3, spec) : null;
  if (saved === null) {
    saved = {
      bucket: spec.bucket,
      policy: await currentPolicy(s3, spec.bucket),
      savedAt: now().toISOString(),
    };
    await s3.send(
      new PutObjectCommand({
        Bucket: spec.bucket,
        Key: spec.savedKey,
        Body: JSON.stringify(saved, null, 2),
        ContentType: 'application/json',
      }),
    );
  }
  const policy = mergedPolicy(saved.policy, spec.statement);
  try {
    await s3.send(new PutBucketPolicyCommand({ Bucket: spec.bucket, Policy: policy }));
  } catch (e) {
    // Nothing was changed unless S3 applied it anyway: put back what was saved, best effort.
    if (!previous) await restore(s3, spec.bucket, saved).catch(() => undefined);
    throw e;
  }
  return { saved, policy };
}

/** Delete: the saved policy back (or none, as before); without a saved copy, nothing was changed. */
export async function restoreExistingBucketPolicy(
  s3: S3,
  spec: Pick<BucketPolicySpec, 'bucket' | 'savedKey'>,
): Promise<'restored' | 'deleted' | 'nothing saved'> {
  const saved = await readSaved(s3, spec);
  if (saved === null) return 'nothing saved';
  return restore(s3, spec.bucket, saved);
}
