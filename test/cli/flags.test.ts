// The flag parser's own answers, table-driven: what a mistyped flag is taken for, and that
// every refusal is one line naming the flag.
import { editDistance, parseFlags, suggest } from '../../lib/cli/flags';
import { UsageError } from '../../lib/cli/io';

const KNOWN = [
  'input',
  'format',
  'out',
  'fail-on',
  'namespace',
  'cluster',
  'quiet',
  'since',
  'until',
  'only',
];

describe('suggest: the flag a typo most likely meant', () => {
  it.each([
    ['formt', 'format'],
    ['fromat', 'format'], // two letters swapped: one typo
    ['fomat', 'format'],
    ['form', 'format'], // the only flag it starts
    ['namspace', 'namespace'],
    ['failon', 'fail-on'],
    ['inptu', 'input'],
    ['colour', null], // nothing near: no guess
    ['x', null],
    ['o', null], // starts "out" and "only": ambiguous, and too short to guess
  ])('--%s → %p', (typed, want) => {
    expect(suggest(typed, KNOWN)).toBe(want);
  });

  it.each([
    ['', '', 0],
    ['format', 'format', 0],
    ['formt', 'format', 1],
    ['fromat', 'format', 1],
    ['abc', '', 3],
  ])('editDistance(%p, %p) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe('parseFlags: refusals as one line', () => {
  const spec = {
    options: {
      input: { type: 'string' as const, short: 'f', multiple: true },
      format: { type: 'string' as const, short: 'o' },
      quiet: { type: 'boolean' as const, short: 'q' },
    },
  };
  it.each([
    [['--formt', 'json'], 'unknown flag --formt (did you mean --format?)'],
    [['-z'], 'unknown flag -z'],
    [['--colour'], 'unknown flag --colour'],
    [['-f'], '-f/--input needs a value'],
    [['--input'], '-f/--input needs a value'],
    [
      ['--input', '--format', 'json'],
      '-f/--input needs a value (got the flag --format; write --input=--format if it is the value)',
    ],
    [['--quiet=yes'], '-q/--quiet takes no value (got "yes")'],
    [['logs/'], 'unexpected argument "logs/" (flags take the form --name VALUE)'],
  ])('%j → %s', (argv, message) => {
    let thrown: unknown;
    try {
      parseFlags(argv, spec);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toBe(message);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it.each([
    [['-f', 'a', '--input', 'b', '-o', 'json', '-q'], { input: ['a', 'b'], format: 'json', quiet: true }],
    [['--input=-', '--format=table'], { input: ['-'], format: 'table' }],
    [['-f', '-'], { input: ['-'] }],
  ])('%j parses as %j', (argv, values) => {
    expect({ ...parseFlags(argv, spec).values }).toEqual(values);
  });
});
