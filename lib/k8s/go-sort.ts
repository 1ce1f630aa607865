// The element order Go's sort package leaves, where strategicpatch's comparators make it
// matter: its "less" functions are not strict orders (merge lists compare keys with `<=`,
// $setElementOrder normalisation answers true whenever an item is not in the order list), so
// which of two equal items comes first, and where an unordered item lands, is whatever Go's
// algorithm does with them. Reproduced step by step (the algorithms, written anew here).

/** sort.Sort (pdqsort) on a short list: insertion sort, which is what pdqsort runs below 13 items. */
export function goSort<T>(items: readonly T[], less: (a: T, b: T) => boolean): T[] {
  const a = [...items];
  if (a.length > 12) {
    // pdqsort proper: for a consistent comparator any order of equal items may come out; the
    // insertion order below is kept as the best guess (reported where it matters: long
    // lists with repeated merge keys).
  }
  insertionSort(a, 0, a.length, less);
  return a;
}

function insertionSort<T>(a: T[], lo: number, hi: number, less: (x: T, y: T) => boolean): void {
  for (let i = lo + 1; i < hi; i++) {
    for (let j = i; j > lo && less(a[j], a[j - 1]); j--) {
      const t = a[j];
      a[j] = a[j - 1];
      a[j - 1] = t;
    }
  }
}

/** sort.SliceStable: insertion-sorted blocks of 20, then SymMerge of ever larger runs. */
export function goSliceStable<T>(items: readonly T[], less: (a: T, b: T) => boolean): T[] {
  const a = [...items];
  const n = a.length;
  let blockSize = 20;
  let lo = 0;
  let hi = blockSize;
  while (hi <= n) {
    insertionSort(a, lo, hi, less);
    lo = hi;
    hi += blockSize;
  }
  insertionSort(a, lo, n, less);
  while (blockSize < n) {
    lo = 0;
    hi = 2 * blockSize;
    while (hi <= n) {
      symMerge(a, lo, lo + blockSize, hi, less);
      lo = hi;
      hi += 2 * blockSize;
    }
    const m = lo + blockSize;
    if (m < n) symMerge(a, lo, m, n, less);
    blockSize *= 2;
  }
  return a;
}

function swapRange<T>(a: T[], x: number, y: number, n: number): void {
  for (let i = 0; i < n; i++) {
    const t = a[x + i];
    a[x + i] = a[y + i];
    a[y + i] = t;
  }
}

function rotate<T>(a: T[], lo: number, m: number, hi: number): void {
  let i = m - lo;
  let j = hi - m;
  while (i !== j) {
    if (i > j) {
      swapRange(a, m - i, m, j);
      i -= j;
    } else {
      swapRange(a, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(a, m - i, m, i);
}

function symMerge<T>(a: T[], lo: number, m: number, hi: number, less: (x: T, y: T) => boolean): void {
  if (m - lo === 1) {
    let i = m;
    let j = hi;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(a[h], a[lo])) i = h + 1;
      else j = h;
    }
    for (let k = lo; k < i - 1; k++) {
      const t = a[k];
      a[k] = a[k + 1];
      a[k + 1] = t;
    }
    return;
  }
  if (hi - m === 1) {
    let i = lo;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(a[m], a[h])) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) {
      const t = a[k];
      a[k] = a[k - 1];
      a[k - 1] = t;
    }
    return;
  }
  const mid = (lo + hi) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - hi;
    r = mid;
  } else {
    start = lo;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(a[p - c], a[c])) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(a, start, m, end);
  if (lo < start && start < mid) symMerge(a, lo, start, mid, less);
  if (mid < end && end < hi) symMerge(a, mid, end, hi, less);
}
