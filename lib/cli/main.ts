// The koperator-audit command line: subcommands dispatch to small command modules. Every
// error ends here as one line on stderr and an exit status (exit-codes.ts); a stack is
// printed only with --debug, and only for errors nobody anticipated.
import { readFileSync, existsSync } from 'fs';
import * as path from 'path';
import { runAnalyze, ANALYZE_HELP } from './analyze-command';
import { runExplain } from './explain-command';
import { EXIT, EXIT_CODES_HELP } from './exit-codes';
import { suggest } from './flags';
import { CommandError, UsageError, type CliIo } from './io';
import { missingFolder } from './missing-folder';

const HELP = `Usage: koperator-audit <command> [options]

Explains why koperator re-creates Kafka broker pods, from Kubernetes audit logs and
koperator logs.

Commands
  analyze          analyse logs from folders, files, S3 prefixes or standard input
                   (also spelt analyse; see analyze --help)
  explain-pod      explain live pods from \`kubectl get pod -o yaml\`, with no logs
  local-pipeline   run the serverless deployment on this machine (S3/SNS/SQS emulated)
  backfill         enqueue every object under an S3 prefix for the ingest Lambda
  help             this text

Options for every command
  --debug          print the stack of an unexpected error
  --version        the version of koperator-audit

Run \`koperator-audit <command> --help\` for a command's flags.

${EXIT_CODES_HELP}`;

const COMMANDS = ['analyze', 'explain-pod', 'local-pipeline', 'backfill', 'help'];

type Command = (argv: string[], io: CliIo) => Promise<number>;

async function lazyCommand(name: string): Promise<Command | null> {
  switch (name) {
    case 'analyze':
    case 'analyse':
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

/** The package's version, read from its package.json wherever the code runs from (lib/ or dist/). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'koperator-audit') return pkg.version ?? 'unknown';
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  // --debug is accepted anywhere, before or after the command.
  const debug = argv.includes('--debug') || io.debug === true;
  const args = argv.filter((a) => a !== '--debug');
  const [name, ...rest] = args;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(`koperator-audit ${packageVersion()}\n`);
    return EXIT.ok;
  }
  // `help analyze` is `analyze --help`, as in git and kubectl.
  if (name === 'help' && rest.length > 0) return main([rest[0], '--help'], io);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? io.stdout : io.stderr).write(HELP);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = await lazyCommand(name);
  if (!command) {
    io.stderr.write(`koperator-audit: ${unknownCommand(name)}\n`);
    return EXIT.usage;
  }
  try {
    return await command(rest, { ...io, debug });
  } catch (e) {
    return reportError(name, e, io, debug);
  }
}

function unknownCommand(name: string): string {
  if (name.startsWith('-')) return `a command comes first (${COMMANDS.join(', ')}; see --help)`;
  const near = suggest(name, COMMANDS);
  return `unknown command "${name}" (${near ? `did you mean ${near}?` : `commands: ${COMMANDS.join(', ')}`})`;
}

function reportError(name: string, e: unknown, io: CliIo, debug: boolean): number {
  const err = (e instanceof Error ? e : new Error(String(e))) as Error & { code?: string };
  const prefix = `koperator-audit ${name}`;
  if (e instanceof UsageError || err.code?.startsWith('ERR_PARSE_ARGS')) {
    io.stderr.write(`${prefix}: ${err.message}\n`);
    return EXIT.usage;
  }
  if (e instanceof CommandError) {
    io.stderr.write(`${prefix}: ${err.message}\n`);
    if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
    return e.exitCode;
  }
  const missing = missingFolder(err);
  if (missing) {
    io.stderr.write(`${prefix}: ${missing}\n`);
    if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
    return EXIT.internal;
  }
  // One line, as every error; the stack follows it only on request.
  const why = err.message.split('\n')[0];
  if (debug && err.stack) io.stderr.write(`${prefix}: unexpected error: ${why}\n${err.stack}\n`);
  else
    io.stderr.write(
      `${prefix}: unexpected error: ${why} (run again with --debug for the stack, and please report it)\n`,
    );
  return EXIT.internal;
}

export { ANALYZE_HELP };
