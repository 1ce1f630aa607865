import { sortByKey, sortWithKeys } from '../../lib/analyze/sort-by-key';

describe('sortByKey', () => {
  test.each([
    [
      [3, 1, 2],
      [1, 2, 3],
    ],
    [[], []],
    [[5], [5]],
    [
      [2, 2, 1, 1],
      [1, 1, 2, 2],
    ],
    [[NaN, 3, 1, NaN, 2], null],
  ])('orders %j as the same comparison would', (keys, expected) => {
    const xs = keys.map((k, i) => ({ k, i }));
    const reference = [...xs].sort((a, b) => a.k - b.k);
    sortByKey(xs, (x) => x.k);
    expect(xs).toEqual(reference);
    if (expected) expect(xs.map((x) => x.k)).toEqual(expected);
  });

  test('ties keep their places', () => {
    const xs = ['a', 'b', 'c', 'd'].map((s, i) => ({ s, k: i % 2 }));
    sortByKey(xs, (x) => x.k);
    expect(xs.map((x) => x.s).join('')).toBe('acbd');
  });

  test('sortWithKeys leaves the keys in the new order', () => {
    const xs = ['c', 'a', 'b'];
    const keys = new Float64Array([3, 1, 2]);
    sortWithKeys(xs, keys);
    expect(xs).toEqual(['a', 'b', 'c']);
    expect([...keys]).toEqual([1, 2, 3]);
  });
});
