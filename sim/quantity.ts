// Just enough of resource.Quantity for the simulator: parse the spellings webhooks send and
// print the canonical form the API server stores (`1000m` is stored as `1`, `1024Mi` as `1Gi`),
// so a webhook that re-spells a value can be told apart from one that changes it.

const BINARY: ReadonlyArray<readonly [string, number]> = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];
const DECIMAL: Readonly<Record<string, number>> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The quantity's value in milli-units (exact for every value the simulator uses). */
export function parseQuantityMilli(q: string): number | null {
  const m = /^([+-]?\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?)$/.exec(q.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const bin = BINARY.find(([s]) => s === m[2]);
  const factor = bin ? bin[1] : DECIMAL[m[2]];
  return Math.round(n * factor * 1000);
}

export function quantitiesEqual(a: string, b: string): boolean {
  const x = parseQuantityMilli(a);
  const y = parseQuantityMilli(b);
  return x !== null && y !== null && x === y;
}

/**
 * Canonical form as the API server stores it: binary suffixes stay binary (largest exact
 * one), decimal and milli values stay decimal; whole cores print without `m`.
 */
export function canonicalQuantity(q: string): string {
  const milli = parseQuantityMilli(q);
  if (milli === null) return q;
  const binary = /(Ki|Mi|Gi|Ti|Pi|Ei)$/.test(q.trim());
  if (binary && milli % 1000 === 0) {
    const units = milli / 1000;
    for (const [suffix, f] of BINARY) if (units % f === 0 && units >= f) return `${units / f}${suffix}`;
    return String(units);
  }
  if (milli % 1000 !== 0) return `${milli}m`;
  const units = milli / 1000;
  for (const s of ['E', 'P', 'T', 'G', 'M', 'k']) {
    const f = DECIMAL[s];
    if (units % f === 0 && units >= f) return `${units / f}${s}`;
  }
  return String(units);
}
