// `koperator-audit backfill s3://bucket/prefix --queue URL`: enqueue every object under a
// prefix into the ingest queue as S3 ObjectCreated notifications (see lib/aws/backfill.ts).
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { enqueueObjects, listObjects, type EnqueueResult, type ListedObject } from '../aws/backfill';
import { parseS3Uri } from '../aws/s3-source';
import { describeInputError } from '../sources/input-errors';
import { EXIT } from './exit-codes';
import { CommandError, UsageError } from './io';

export interface BackfillOptions {
  /** s3://bucket/prefix of the logs to (re-)ingest. */
  uri: string;
  /** URL of the ingest queue (the stack's IngestQueueUrl output). */
  queueUrl: string;
  /** Region of the bucket and queue, and the one written into the notifications. */
  region?: string;
  /** List only, send nothing. */
  dryRun?: boolean;
  s3?: S3Client;
  sqs?: SQSClient;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  env?: Record<string, string | undefined>;
}

/** `eu-west-1` from `https://sqs.eu-west-1.amazonaws.com/123456789012/queue`; null for other hosts. */
export function regionOfQueueUrl(url: string): string | null {
  const m = /^https?:\/\/sqs[.-]([a-z]{2}(?:-[a-z]+)+-\d)\.amazonaws\.com(?:\.cn)?\//.exec(url);
  return m ? m[1] : null;
}

/** --region, else the queue URL's, else the SDK's own chain (AWS_REGION, the profile). */
export function backfillRegion(opts: BackfillOptions): string | undefined {
  const env = opts.env ?? process.env;
  return opts.region ?? regionOfQueueUrl(opts.queueUrl) ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
}

export async function runBackfill(opts: BackfillOptions): Promise<EnqueueResult> {
  const loc = parseS3Uri(opts.uri);
  if (!loc) throw new UsageError(`not an s3:// URI: ${opts.uri}`);
  const env = opts.env ?? process.env;
  const region = backfillRegion(opts);
  if (!region && !opts.s3) throw new UsageError(`no AWS region for ${opts.uri} (set AWS_REGION or --region)`);
  const regionOpt = region ? { region } : {};
  const s3 =
    opts.s3 ?? new S3Client({ ...regionOpt, forcePathStyle: env.KOPERATOR_AUDIT_S3_PATH_STYLE === 'true' });
  const log = opts.log ?? (() => undefined);
  const listing = failingLoudly(listObjects(s3, loc), opts.uri);
  if (opts.dryRun) {
    let n = 0;
    for await (const o of listing) {
      n++;
      log(`would enqueue s3://${o.bucket}/${o.key} (${o.size} bytes)`);
    }
    return { objects: n, failed: [] };
  }
  if (!region) throw new UsageError(`no AWS region for ${opts.uri} (set AWS_REGION or --region)`);
  let seen = 0;
  let res: EnqueueResult;
  try {
    // An SQS endpoint set on purpose (an emulator, a VPC endpoint) wins over the queue URL's host.
    const endpointSet = Boolean(env.AWS_ENDPOINT_URL_SQS || env.AWS_ENDPOINT_URL);
    const sqs =
      opts.sqs ?? new SQSClient({ ...regionOpt, ...(endpointSet ? { useQueueUrlAsEndpoint: false } : {}) });
    res = await enqueueObjects(sqs, opts.queueUrl, listing, {
      region,
      onObject: () => {
        if (++seen % 1000 === 0) log(`${seen} objects listed`);
      },
    });
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new CommandError(`${opts.queueUrl}: ${describeQueueError(e)}`, EXIT.noInputRead);
  }
  log(
    `enqueued ${res.objects} objects from ${opts.uri}${res.failed.length ? `; ${res.failed.length} failed` : ''}`,
  );
  for (const f of res.failed) log(`failed: ${f.key}: ${f.reason}`);
  return res;
}

/** The listing, with a failure turned into one line naming the prefix (exit 4: nothing was enqueued from it). */
async function* failingLoudly(
  objects: AsyncIterable<ListedObject>,
  uri: string,
): AsyncGenerator<ListedObject> {
  try {
    yield* objects;
  } catch (e) {
    throw new CommandError(`${uri}: ${describeInputError(e)}`, EXIT.noInputRead);
  }
}

function describeQueueError(e: unknown): string {
  const name = (e as { name?: string })?.name ?? '';
  if (name === 'QueueDoesNotExist' || name === 'AWS.SimpleQueueService.NonExistentQueue')
    return 'no such queue';
  return describeInputError(e);
}
