// Flag parsing for every subcommand: Node's own util.parseArgs (no dependency, nothing to
// load at start), with the one thing it lacks for people typing at a prompt: its errors
// are long, generic and name no alternative. A parse that fails is parsed again without
// strictness to find the offending token, and the error becomes one line that names it
// and, for a near miss, the flag that was probably meant.
import { parseArgs, type ParseArgsConfig } from 'util';
import { UsageError } from './io';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface FlagSpec<O extends Options> {
  options: O;
  allowPositionals?: boolean;
}

export function parseFlags<O extends Options>(argv: string[], spec: FlagSpec<O>) {
  const config = {
    args: argv,
    options: spec.options,
    strict: true as const,
    allowPositionals: spec.allowPositionals ?? false,
  };
  try {
    return parseArgs(config);
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw explain(argv, spec);
    throw e;
  }
}

/** The first token parseArgs would refuse, said in one line. */
function explain<O extends Options>(argv: string[], spec: FlagSpec<O>): UsageError {
  const { tokens } = parseArgs({
    args: argv,
    options: spec.options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const t of tokens) {
    if (t.kind === 'positional' && !spec.allowPositionals) {
      return new UsageError(`unexpected argument "${t.value}" (flags take the form --name VALUE)`);
    }
    if (t.kind !== 'option') continue;
    const option = spec.options[t.name];
    if (!option) {
      // A single letter is too short to guess from; the help lists the short flags.
      const known = t.rawName.startsWith('--') ? suggest(t.name, Object.keys(spec.options)) : null;
      return new UsageError(`unknown flag ${t.rawName}${known ? ` (did you mean --${known}?)` : ''}`);
    }
    const shown = flagName(t.name, option.short);
    if (option.type === 'string' && t.value === undefined) return new UsageError(`${shown} needs a value`);
    // `--input --format json`: a flag where a value belongs (strict parsing refuses it).
    if (option.type === 'string' && !t.inlineValue && t.value!.startsWith('-') && t.value !== '-')
      return new UsageError(
        `${shown} needs a value (got the flag ${t.value}; write ${t.rawName}=${t.value} if it is the value)`,
      );
    if (option.type === 'boolean' && t.value !== undefined)
      return new UsageError(`${shown} takes no value (got "${t.value}")`);
  }
  return new UsageError(`cannot read the flags: ${argv.join(' ')}`);
}

function flagName(name: string, short: string | undefined): string {
  return short ? `-${short}/--${name}` : `--${name}`;
}

/**
 * The known flag a mistyped one most likely meant: the nearest by edit distance, within a
 * third of its length (at least 2), or the only flag it is a prefix of (`--form`).
 */
export function suggest(typed: string, known: readonly string[]): string | null {
  const name = typed.toLowerCase();
  const starts = known.filter((k) => k.startsWith(name));
  if (starts.length === 1) return starts[0];
  // One or two letters are near everything.
  if (name.length < 3) return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

/** Damerau–Levenshtein (optimal string alignment): a swapped pair of letters is one typo. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
