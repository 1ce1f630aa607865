// Sorting a fleet's day (millions of facts, a million recreations) by time: reading each
// element's time once instead of twice per comparison, into a typed array rather than a
// wrapper object per element.

/**
 * Sorts `xs` in place by a numeric key read once per element. The order is exactly the one
 * `xs.sort((a, b) => keyOf(a) - keyOf(b))` gives: the same comparisons in the same sequence,
 * so ties keep their places and a NaN key compares equal to everything, as there.
 */
export function sortByKey<T>(xs: T[], keyOf: (x: T) => number): void {
  const keys = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) keys[i] = keyOf(xs[i]);
  sortWithKeys(xs, keys);
}

/** Sorts `xs` in place by `keys` (one per element, same positions), as sortByKey. */
export function sortWithKeys<T>(xs: T[], keys: Float64Array): void {
  const idx = new Array<number>(xs.length);
  for (let i = 0; i < xs.length; i++) idx[i] = i;
  idx.sort((a, b) => keys[a] - keys[b]);
  const copy = xs.slice();
  const sortedKeys = keys.slice();
  for (let i = 0; i < idx.length; i++) {
    xs[i] = copy[idx[i]];
    keys[i] = sortedKeys[idx[i]];
  }
}
