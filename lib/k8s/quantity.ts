// Kubernetes resource quantities (apimachinery pkg/api/resource) as Go writes them.
//
// strategicpatch compares decoded JSON, so to koperator's diff a quantity is its string: the
// diff sees what Go's Quantity marshals, which is the canonical string below. Two spellings of
// one value can both be canonical ("2Gi" and "2147483648", "1G" and "1e9"), and then they
// differ: a webhook that rewrites one as the other makes the pre-fix operator re-create the
// pod. Every state goes through the typed round trip (typed-pod.ts), which writes quantities
// this way, before a decision.

/** Inputs longer than this, or exponents beyond ±MAX_EXPONENT, are not treated as quantities:
 * they are hostile or broken, and exact big-integer arithmetic on them would be unbounded. */
const MAX_INPUT_LENGTH = 256;
const MAX_EXPONENT = 400;

const DECIMAL_SUFFIX: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

// A cluster's quantities are a handful of spellings canonicalised at every decision: each
// spelling is worked out once. Bounded by starting over.
const MAX_PARSED = 4096;

// The canonical string, as the API server stores a quantity and Go marshals it (ParseQuantity,
// then MarshalJSON/CanonicalizeBytes): the value keeps the format it was written in (binary
// SI, decimal SI or decimal exponent), so "1024Mi" becomes "1Gi" and "1000m" becomes "1", but
// "2147483648" stays as it is. ParseQuantity keeps the input itself when its fast path finds
// it already canonical-looking, quirks included ("+1" stays "+1").

type Format = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

interface Parts {
  positive: boolean;
  /** The sign, numerator, point and denominator as written (inf.Dec's input). */
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const DIGIT = /[0-9]/;
const SUFFIX_CHARS = 'eEinumkKMGTP';

/** parseQuantityString: the pieces of a quantity, or null (ErrFormatWrong). */
function splitQuantity(str: string): Parts | null {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end && (str[0] === '-' || str[0] === '+')) {
    positive = str[0] !== '-';
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && DIGIT.test(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  let num = str.slice(pos, i);
  pos = i;
  if (num === '') num = '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && DIGIT.test(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && DIGIT.test(str[pos])) pos++;
  if (pos < end) return null;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** quantitySuffixer.interpret: base, exponent and format of a suffix. */
function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: Format } | null {
  if (Object.prototype.hasOwnProperty.call(DECIMAL_SUFFIX, s) && s !== 'E') {
    return { base: 10, exponent: DECIMAL_SUFFIX[s], format: 'DecimalSI' };
  }
  if (s === 'E') return { base: 10, exponent: 18, format: 'DecimalSI' };
  if (Object.prototype.hasOwnProperty.call(BINARY_SUFFIX, s)) {
    return { base: 2, exponent: BINARY_SUFFIX[s], format: 'BinarySI' };
  }
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const e = Number(s.slice(1));
    if (!Number.isSafeInteger(e) || Math.abs(e) > MAX_EXPONENT) return null;
    return { base: 10, exponent: e, format: 'DecimalExponent' };
  }
  return null;
}

/** A parsed quantity: unscaled * 10^scale (scale >= -9, as Go rounds up to nano), in its format. */
interface Parsed {
  unscaled: bigint;
  scale: number;
  format: Format;
  /** The input string when Go keeps it as the quantity's cached spelling. */
  kept?: string;
}

const INT64_MAX = 2n ** 63n - 1n;
const MAX_FACTORS = 18;

function parseForCanonical(str: string): Parsed | null {
  if (str.length === 0 || str.length > MAX_INPUT_LENGTH) return null;
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', kept: str };
  const p = splitQuantity(str);
  if (p === null) return null;
  const sfx = interpretSuffix(p.suffix);
  if (sfx === null) return null;
  let format = sfx.format;
  // The fast path (int64Amount) keeps the spelling when it is already canonical-looking.
  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (sfx.exponent >= 0 && p.denom.length === 0) {
      mantissa = 1n << BigInt(sfx.exponent);
      precision = 15 - p.num.length - Math.trunc((sfx.exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = sfx.exponent;
    precision = MAX_FACTORS - (p.num.length + p.denom.length);
  }
  if (precision >= 0) {
    scale -= p.denom.length;
    if (scale >= -9) {
      const shifted = p.num + p.denom;
      const value = BigInt(shifted);
      if (value <= INT64_MAX) {
        const result = value * mantissa;
        if (result <= INT64_MAX) {
          const signed = p.positive ? result : -result;
          const keep =
            format === 'BinarySI'
              ? sfx.exponent % 10 === 0 && (value & 7n) !== 0n
              : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
          return { unscaled: signed, scale, format, kept: keep ? str : undefined };
        }
      }
    }
  }
  // The slow path (inf.Dec): exact value, rounded up (away from zero) to nano, binary capped.
  const digits = (p.num + p.denom).replace(/^0+(?=.)/, '');
  let unscaled = BigInt(digits);
  let sc = -p.denom.length;
  if (sfx.base === 10) sc += sfx.exponent;
  else unscaled *= 1n << BigInt(sfx.exponent);
  if (sc < -9) {
    const div = 10n ** BigInt(-9 - sc);
    const q = unscaled / div;
    unscaled = unscaled % div === 0n ? q : q + 1n;
    sc = -9;
  }
  if (format === 'BinarySI') {
    const nanos = sc >= -9 ? unscaled * 10n ** BigInt(sc + 9) : unscaled;
    if (nanos > INT64_MAX * 10n ** 9n) {
      unscaled = INT64_MAX;
      sc = 0;
    } else if (nanos > 0n && nanos < 10n ** 9n) format = 'DecimalSI';
  }
  return { unscaled: p.positive ? unscaled : -unscaled, scale: sc, format };
}

function removeFactors(v: bigint, base: bigint): [bigint, number] {
  let times = 0;
  if (v === 0n) return [v, 0];
  while (v % base === 0n) {
    v /= base;
    times++;
  }
  return [v, times];
}

const DECIMAL_SUFFIX_BY_EXPONENT: Record<number, string> = {
  [-9]: 'n',
  [-6]: 'u',
  [-3]: 'm',
  0: '',
  3: 'k',
  6: 'M',
  9: 'G',
  12: 'T',
  15: 'P',
  18: 'E',
};
const BINARY_SUFFIX_BY_EXPONENT: Record<number, string> = {
  0: '',
  10: 'Ki',
  20: 'Mi',
  30: 'Gi',
  40: 'Ti',
  50: 'Pi',
  60: 'Ei',
};

/** CanonicalizeBytes. */
function canonicalOf(q: Parsed): string {
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const nanos = q.unscaled * 10n ** BigInt(q.scale + 9);
    const abs = nanos < 0n ? -nanos : nanos;
    // Between -1024 and 1024, or not a whole number: shown as decimal SI.
    if (abs < 1024n * 10n ** 9n || abs % 10n ** 9n !== 0n) format = 'DecimalSI';
    else {
      const [amount, times] = removeFactors(nanos / 10n ** 9n, 1024n);
      let exp = times * 10;
      let a = amount;
      while (exp > 60) {
        a *= 1024n;
        exp -= 10;
      }
      return `${a}${BINARY_SUFFIX_BY_EXPONENT[exp]}`;
    }
  }
  const [removed, times] = removeFactors(q.unscaled, 10n);
  let amount = removed;
  let exponent = q.scale + times;
  while (((exponent % 3) + 3) % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  // Decimal SI has no suffix beyond E (10^18): Go falls back to exponent notation there.
  if (format === 'DecimalExponent' || exponent > 18) {
    return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  }
  return `${amount}${DECIMAL_SUFFIX_BY_EXPONENT[exponent]}`;
}

// The spellings of a cluster's quantities are few and canonicalised at every decision.
const canonicalBySpelling = new Map<string, string | null>();

/**
 * The string Go writes for the quantity `q` (a JSON string or number, as Quantity.UnmarshalJSON
 * accepts), or null when it is not a quantity (the decode fails).
 */
export function canonicalQuantity(q: unknown): string | null {
  let s: string;
  if (typeof q === 'string') s = q;
  else if (typeof q === 'number' && Number.isFinite(q)) s = String(q);
  else return null;
  let c = canonicalBySpelling.get(s);
  if (c === undefined) {
    const parsed = parseForCanonical(s.trim());
    c = parsed === null ? null : (parsed.kept ?? canonicalOf(parsed));
    if (canonicalBySpelling.size >= MAX_PARSED) canonicalBySpelling.clear();
    canonicalBySpelling.set(s, c);
  }
  return c;
}
