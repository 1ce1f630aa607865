// Kubernetes resource quantities (apimachinery pkg/api/resource), parsed to exact integers.
//
// Why compare by value: strategicpatch itself compares decoded JSON with reflect.DeepEqual, so
// to apimachinery "1000m" and "1" differ. In a real cluster that never shows: the API server
// stores every quantity in canonical form ("1000m" is stored as "1", "1024Mi" as "1Gi") and
// koperator marshals its desired pod from Go structs, which also canonicalise. Spellings only
// differ in what we reconstruct from logs (a webhook's JSON patch carries whatever it sent),
// so the analyzer compares quantities by value: a spelling never produces a diff.
// (Canonical strings of equal values can still differ, e.g. "1Gi" and "1073741824"; comparing
// by value treats those as equal too, which is what the operator author means by them.)

import { deepEqual } from './json-value';

export type ParsedQuantity = { ok: true; milli: bigint } | { ok: false };

/** Inputs longer than this, or exponents beyond ±MAX_EXPONENT, are not treated as quantities:
 * they are hostile or broken, and exact big-integer arithmetic on them would be unbounded. */
const MAX_INPUT_LENGTH = 256;
const MAX_EXPONENT = 400;

// The grammar of resource.parseQuantityString: sign, digits, optional fraction, then a run of
// suffix letters with an optional signed integer (validated afterwards against the known suffixes).
// Note it accepts "", "+", "." and "1." as numbers, as apimachinery does ("+" parses as 0).
const QUANTITY_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)$/;

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

/** 2^63-1: apimachinery caps binary-suffixed quantities there. */
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * 10n ** 9n;

type Nanos = { ok: true; nanos: bigint } | { ok: false };

/**
 * The exact value in units of 10^-9, rounded away from zero as ParseQuantity does
 * ("values smaller than the smallest representable amount are rounded up").
 */
function parseNanos(q: unknown): Nanos {
  let s: string;
  if (typeof q === 'number') {
    if (!Number.isFinite(q)) return { ok: false };
    s = String(q);
  } else if (typeof q === 'string') {
    // Quantity.UnmarshalJSON trims, and quantities only ever reach the API server as JSON.
    s = q.trim();
  } else {
    return { ok: false };
  }
  if (s.length === 0 || s.length > MAX_INPUT_LENGTH) return { ok: false };
  const m = QUANTITY_RE.exec(s);
  if (!m) return { ok: false };
  const [, sign, intDigits, fracDigits = '', suffix] = m;

  let decExp = 0;
  let binExp = 0;
  if (Object.prototype.hasOwnProperty.call(DECIMAL_SUFFIX, suffix)) {
    decExp = DECIMAL_SUFFIX[suffix];
  } else if (Object.prototype.hasOwnProperty.call(BINARY_SUFFIX, suffix)) {
    binExp = BINARY_SUFFIX[suffix];
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    const e = Number(suffix.slice(1));
    if (!Number.isSafeInteger(e) || Math.abs(e) > MAX_EXPONENT) return { ok: false };
    decExp = e;
  } else {
    return { ok: false };
  }

  const mantissa = BigInt((intDigits + fracDigits).replace(/^0+(?=.)/, '') || '0');
  if (mantissa === 0n) return { ok: true, nanos: 0n };
  // value = mantissa * 2^binExp * 10^(decExp - len(frac)); in nanos: times 10^9.
  const numerator = mantissa * (1n << BigInt(binExp));
  const scale = decExp - fracDigits.length + 9;
  let nanos: bigint;
  if (scale >= 0) {
    nanos = numerator * 10n ** BigInt(scale);
  } else {
    const div = 10n ** BigInt(-scale);
    nanos = numerator / div;
    if (numerator % div !== 0n) nanos += 1n;
  }
  if (binExp > 0 && nanos > MAX_BINARY_NANOS) nanos = MAX_BINARY_NANOS;
  return { ok: true, nanos: sign === '-' ? -nanos : nanos };
}

// A pod's quantities are a handful of spellings compared over and over (every diff of every
// recreation): each spelling is parsed once. Bounded by starting over, like BoundedCache.
const MAX_PARSED = 4096;
const parsedBySpelling = new Map<string, Nanos>();

function parsedNanos(q: unknown): Nanos {
  if (typeof q !== 'string') return parseNanos(q);
  let p = parsedBySpelling.get(q);
  if (p === undefined) {
    if (parsedBySpelling.size >= MAX_PARSED) parsedBySpelling.clear();
    parsedBySpelling.set(q, (p = parseNanos(q)));
  }
  return p;
}

/** Parses a quantity; `milli` is the exact value times 1000, rounded away from zero like Quantity.MilliValue. */
export function parseQuantity(q: unknown): ParsedQuantity {
  const p = parseNanos(q);
  if (!p.ok) return { ok: false };
  const abs = p.nanos < 0n ? -p.nanos : p.nanos;
  let milli = abs / 1_000_000n;
  if (abs % 1_000_000n !== 0n) milli += 1n;
  return { ok: true, milli: p.nanos < 0n ? -milli : milli };
}

/**
 * True when both are quantities of the same value ('1000m' == '1', '1Gi' == '1024Mi', 1 == '1');
 * otherwise plain deep equality, so non-quantity values still compare as JSON.
 * Compared at nano precision (what ParseQuantity keeps), finer than `milli`.
 */
export function quantitiesEqual(a: unknown, b: unknown): boolean {
  // The same spelling is the same value (or, for a non-quantity, the same JSON).
  if (a === b) return true;
  const pa = parsedNanos(a);
  const pb = parsedNanos(b);
  if (pa.ok && pb.ok) return pa.nanos === pb.nanos;
  return deepEqual(a, b);
}
