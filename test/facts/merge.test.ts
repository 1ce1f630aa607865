import { FactsMerger } from '../../lib/facts/merge';
import type { Fact, OperatorFact, PodWriteFact } from '../../lib/model/facts';

function podFact(auditID: string, stage = 'ResponseComplete', source = 'a.log'): PodWriteFact {
  return {
    type: 'pod',
    at: '2026-11-02T10:00:03Z',
    src: { source, line: 1 },
    auditID,
    stage,
    level: 'RequestResponse',
    verb: 'delete',
    user: 'system:serviceaccount:kafka:kafka-operator',
    doneAt: '2026-11-02T10:00:03Z',
    namespace: 'kafka',
    name: 'orders-kafka-1-abcde',
    uid: 'u1',
    subresource: null,
    code: 200,
  };
}

function opFact(source: string): OperatorFact {
  return {
    type: 'operator',
    at: '2026-11-02T10:00:01Z',
    src: { source, line: 7 },
    msg: 'resource diffs',
    level: 'debug',
    kafkaCluster: 'orders-kafka',
    namespace: 'kafka',
    pod: null,
    brokerId: '1',
    fields: { patch: '{}' },
  };
}

const label = (f: Fact) =>
  f.type === 'operator' ? `op:${f.src.source}` : `${f.auditID}:${f.stage}:${f.src.source}`;

function merged(objects: Fact[][]): string[] {
  const m = new FactsMerger();
  for (const o of objects) m.add(o);
  return [...m.finish().facts()].map(label);
}

describe('FactsMerger', () => {
  it.each([
    {
      what: 'a repeat of (auditID, stage) from a second delivery path: the first seen wins',
      objects: [[podFact('x')], [podFact('x', 'ResponseComplete', 'export.gz')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived after its completion',
      objects: [[podFact('x')], [podFact('x', 'RequestReceived', 'export.gz')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived before its completion (held, then dropped)',
      objects: [[podFact('x', 'RequestReceived', 'export.gz')], [podFact('x')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived that never completed (kept, at the end)',
      objects: [[podFact('z', 'RequestReceived'), podFact('y')]],
      expected: ['y:ResponseComplete:a.log', 'z:RequestReceived:a.log'],
    },
    {
      what: 'the same operator line shipped by two pipelines',
      objects: [[opFact('fluent-bit/obj')], [opFact('manager.log')]],
      expected: ['op:fluent-bit/obj'],
    },
    {
      what: 'a stage outside the four known ones, once',
      objects: [[podFact('w', 'Odd'), podFact('w', 'Odd', 'b.log')]],
      expected: ['w:Odd:a.log'],
    },
  ])('drops $what', ({ objects, expected }) => {
    expect(merged(objects)).toEqual(expected);
  });

  it('keeps distinct requests and lines in the order their objects were added', () => {
    const other = { ...opFact('m.log'), msg: 'broker pod deleted' };
    expect(
      merged([
        [podFact('b'), opFact('m.log')],
        [podFact('a'), other],
      ]),
    ).toEqual(['b:ResponseComplete:a.log', 'op:m.log', 'a:ResponseComplete:a.log', 'op:m.log']);
  });
});
