import { parseArgs } from 'util';
import { runBackfill } from './backfill';
import { UsageError, type CliIo } from './io';

export const BACKFILL_HELP = `Usage: koperator-audit backfill s3://BUCKET/PREFIX --queue URL [--region R] [--dry-run]

Enqueues every object under an S3 prefix into the ingest queue as S3 ObjectCreated
notifications, so months of history are ingested by Lambda's own concurrency.

  --queue URL     the ingest queue URL (the stack output IngestQueueUrl)
  --region R      region written into the notifications (default: AWS_REGION)
  --dry-run       list what would be enqueued, send nothing
  -h, --help      this text
`;

export async function runBackfillCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      queue: { type: 'string' },
      region: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout.write(BACKFILL_HELP);
    return 0;
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
  return result.failed.length ? 1 : 0;
}
