// The element order Go's sort package leaves, where strategicpatch's comparators make it
// matter: its "less" functions are not strict orders (merge lists compare keys with `<=`,
// $setElementOrder normalisation answers true whenever an item is not in the order list), so
// which of two equal items comes first, and where an unordered item lands, is whatever Go's
// algorithm does with them: sort.Sort's pdqsort and sort.SliceStable's insertion-sorted blocks
// merged by SymMerge, followed step by step (swaps included, since they move equal items).

/** sort.Sort: pattern-defeating quicksort (insertion sort below 13 items), not stable. */
export function goSort<T>(items: readonly T[], less: (a: T, b: T) => boolean): T[] {
  const a = [...items];
  const n = a.length;
  if (n <= 1) return a;
  pdqsort(a, 0, n, bitLength(n), less);
  return a;
}

function bitLength(n: number): number {
  let bits = 0;
  while (n > 0) {
    bits++;
    n = Math.floor(n / 2);
  }
  return bits;
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

type Less<T> = (x: T, y: T) => boolean;

const INCREASING = 1;
const DECREASING = 2;

function pdqsort<T>(d: T[], a: number, b: number, limit: number, less: Less<T>): void {
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= 12) {
      insertionSort(d, a, b, less);
      return;
    }
    if (limit === 0) {
      heapSort(d, a, b, less);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(d, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(d, a, b, less);
    if (hint === DECREASING) {
      reverseRange(d, a, b);
      pivot = b - 1 - (pivot - a);
      hint = INCREASING;
    }
    if (wasBalanced && wasPartitioned && hint === INCREASING && partialInsertionSort(d, a, b, less)) return;
    if (a > 0 && !less(d[a - 1], d[pivot])) {
      a = partitionEqual(d, a, b, pivot, less);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(d, a, b, pivot, less);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.floor(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(d, a, mid, limit, less);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(d, mid + 1, b, limit, less);
      b = mid;
    }
  }
}

function partition<T>(d: T[], a: number, b: number, pivot: number, less: Less<T>): [number, boolean] {
  swap(d, a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && less(d[i], d[a])) i++;
  while (i <= j && !less(d[j], d[a])) j--;
  if (i > j) {
    swap(d, j, a);
    return [j, true];
  }
  swap(d, i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && less(d[i], d[a])) i++;
    while (i <= j && !less(d[j], d[a])) j--;
    if (i > j) break;
    swap(d, i, j);
    i++;
    j--;
  }
  swap(d, j, a);
  return [j, false];
}

function partitionEqual<T>(d: T[], a: number, b: number, pivot: number, less: Less<T>): number {
  swap(d, a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !less(d[a], d[i])) i++;
    while (i <= j && less(d[a], d[j])) j--;
    if (i > j) break;
    swap(d, i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort<T>(d: T[], a: number, b: number, less: Less<T>): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !less(d[i], d[i - 1])) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    swap(d, i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!less(d[j], d[j - 1])) break;
        swap(d, j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!less(d[j], d[j - 1])) break;
        swap(d, j, j - 1);
      }
    }
  }
  return false;
}

const MASK64 = (1n << 64n) - 1n;

function breakPatterns<T>(d: T[], a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  let random = BigInt(length);
  const modulus = 2 ** bitLength(length);
  const idx = a + Math.floor(length / 4) * 2 - 1;
  for (let i = 0; i < 3; i++) {
    random ^= (random << 13n) & MASK64;
    random ^= random >> 7n;
    random ^= (random << 17n) & MASK64;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    swap(d, idx + i, a + other);
  }
}

function choosePivot<T>(d: T[], a: number, b: number, less: Less<T>): [number, number] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.floor(l / 4) * 1;
  let j = a + Math.floor(l / 4) * 2;
  let k = a + Math.floor(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(d, i - 1, i, i + 1, swaps, less);
      j = median(d, j - 1, j, j + 1, swaps, less);
      k = median(d, k - 1, k, k + 1, swaps, less);
    }
    j = median(d, i, j, k, swaps, less);
  }
  if (swaps.n === 0) return [j, INCREASING];
  if (swaps.n === maxSwaps) return [j, DECREASING];
  return [j, 0];
}

function order2<T>(d: T[], a: number, b: number, swaps: { n: number }, less: Less<T>): [number, number] {
  if (less(d[b], d[a])) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function median<T>(d: T[], a: number, b: number, c: number, swaps: { n: number }, less: Less<T>): number {
  [a, b] = order2(d, a, b, swaps, less);
  [b, c] = order2(d, b, c, swaps, less);
  [a, b] = order2(d, a, b, swaps, less);
  return b;
}

function reverseRange<T>(d: T[], a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) swap(d, i, j);
}

function heapSort<T>(d: T[], a: number, b: number, less: Less<T>): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.floor((hi - 1) / 2); i >= 0; i--) siftDown(d, i, hi, first, less);
  for (let i = hi - 1; i >= 0; i--) {
    swap(d, first, first + i);
    siftDown(d, 0, i, first, less);
  }
}

function siftDown<T>(d: T[], lo: number, hi: number, first: number, less: Less<T>): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && less(d[first + child], d[first + child + 1])) child++;
    if (!less(d[first + root], d[first + child])) return;
    swap(d, first + root, first + child);
    root = child;
  }
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
