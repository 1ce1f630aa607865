// Facts cross threads with their interned parts sent once: every value must come back equal,
// parts equal across senders must come back as one object, and what the wire cannot hold
// (a reference to a part never sent) must fail loudly rather than misread.
import { ValueInterner } from '../../lib/facts/value-interner';
import { PartDecoder, PartEncoder } from '../../lib/ingest-pool/part-codec';

/** The receiving thread's table, as the pool uses its projection's. */
function receiver() {
  const table = new ValueInterner(1000);
  return (key: string, v: object) => table.shareByKey(key, v);
}

/** A sender with its own interner, as each worker has. */
function sender(limit?: number) {
  const interner = new ValueInterner(1000);
  const encoder = new PartEncoder((v) => interner.keyOf(v), limit);
  return {
    // A JSON copy, not structuredClone: under Jest that makes objects of another realm,
    // which the interner (rightly) does not take for parsed JSON.
    intern: <T>(v: T): T => interner.intern(JSON.parse(JSON.stringify(v)) as T),
    send: (v: unknown) => {
      const reset = encoder.startMessage();
      return { reset, wire: structuredClone(encoder.encode(v)) };
    },
  };
}

const container = {
  name: 'kafka',
  image: 'ghcr.io/banzaicloud/kafka:2.13-3.4.1',
  resources: { limits: { cpu: '2' } },
  env: Array.from({ length: 20 }, (_, i) => ({ name: `KAFKA_SETTING_${i}`, value: `value-${i}` })),
};
const pod = (name: string) => ({
  metadata: { name, labels: { app: 'kafka', brokerId: '0' } },
  spec: { containers: [container] },
});

describe('part codec: values round-trip', () => {
  it.each([
    ['a scalar', 42],
    ['null', null],
    ['a string', 'kafka-0'],
    ['an array of mixed values', [1, 'a', null, { b: [true] }]],
    ['a plain object, nothing interned', { a: { b: { c: 1 } } }],
    [
      'an object holding the wire mark itself (hostile input)',
      { '\u0000koperator-audit-part': 7, v: { x: 1 } },
    ],
    ['a member named __proto__ (parsed from JSON)', JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')],
  ])('%s', (_name, value) => {
    const s = sender();
    const d = new PartDecoder(receiver());
    const out = d.decode(s.send(value).wire);
    expect(out).toEqual(value);
    expect(JSON.stringify(out)).toBe(JSON.stringify(value));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an interned part is sent whole once, then as a reference a few bytes long', () => {
    const s = sender();
    const d = new PartDecoder(receiver());
    const first = s.intern(pod('kafka-0-aaaaa'));
    const second = s.intern(pod('kafka-0-bbbbb'));
    const w1 = s.send({ request: first });
    const w2 = s.send({ request: second });
    expect(JSON.stringify(w2.wire).length).toBeLessThan(JSON.stringify(w1.wire).length / 2);
    const a = d.decode(w1.wire) as { request: ReturnType<typeof pod> };
    const b = d.decode(w2.wire) as { request: ReturnType<typeof pod> };
    expect(a.request).toEqual(pod('kafka-0-aaaaa'));
    expect(b.request).toEqual(pod('kafka-0-bbbbb'));
    // The spec is one object on the receiving side too: the analysis keys caches by identity.
    expect(b.request.spec).toBe(a.request.spec);
  });

  it('equal parts from two senders become one object', () => {
    const shared = receiver();
    const [s1, s2] = [sender(), sender()];
    const [d1, d2] = [new PartDecoder(shared), new PartDecoder(shared)];
    const a = d1.decode(s1.send(s1.intern(pod('x'))).wire) as ReturnType<typeof pod>;
    const b = d2.decode(s2.send(s2.intern(pod('y'))).wire) as ReturnType<typeof pod>;
    expect(b.spec).toBe(a.spec);
    expect(b.metadata.labels).toBe(a.metadata.labels);
  });

  it('a sender that starts over says so, and the receiver forgets that sender only', () => {
    const s = sender(2);
    const d = new PartDecoder(receiver());
    const sent = [0, 1, 2, 3].map((i) => s.send(s.intern(pod(`kafka-${i}`))));
    // Table full after the first pod's parts: the next message resets.
    expect(sent.map((m) => m.reset)).toEqual([false, true, true, true]);
    for (const [i, m] of sent.entries()) {
      if (m.reset) d.reset();
      expect(d.decode(m.wire)).toEqual(pod(`kafka-${i}`));
    }
  });

  it('a reference to a part never sent is an error, not a wrong value', () => {
    const s = sender();
    const p = s.intern(pod('kafka-0'));
    s.send(p); // received by nobody
    const d = new PartDecoder(receiver());
    expect(() => d.decode(s.send(p).wire)).toThrow(/referenced before it was sent/);
  });
});
