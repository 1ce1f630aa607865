import { runLocalPipeline } from './local-pipeline';
import { parseFlags } from './flags';
import { UsageError, type CliIo } from './io';

export const LOCAL_PIPELINE_HELP = `Usage: koperator-audit local-pipeline [--input DIR] [options]

Runs the serverless deployment on this machine with no AWS account: starts an
S3/SNS/SQS emulator (fauxqs), a Parameter Store and a Slack stand-in, uploads the logs,
drives the ingest, analyze and notify-slack handlers as Lambda would, and prints the
SNS messages, Slack payloads, chat notifications (Amazon Q Developer) and email texts
they produced, as each reader sees them.

  -f, --input DIR    logs to upload (default: examples/logs)
  --cluster NAME     Kubernetes cluster name the logs are filed under (default: local)
  --now TIME         the scheduled run's time (default: end of the newest hour of facts)
  --lookback DUR     analysis window, e.g. 6h (default: everything uploaded)
  --backfill         play the logs as a backfill into a cluster already watched: loops
                     over before this run are alerted (started, ended); without it
                     this is the deployment's first analysis, and they go to the
                     report only
  -o, --format FMT   text (default: what Slack, the chat channel and email received,
                     as read) or json (the raw payloads)
  --verbose          also show the functions' structured logs and metrics
  -h, --help         this text
`;

export async function runLocalPipelineCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, {
    options: {
      input: { type: 'string', short: 'f' },
      cluster: { type: 'string' },
      now: { type: 'string' },
      lookback: { type: 'string' },
      format: { type: 'string', short: 'o' },
      backfill: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout.write(LOCAL_PIPELINE_HELP);
    return 0;
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  await runLocalPipeline({
    input: values.input,
    cluster: values.cluster,
    now: values.now,
    lookback: values.lookback,
    format,
    verbose: values.verbose,
    backfill: values.backfill,
    stdout: io.stdout,
    stderr: io.stderr,
  });
  return 0;
}
