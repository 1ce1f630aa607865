// `--help` for the repository's own commands (bench, scripts): each prints its usage and
// exits before doing anything, since a command that ignored --help used to write 200 MB of
// benchmark data instead.

/** Prints `usage` and ends the process when `argv` asks for help; returns otherwise. */
export function helpRequested(argv: readonly string[], usage: string): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
  process.exit(0);
}
