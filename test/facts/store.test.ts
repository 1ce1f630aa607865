import fc from 'fast-check';
import { FactStore } from '../../lib/facts/store';
import type { Fact, PodWriteFact } from '../../lib/model/facts';
import { operatorFact, podFact } from './fixtures';

const UID = '0f8e1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
const pod = podFact;
const line = operatorFact();

describe('FactStore', () => {
  // Each row is a fact whose every property must come back exactly, whether a column holds
  // it or the side table does.
  const rows: { what: string; fact: Fact }[] = [
    { what: 'a create with microsecond times and a UUID', fact: pod() },
    { what: 'whole seconds', fact: pod({ at: '2026-11-02T10:00:01Z', doneAt: '2026-11-02T10:00:01Z' }) },
    { what: 'milliseconds', fact: pod({ at: '2026-11-02T10:00:01.120Z' }) },
    { what: 'a day past the 28th', fact: pod({ at: '2026-10-31T23:59:59.999999Z' }) },
    { what: 'nanoseconds (kept as written)', fact: pod({ at: '2026-11-02T10:00:01.123456789Z' }) },
    { what: 'an offset time', fact: pod({ at: '2026-11-02T12:00:01+02:00' }) },
    { what: 'an empty stage time', fact: pod({ doneAt: '' }) },
    { what: 'an unreadable time', fact: pod({ at: 'yesterday' }) },
    { what: 'an upper-case UUID', fact: pod({ auditID: UID.toUpperCase() }) },
    { what: 'a GKE insertId', fact: pod({ auditID: '1a2b3c4d5e' }) },
    { what: 'nulls', fact: pod({ name: null, uid: null, code: null }) },
    { what: 'a subresource', fact: pod({ subresource: 'binding', verb: 'create' }) },
    { what: 'an odd status code', fact: pod({ code: 70000 }) },
    {
      what: 'bodies, patch type, webhooks, truncation, grace period',
      fact: pod({
        verb: 'patch',
        request: { spec: { containers: [] } },
        response: { kind: 'Pod' },
        patchType: 'strategic-merge',
        webhooks: [{ round: 0, index: 0, configuration: 'c', webhook: 'w', mutated: true }],
        truncated: true,
        gracePeriodSeconds: 0,
      }),
    },
    { what: 'a KafkaCluster write', fact: { ...pod(), type: 'kafkacluster' } as Fact },
    {
      what: 'a ConfigMap write',
      fact: { ...pod(), type: 'configmap', name: 'orders-kafka-config-1' } as Fact,
    },
    { what: 'an operator line', fact: line },
    { what: 'a property outside the model', fact: { ...pod(), note: 'x' } as unknown as Fact },
    {
      what: 'a source without a line number',
      fact: pod({ src: { source: 'x' } as unknown as PodWriteFact['src'] }),
    },
  ];

  it.each(rows)('gives back $what exactly', ({ fact }) => {
    const store = FactStore.of([pod({ auditID: 'other' }), fact]);
    expect(store.size).toBe(2);
    expect(JSON.stringify(store.fact(1))).toBe(JSON.stringify(fact));
    expect(store.fact(1)).toEqual(fact);
  });

  it('keeps values past a narrow column’s table aside: the 300th distinct verb and namespace', () => {
    const facts = Array.from({ length: 300 }, (_, k) => pod({ verb: `verb-${k}`, namespace: `ns-${k}` }));
    const store = FactStore.of(facts);
    expect([...store.facts()]).toEqual(facts);
    expect(store.verbOf(299)).toBe('verb-299');
  });

  it('keeps adding after seal(), the dropped lookups rebuilt', () => {
    const store = FactStore.of([
      pod({ name: 'orders-kafka-1-aaaaa' }),
      pod({ name: 'orders-kafka-1-bbbbb' }),
    ]);
    store.seal();
    store.add(pod({ name: 'orders-kafka-1-aaaaa', verb: 'delete' }));
    store.add(pod({ name: 'orders-kafka-1-ccccc' }));
    expect([0, 1, 2, 3].map((i) => store.nameOf(i))).toEqual([
      'orders-kafka-1-aaaaa',
      'orders-kafka-1-bbbbb',
      'orders-kafka-1-aaaaa',
      'orders-kafka-1-ccccc',
    ]);
    expect(store.verbOf(2)).toBe('delete');
  });

  it('builds bodies’ outer levels afresh but hands back the shared parts below them', () => {
    const containers = [{ name: 'kafka', image: 'kafka:3' }];
    const body = {
      metadata: { name: 'orders-kafka-1-abcde', labels: { app: 'kafka' } },
      spec: { containers },
    };
    const store = FactStore.of([pod({ request: body, response: body })]);
    const back = store.fact(0) as PodWriteFact & { request: typeof body; response: typeof body };
    expect(back.request).toEqual(body);
    expect(back.request).not.toBe(body);
    expect(back.request.spec.containers).toBe(containers);
    expect(back.response.spec.containers).toBe(containers);
  });

  it('keeps the bodies of pods that cannot be koperator’s whole', () => {
    const body = { metadata: { name: 'web-7d9f' }, spec: { containers: [] } };
    const back = FactStore.of([pod({ response: body })]).fact(0) as PodWriteFact;
    expect(back.response).toBe(body);
  });

  it('reads the columns the partitioning needs without building facts', () => {
    const store = FactStore.of([pod(), line, pod({ doneAt: '', at: '2026-11-02T10:00:03Z' })]);
    expect(store.type(0)).toBe('pod');
    expect(store.type(1)).toBe('operator');
    expect(store.effectiveMicros(0)).toBe(Date.parse('2026-11-02T10:00:01.200Z') * 1000);
    expect(store.effectiveMicros(1)).toBe(Date.parse('2026-11-02T10:00:02.500Z') * 1000);
    // An empty stage time falls back to the request's time, as factTime does.
    expect(store.effectiveMicros(2)).toBe(Date.parse('2026-11-02T10:00:03Z') * 1000);
    expect(store.atMicrosOf(0)).toBe(Date.parse('2026-11-02T10:00:01.123Z') * 1000 + 456);
    expect([store.namespaceOf(0), store.nameOf(0), store.verbOf(0), store.codeOf(0)]).toEqual([
      'kafka',
      'orders-kafka-1-abcde',
      'create',
      201,
    ]);
  });

  it('groups the stages of one request by auditID, UUID or not', () => {
    const store = FactStore.of([
      pod({ stage: 'RequestReceived' }),
      line,
      pod({ auditID: 'insert-1' }),
      pod({ auditID: '11111111-2222-4333-8444-555555555555' }),
      pod(),
      pod({ auditID: 'insert-1', stage: 'RequestReceived' }),
    ]);
    expect([...store.firstOfRequest()]).toEqual([0, -1, 2, 3, 0, 2]);
  });

  it('round-trips any mix of facts and groups requests as a Map of auditIDs would', () => {
    const time = fc
      .record({
        ms: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        micros: fc.integer({ min: 0, max: 999 }),
        digits: fc.constantFrom(0, 3, 6),
      })
      .map(({ ms, micros, digits }) => {
        const iso = new Date(ms).toISOString().slice(0, 19);
        const frac = String((ms % 1000) * 1000 + micros + 1e6).slice(1, 1 + digits);
        return digits ? `${iso}.${frac}Z` : `${iso}Z`;
      });
    const id = fc.oneof(fc.uuid(), fc.constantFrom('a', 'b', 'insert-7'));
    const fact = fc.record({
      at: fc.oneof(time, fc.constantFrom('', '2026-11-02T10:00:00+01:00')),
      doneAt: time,
      auditID: id,
      verb: fc.constantFrom('create', 'patch', 'delete'),
      name: fc.option(fc.constantFrom('orders-kafka-0-aaaaa', 'orders-kafka-1-bbbbb')),
      code: fc.option(fc.integer({ min: 100, max: 599 })),
      line: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 40 }), (rows) => {
        const facts = rows.map((r) => pod({ ...r, src: { source: 'f', line: r.line } }));
        const store = FactStore.of(facts);
        expect([...store.facts()]).toEqual(facts);
        const first = new Map<string, number>();
        const expected = facts.map((f, i) => {
          if (!first.has(f.auditID)) first.set(f.auditID, i);
          return first.get(f.auditID)!;
        });
        expect([...store.firstOfRequest()]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
