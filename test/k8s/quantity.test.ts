import { parseQuantity, quantitiesEqual } from '../../lib/k8s/quantity';

// Rows follow apimachinery pkg/api/resource: ParseQuantity's grammar, suffixes and rounding.
describe('parseQuantity', () => {
  it.each<[unknown, bigint]>([
    ['1', 1000n],
    ['1000m', 1000n],
    ['1500m', 1500n],
    ['1.5', 1500n],
    ['0.5', 500n],
    ['.5', 500n],
    ['1.', 1000n],
    ['392m', 392n],
    ['0', 0n],
    ['-1', -1000n],
    ['+2', 2000n],
    ['1k', 1_000_000n],
    ['1M', 1_000_000_000n],
    ['1Ki', 1_024_000n],
    ['1Mi', 1_048_576_000n],
    ['1Gi', 1_073_741_824_000n],
    ['0.5Gi', 536_870_912_000n],
    ['71420084', 71_420_084_000n],
    ['1e3', 1_000_000n],
    ['1E3', 1_000_000n],
    ['1e-3', 1n],
    ['1e+21', 10n ** 24n],
    ['1E', 10n ** 21n], // a lone E is exa, not an exponent
    ['100u', 1n], // below a milli: MilliValue rounds up
    ['1n', 1n],
    ['0.1m', 1n], // "0.1m will be rounded up to 1m"
    [' 2Gi ', 2_147_483_648_000n], // Quantity.UnmarshalJSON trims
    [1, 1000n],
    [0.25, 250n],
    ['16Ei', (2n ** 63n - 1n) * 1000n], // binary quantities are capped at 2^63-1
  ])('%p is %p milli', (input, milli) => {
    expect(parseQuantity(input)).toEqual({ ok: true, milli });
  });

  it.each<[unknown]>([
    [''],
    ['1ki'], // suffixes are case-sensitive: k is decimal, Ki binary
    ['1KB'],
    ['1.2.3'],
    ['1m3'],
    ['e3'.repeat(2)],
    ['1e'],
    ['abc'],
    ['1e999999'], // refused rather than computed: no real quantity has such an exponent
    [null],
    [{}],
    [[1]],
    [true],
    [Number.NaN],
  ])('%p is not a quantity', (input) => {
    expect(parseQuantity(input)).toEqual({ ok: false });
  });
});

describe('quantitiesEqual', () => {
  it.each<[unknown, unknown, boolean]>([
    ['1000m', '1', true],
    ['1Gi', '1024Mi', true],
    ['1Gi', '1073741824', true],
    [1, '1', true],
    ['2Gi', '2G', false],
    ['1', '392m', false],
    ['1n', '1m', false], // compared at nano precision, finer than milli
    // non-quantities fall back to deep equality
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    [{ a: [1] }, { a: [1] }, true],
    [null, null, true],
    [null, '0', false],
  ])('%p vs %p -> %p', (a, b, eq) => {
    expect(quantitiesEqual(a, b)).toBe(eq);
    expect(quantitiesEqual(b, a)).toBe(eq);
  });
});
