// `koperator-audit backfill s3://bucket/prefix --queue URL`: enqueue every object under a
// prefix into the ingest queue as S3 ObjectCreated notifications (see lib/aws/backfill.ts).
import { enqueueObjects, listObjects, type EnqueueResult } from '../aws/backfill';
import { parseS3Uri } from '../aws/s3-source';
import { createAwsClients, type AwsClients } from '../aws/clients';

export interface BackfillOptions {
  /** s3://bucket/prefix of the logs to (re-)ingest. */
  uri: string;
  /** URL of the ingest queue (the stack's IngestQueueUrl output). */
  queueUrl: string;
  /** Region written into the notifications; defaults to AWS_REGION. */
  region?: string;
  /** List only, send nothing. */
  dryRun?: boolean;
  s3?: ReturnType<AwsClients['s3']>;
  sqs?: ReturnType<AwsClients['sqs']>;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

export async function runBackfill(opts: BackfillOptions): Promise<EnqueueResult> {
  const loc = parseS3Uri(opts.uri);
  if (!loc) throw new Error(`not an s3:// URI: ${opts.uri}`);
  const clients = createAwsClients();
  const s3 = opts.s3 ?? clients.s3();
  const region = opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const log = opts.log ?? (() => undefined);
  if (opts.dryRun) {
    let n = 0;
    for await (const o of listObjects(s3, loc)) {
      n++;
      log(`would enqueue s3://${o.bucket}/${o.key} (${o.size} bytes)`);
    }
    return { objects: n, failed: [] };
  }
  let seen = 0;
  const res = await enqueueObjects(opts.sqs ?? clients.sqs(), opts.queueUrl, listObjects(s3, loc), {
    region,
    onObject: () => {
      if (++seen % 1000 === 0) log(`${seen} objects listed`);
    },
  });
  log(
    `enqueued ${res.objects} objects from ${opts.uri}${res.failed.length ? `; ${res.failed.length} failed` : ''}`,
  );
  for (const f of res.failed) log(`failed: ${f.key}: ${f.reason}`);
  return res;
}
