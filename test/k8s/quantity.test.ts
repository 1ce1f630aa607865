import { canonicalQuantity } from '../../lib/k8s/quantity';

// Rows follow apimachinery pkg/api/resource: ParseQuantity's grammar, suffixes, rounding and
// fast path (which keeps a spelling it finds canonical-looking), then CanonicalizeBytes.
describe('canonicalQuantity: what Go stores and marshals', () => {
  it.each<[unknown, string]>([
    // class 1: the format is kept, so one value can have several canonical strings
    ['2Gi', '2Gi'],
    ['2147483648', '2147483648'],
    ['1G', '1G'],
    ['1e9', '1e9'],
    // re-spellings of one format collapse
    ['1024Mi', '1Gi'],
    ['2048Mi', '2Gi'],
    ['3072Mi', '3Gi'],
    ['1536Mi', '1536Mi'],
    ['8Ki', '8Ki'],
    ['1000m', '1'],
    ['2000m', '2'],
    ['1000k', '1M'],
    ['1.0', '1'],
    ['0.5', '500m'],
    ['.5', '500m'],
    ['1.5', '1500m'],
    ['0.1', '100m'],
    ['12e-1', '1200e-3'],
    ['0.1m', '100u'],
    ['0.5Gi', '512Mi'],
    ['0.5Ki', '512'], // binary below 1024 is shown as decimal
    ['0Gi', '0'],
    ['0m', '0'],
    ['000', '0'],
    ['16Ei', '9223372036854775807'], // binary quantities are capped at 2^63-1
    ['1000E', '1e21'], // decimal SI has no suffix past E: exponent notation
    // kept as written
    ['1', '1'],
    ['392m', '392m'],
    ['1500m', '1500m'],
    ['1Ki', '1Ki'],
    ['1k', '1k'],
    ['100u', '100u'],
    ['1n', '1n'],
    ['71420084', '71420084'],
    ['1e3', '1e3'],
    ['1E3', '1E3'],
    ['1e-3', '1e-3'],
    ['1e+21', '1e+21'],
    ['1E', '1E'], // a lone E is exa, not an exponent
    ['-1', '-1'],
    ['+2', '+2'], // the fast path keeps the input itself, sign and all
    ['1.', '1.'],
    [' 2Gi ', '2Gi'], // Quantity.UnmarshalJSON trims
    // JSON numbers decode as their text
    [1, '1'],
    [0.25, '250m'],
  ])('%p is written %p', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each<[unknown]>([
    [''],
    ['1ki'], // suffixes are case-sensitive: k is decimal, Ki binary
    ['1KB'],
    ['1.2.3'],
    ['1m3'],
    ['e3e3'],
    ['1e'],
    ['abc'],
    ['1e999999'], // refused rather than computed: no real quantity has such an exponent
    [null],
    [{}],
    [[1]],
    [true],
    [Number.NaN],
  ])('%p does not decode as a quantity', (input) => {
    expect(canonicalQuantity(input)).toBeNull();
  });
});
