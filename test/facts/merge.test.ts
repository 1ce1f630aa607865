import { FactsMerger } from '../../lib/facts/merge';
import type { Fact } from '../../lib/model/facts';
import { operatorFact, podFact } from './fixtures';

const pod = (auditID: string, stage = 'ResponseComplete', source = 'a.log') =>
  podFact({ auditID, stage, src: { source, line: 1 } });
const line = (source: string) => operatorFact({ src: { source, line: 7 } });

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
      objects: [[pod('x')], [pod('x', 'ResponseComplete', 'export.gz')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived after its completion',
      objects: [[pod('x')], [pod('x', 'RequestReceived', 'export.gz')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived before its completion (held, then dropped)',
      objects: [[pod('x', 'RequestReceived', 'export.gz')], [pod('x')]],
      expected: ['x:ResponseComplete:a.log'],
    },
    {
      what: 'a RequestReceived that never completed (kept, at the end)',
      objects: [[pod('z', 'RequestReceived'), pod('y')]],
      expected: ['y:ResponseComplete:a.log', 'z:RequestReceived:a.log'],
    },
    {
      what: 'the same operator line shipped by two pipelines',
      objects: [[line('fluent-bit/obj')], [line('manager.log')]],
      expected: ['op:fluent-bit/obj'],
    },
    {
      what: 'a stage outside the four known ones, once',
      objects: [[pod('w', 'Odd'), pod('w', 'Odd', 'b.log')]],
      expected: ['w:Odd:a.log'],
    },
  ])('drops $what', ({ objects, expected }) => {
    expect(merged(objects)).toEqual(expected);
  });

  it('keeps distinct requests and lines in the order their objects were added', () => {
    const other = { ...line('m.log'), msg: 'broker pod deleted' };
    expect(
      merged([
        [pod('b'), line('m.log')],
        [pod('a'), other],
      ]),
    ).toEqual(['b:ResponseComplete:a.log', 'op:m.log', 'a:ResponseComplete:a.log', 'op:m.log']);
  });
});
