// The exit statuses of every subcommand (findings-contract.md), in one place so the code,
// `--help` and docs/exit-codes.md say the same.
export const EXIT = {
  /** Ran; every input could be listed and opened (findings or not). */
  ok: 0,
  /** `--fail-on` matched a finding (analyze), or explain-pod `--exit-code` and the pod would be re-created. */
  matched: 1,
  /** A usage error: a bad flag, a bad config file, an unreadable argument. */
  usage: 2,
  /** Some inputs could not be listed or opened; the report of the rest was still printed. */
  someInputsFailed: 3,
  /** No input could be read at all, or not one audit event in any of them. */
  noInputRead: 4,
  /** Something unexpected broke (a bug; --debug prints the stack), or the findings' temporary file could not be written. */
  internal: 5,
} as const;

export const EXIT_CODES_HELP = `Exit status
  0  the analysis ran and every input could be listed and opened (findings or not)
  1  --fail-on matched a finding
  2  usage error (bad flag, bad or missing config file)
  3  some inputs could not be listed or opened: the report of the rest is printed,
     with a banner naming each (summary.inputErrors in JSON)
  4  no input could be read at all, or not one audit event could be read from
     any input (the wrong files, empty standard input): not an all-clear
  5  unexpected error (a bug: please report it with the output of --debug), or
     the findings' temporary file could not be written (a full TMPDIR)
`;
