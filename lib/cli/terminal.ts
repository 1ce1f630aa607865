// How wide the report may be. On a terminal, its own width (it follows a resize between
// runs); when stdout is a file or a pipe, COLUMNS if the shell exports it, else 100: wide
// enough for the paths, narrow enough for a ticket or a CI log, and the same on every
// machine so saved reports compare.
export const DEFAULT_WIDTH = 100;
/** Below this the table's fixed columns cannot fit at all; wrapping is better than breaking. */
export const MIN_WIDTH = 60;

export function reportWidth(
  terminal: { columns?: number; isTTY?: boolean } | undefined,
  env: Record<string, string | undefined>,
): number {
  const fromEnv = Number(env.COLUMNS);
  const width =
    terminal?.isTTY && terminal.columns && terminal.columns > 0
      ? terminal.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_WIDTH;
  return Math.max(MIN_WIDTH, width);
}
