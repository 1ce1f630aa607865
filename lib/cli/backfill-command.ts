import { runBackfill } from './backfill';
import { EXIT } from './exit-codes';
import { parseFlags } from './flags';
import { UsageError, type CliIo } from './io';

export const BACKFILL_HELP = `Usage: koperator-audit backfill s3://BUCKET/PREFIX --queue URL [--region R] [--dry-run]

Enqueues every object under an S3 prefix into the ingest queue as S3 ObjectCreated
notifications, so months of history are ingested by Lambda's own concurrency.

  --queue URL     the ingest queue URL (the stack output IngestQueueUrl)
  --region R      region of the bucket and the queue, written into the notifications
                  (default: the queue URL's region, else AWS_REGION)
  --dry-run       list what would be enqueued, send nothing
  -h, --help      this text

Exit status
  0  every object was enqueued
  2  usage error (bad flag, not an s3:// URI, no region)
  3  some objects could not be enqueued (each is named on stderr)
  4  the prefix could not be listed, or the queue could not be reached
`;

export async function runBackfillCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    options: {
      queue: { type: 'string' },
      region: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout.write(BACKFILL_HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('backfill needs one s3://bucket/prefix');
  if (!values.queue && !values['dry-run']) throw new UsageError('backfill needs --queue URL');
  const result = await runBackfill({
    uri: positionals[0],
    queueUrl: values.queue ?? '',
    region: values.region,
    dryRun: values['dry-run'],
    log: (line) => void io.stderr.write(line + '\n'),
  });
  io.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return result.failed.length ? EXIT.someInputsFailed : EXIT.ok;
}
