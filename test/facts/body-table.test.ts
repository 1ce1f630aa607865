import fc from 'fast-check';
import { BodyTable, NO_BODY } from '../../lib/facts/body-table';

function roundTrip(v: unknown): unknown {
  const t = new BodyTable();
  return t.decode(t.encode(v));
}

describe('BodyTable', () => {
  it.each([
    { what: 'undefined (no body)', value: undefined },
    { what: 'null', value: null },
    { what: 'booleans', value: { a: true, b: false } },
    {
      what: 'small and large integers',
      value: { a: 0, b: -5, c: 2 ** 27 - 1, d: -(2 ** 27), e: 2 ** 27, f: 1e15 },
    },
    { what: 'fractions, -0 and non-finite numbers', value: { a: 0.5, b: -0, c: Infinity } },
    { what: 'a JSON patch (a list at the top)', value: [{ op: 'add', path: '/spec/x', value: 1 }] },
    { what: 'a string body', value: 'not an object' },
    { what: 'integer-like keys (they enumerate first)', value: { b: 1, 2: 'two', a: 3, 1: 'one' } },
    { what: 'an empty object', value: {} },
    {
      what: 'a pod, three levels deep',
      value: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { app: 'kafka' }, generation: 3 },
        spec: { containers: [{ name: 'kafka', resources: { requests: { cpu: '1' } } }] },
      },
    },
  ])('gives back $what exactly', ({ value }) => {
    const back = roundTrip(value);
    expect(back).toEqual(value);
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    if (typeof value === 'object' && value !== null)
      expect(Object.keys(back as object)).toEqual(Object.keys(value));
  });

  it('keeps a member named __proto__ as a property, never as the prototype', () => {
    const hostile = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"p"}}') as Record<
      string,
      unknown
    >;
    const back = roundTrip(hostile) as { metadata: Record<string, unknown> };
    expect(Object.keys(back.metadata)).toEqual(['__proto__', 'name']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(back.metadata)).toBe(Object.prototype);
  });

  it('returns the parts below the second level as the objects added, and lays a shared body out once', () => {
    const labels = { app: 'kafka' };
    const body = { metadata: { labels }, spec: { containers: [] as unknown[] } };
    const t = new BodyTable();
    const a = t.encode(body);
    expect(t.encode(body)).toBe(a);
    const back = t.decode(a) as typeof body;
    expect(back.metadata.labels).toBe(labels);
    expect(back.spec.containers).toBe(body.spec.containers);
    expect(back.metadata).not.toBe(body.metadata);
    expect(t.encode(undefined)).toBe(NO_BODY);
  });

  it('round-trips any JSON value, many to one table', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 20 }), (values) => {
        const t = new BodyTable();
        const tagged = values.map((v) => t.encode(v));
        expect(tagged.map((x) => t.decode(x))).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });
});
