// Durations as users write them on the command line and in config: 90, 90s, 10m, 1h, 1h30m.
export function parseDurationSeconds(text: string): number | null {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    const n = Number(m[1]);
    total +=
      m[2] === 'ms'
        ? n / 1000
        : m[2] === 's'
          ? n
          : m[2] === 'm'
            ? n * 60
            : m[2] === 'h'
              ? n * 3600
              : n * 86400;
    consumed = re.lastIndex;
  }
  return consumed === t.length && consumed > 0 ? total : null;
}

/**
 * A span that must be said with a unit and be more than zero (`--loop-max-gap`): a bare
 * `10` would silently be ten seconds where ten minutes was meant, and a zero gap makes
 * every loop impossible. Returns seconds, or the reason it is refused.
 */
export function parsePositiveDuration(text: string): { seconds: number } | { error: string } {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return { error: `needs a unit: ${t}s, ${t}m or ${t}h` };
  const seconds = parseDurationSeconds(t);
  if (seconds === null) return { error: 'is not a duration like 10m or 90s' };
  if (seconds <= 0) return { error: 'must be longer than zero' };
  return { seconds };
}
