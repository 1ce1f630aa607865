import fc from 'fast-check';
import { ValueInterner } from '../../lib/facts/value-interner';

const parse = (s: string): unknown => JSON.parse(s);

describe('ValueInterner', () => {
  // Each row: two JSON texts, and whether interning the second gives back the first's object.
  it.each([
    { what: 'equal objects', a: '{"a":1,"b":[1,"x"]}', b: '{"a":1,"b":[1,"x"]}', same: true },
    {
      what: 'equal lists',
      a: '[{"name":"kafka"},{"name":"x"}]',
      b: '[{"name":"kafka"},{"name":"x"}]',
      same: true,
    },
    { what: 'the same keys in another order', a: '{"a":1,"b":2}', b: '{"b":2,"a":1}', same: false },
    { what: 'a number and its string', a: '{"a":1}', b: '{"a":"1"}', same: false },
    { what: '0 and -0 (JSON cannot tell them apart)', a: '{"a":0}', b: '{"a":-0}', same: true },
    { what: 'null and false', a: '[null]', b: '[false]', same: false },
    { what: 'an empty object and an empty list', a: '{"a":{}}', b: '{"a":[]}', same: false },
    { what: 'strings that would run into the next token', a: '["a,s1:b"]', b: '["a","b"]', same: false },
    { what: 'a key holding a separator', a: '{"a:1":2}', b: '{"a":"1:2"}', same: false },
    {
      what: 'a difference deep inside',
      a: '{"v":[{"p":{"s":[{"t":1}]}}]}',
      b: '{"v":[{"p":{"s":[{"t":2}]}}]}',
      same: false,
    },
    {
      what: 'integer-like keys (they enumerate first, as JSON.stringify writes them)',
      a: '{"b":1,"2":3}',
      b: '{"2":3,"b":1}',
      same: true,
    },
  ])('$what: shared exactly when their JSON is equal', ({ a, b, same }) => {
    const interner = new ValueInterner(1000);
    const first = interner.intern(parse(a));
    const second = interner.intern(parse(b));
    expect(second === first).toBe(same);
    expect(JSON.stringify(second)).toBe(JSON.stringify(parse(b)));
  });

  it('shares what two pods have in common below the member that differs', () => {
    const pod = (token: string) =>
      parse(
        JSON.stringify({
          volumes: [
            { name: 'data', persistentVolumeClaim: { claimName: 'kafka-0' } },
            { name: token, projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
          ],
        }),
      ) as { volumes: { name: string; projected?: object; persistentVolumeClaim?: object }[] };
    const interner = new ValueInterner(1000);
    const a = interner.intern(pod('kube-api-access-abcde'));
    const b = interner.intern(pod('kube-api-access-fghij'));
    expect(b).not.toBe(a);
    expect(b.volumes).not.toBe(a.volumes);
    expect(b.volumes[0]).toBe(a.volumes[0]);
    expect(b.volumes[1]).not.toBe(a.volumes[1]);
    expect(b.volumes[1].projected).toBe(a.volumes[1].projected);
    expect(b.volumes[1].name).toBe('kube-api-access-fghij');
  });

  it('gives back scalars as they are', () => {
    const interner = new ValueInterner(10);
    for (const v of [null, 0, 'x', true, undefined]) expect(interner.intern(v)).toBe(v);
  });

  it('keeps values it cannot intern as they are: too deep, or holding what JSON has not', () => {
    const interner = new ValueInterner(1000);
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 100; i++) deep = [deep];
    const text = JSON.stringify(deep);
    expect(interner.intern(deep)).toBe(deep);
    expect(JSON.stringify(deep)).toBe(text);
    const odd = { a: undefined, b: 1 };
    expect(interner.intern(odd)).toBe(odd);
    expect(interner.intern({ a: undefined, b: 1 })).not.toBe(odd);
    const dated = { at: new Date(0) };
    expect(interner.intern(dated)).toBe(dated);
  });

  it('starts over when full, and never shares unequal values after that', () => {
    const interner = new ValueInterner(4);
    const kept = interner.intern(parse('{"a":[1]}'));
    for (let i = 0; i < 20; i++) interner.intern(parse(`{"n":[${i}]}`));
    expect(interner.size).toBeLessThanOrEqual(4);
    const again = interner.intern(parse('{"a":[1]}'));
    expect(again).toEqual(kept);
    expect(interner.intern(parse('{"a":[2]}'))).toEqual({ a: [2] });
  });

  it('holds for any JSON: the interned value serialises as the value did, and equal values are one object', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 12 }), (values) => {
        const interner = new ValueInterner(1_000_000);
        const seen = new Map<string, unknown>();
        for (const v of values) {
          const text = JSON.stringify(v);
          const got = interner.intern(JSON.parse(text) as unknown);
          expect(JSON.stringify(got)).toBe(text);
          const before = seen.get(text);
          if (before !== undefined && typeof got === 'object' && got !== null) expect(got).toBe(before);
          seen.set(text, got);
        }
      }),
    );
  });
});
