// The koperator-audit command line: subcommands dispatch to small command modules.
import { runAnalyze, ANALYZE_HELP } from './analyze-command';
import { runExplain } from './explain-command';
import { UsageError, type CliIo } from './io';

const HELP = `Usage: koperator-audit <command> [options]

Explains why koperator re-creates Kafka broker pods, from Kubernetes audit logs and
koperator logs.

Commands
  analyze          analyse logs from folders, files or S3 prefixes (see analyze --help)
  explain-pod      explain one live pod from \`kubectl get pod -o yaml\`, with no logs
  local-pipeline   run the serverless deployment on this machine (S3/SNS/SQS emulated)
  backfill         enqueue every object under an S3 prefix for the ingest Lambda
  help             this text

Run \`koperator-audit <command> --help\` for a command's flags.
`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

async function lazyCommand(name: string): Promise<Command | null> {
  switch (name) {
    case 'analyze':
      return runAnalyze;
    case 'explain-pod':
      return runExplain;
    case 'local-pipeline':
      return (await import('./local-pipeline-command')).runLocalPipelineCommand;
    case 'backfill':
      return (await import('./backfill-command')).runBackfillCommand;
    default:
      return null;
  }
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return name ? 0 : 2;
  }
  const command = await lazyCommand(name);
  if (!command) {
    io.stderr.write(`koperator-audit: unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (e) {
    const err = e as Error & { code?: string };
    if (e instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(
        `koperator-audit ${name}: ${err.message}\nRun \`koperator-audit ${name} --help\` for usage.\n`,
      );
      return 2;
    }
    if (err.code === 'ENOENT') {
      io.stderr.write(`koperator-audit ${name}: ${err.message}\n`);
      return 2;
    }
    throw e;
  }
}

export { ANALYZE_HELP };
