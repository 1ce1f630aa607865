import { goSliceStable, goSort } from '../../lib/k8s/go-sort';

// A deterministic pseudo-random source, so the property rows are the same on every run.
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('goSort (sort.Sort)', () => {
  it('with a <= comparator, as strategicpatch sorts merge lists, puts equal keys in reverse order', () => {
    const items = ['a1', 'a2', 'b1', 'a3'];
    expect(goSort(items, (x, y) => x[0] <= y[0])).toEqual(['a3', 'a2', 'a1', 'b1']);
  });

  it.each([13, 40, 60, 200])('sorts %p distinct keys like any correct sort (pdqsort past 12 items)', (n) => {
    const rnd = lcg(n);
    const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, '0')}`).sort(
      () => rnd() - 0.5,
    );
    expect(goSort(keys, (x, y) => x <= y)).toEqual([...keys].sort());
  });

  it('returns a sorted permutation when keys repeat in a long list', () => {
    const rnd = lcg(7);
    const items = Array.from({ length: 50 }, (_, i) => ({ key: Math.floor(rnd() * 5), i }));
    const out = goSort(items, (x, y) => x.key <= y.key);
    expect(out.map((e) => e.i).sort((a, b) => a - b)).toEqual(items.map((e) => e.i));
    for (let i = 1; i < out.length; i++) expect(out[i - 1].key).toBeLessThanOrEqual(out[i].key);
  });

  it('does not mutate its input', () => {
    const items = [3, 1, 2];
    goSort(items, (x, y) => x < y);
    expect(items).toEqual([3, 1, 2]);
  });
});

describe('goSliceStable (sort.SliceStable)', () => {
  it.each([5, 20, 21, 45, 100])(
    'is a stable sort for a consistent comparator (%p items, SymMerge past 20)',
    (n) => {
      const rnd = lcg(n);
      const items = Array.from({ length: n }, (_, i) => ({ key: Math.floor(rnd() * 7), i }));
      const expected = [...items].sort((a, b) => a.key - b.key || a.i - b.i);
      expect(goSliceStable(items, (x, y) => x.key < y.key)).toEqual(expected);
    },
  );

  it("with upstream's order comparator, an item missing from the order list moves behind the ones after it", () => {
    // normalizeSliceOrder answers "less" whenever either item is absent from the order.
    const order = ['token', 'new'];
    const at = (v: string) => order.indexOf(v);
    const less = (a: string, b: string) => (at(a) >= 0 && at(b) >= 0 ? at(a) < at(b) : true);
    expect(goSliceStable(['stray', 'new'], less)).toEqual(['new', 'stray']);
    expect(goSliceStable(['new', 'token'], less)).toEqual(['token', 'new']);
  });
});
