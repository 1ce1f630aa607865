import { PairMemo } from '../../lib/k8s/pair-memo';

describe('PairMemo', () => {
  it('makes each pair’s value once and keeps pairs apart, in either order', () => {
    const memo = new PairMemo<string>();
    const a = {};
    const b = {};
    let made = 0;
    const make = (s: string) => () => {
      made++;
      return s;
    };
    expect(memo.get(a, b, make('ab'))).toBe('ab');
    expect(memo.get(a, b, make('again'))).toBe('ab');
    expect(memo.get(b, a, make('ba'))).toBe('ba');
    expect(memo.get(a, a, make('aa'))).toBe('aa');
    expect(made).toBe(3);
  });
});
