// Shared finding parts: equal lists become one frozen list; different lists never merge.
import { uniqueInOrder } from '../../lib/analyze/classify';
import { sharedFields, sharedText, sharedVerdict } from '../../lib/analyze/shared-parts';
import type { FieldChange } from '../../lib/model/findings';

const CPU = 'spec.containers[name=kafka].resources.requests.cpu';
const field = (from: unknown, to: unknown, by: string | null = 'sizer/pods.sizer'): FieldChange => ({
  path: CPU,
  from,
  to,
  by,
});

describe('sharedFields', () => {
  test('equal lists are one list', () => {
    const a = sharedFields([field('1', '630m')]);
    const b = sharedFields([field('1', '630m')]);
    expect(b).toBe(a);
  });

  test.each([
    ['a different value', [field('1', '631m')]],
    ['a number for a string', [field(1, '630m')]],
    ['null for a missing value', [field(null, '630m')]],
    ['another author', [field('1', '630m', null)]],
    ['another order', [field('2Gi', '2320Mi'), field('1', '630m')]],
  ])('%s is not merged', (_what, other) => {
    const a = sharedFields([field('1', '630m'), field('2Gi', '2320Mi')].slice(0, other.length));
    const b = sharedFields(other);
    expect(b).not.toBe(a);
    expect(JSON.stringify(b)).toBe(JSON.stringify(other));
  });

  test('a shared list and its fields cannot be changed', () => {
    const a = sharedFields([field('3', '4')]);
    expect(() => (a as FieldChange[]).push(field('5', '6'))).toThrow(TypeError);
    expect(() => {
      (a[0] as { by: string | null }).by = 'someone else';
    }).toThrow(TypeError);
    expect(sharedFields([field('3', '4')])[0].by).toBe('sizer/pods.sizer');
  });

  test('an empty list is shared and frozen', () => {
    expect(sharedFields([])).toBe(sharedFields([]));
    expect(Object.isFrozen(sharedFields([]))).toBe(true);
  });
});

describe('sharedVerdict', () => {
  test.each([
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ])('threeWayMerge %s, intentDiff %s', (threeWayMerge, intentDiff) => {
    const v = sharedVerdict(threeWayMerge, intentDiff);
    expect(v).toEqual({ threeWayMerge, intentDiff });
    expect(sharedVerdict(threeWayMerge, intentDiff)).toBe(v);
    expect(Object.isFrozen(v)).toBe(true);
  });
});

describe('sharedText', () => {
  test('equal strings give the first, different ones stay apart', () => {
    const first = ['a', 'b'].join(':');
    expect(sharedText(first)).toBe('a:b');
    expect(sharedText('a:c')).toBe('a:c');
  });
});

describe('uniqueInOrder', () => {
  test.each([
    [[], [], []],
    [['a'], [], ['a']],
    [
      ['a', 'b'],
      ['b', 'c'],
      ['a', 'b', 'c'],
    ],
    [['a', 'a'], ['a'], ['a']],
    [['b'], ['a', 'b', 'a'], ['b', 'a']],
  ])('%j then %j', (a, b, expected) => {
    const out = uniqueInOrder(a, b);
    expect(out).toEqual(expected);
    expect(out).toEqual([...new Set([...a, ...b])]);
    expect(out).not.toBe(a);
  });

  test('long lists', () => {
    const a = Array.from({ length: 40 }, (_, i) => `id-${i % 30}`);
    expect(uniqueInOrder(a, ['id-1', 'x'])).toEqual([...new Set([...a, 'id-1', 'x'])]);
  });
});
