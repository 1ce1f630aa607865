// Facts as the projection makes them, for the tests of what holds, encodes and merges them.
import type { Fact, OperatorFact, PodWriteFact } from '../../lib/model/facts';

export function podFact(over: Partial<PodWriteFact> = {}): PodWriteFact {
  return {
    type: 'pod',
    at: '2026-11-02T10:00:01.123456Z',
    doneAt: '2026-11-02T10:00:01.200000Z',
    src: { source: 's3://logs/a.log.gz', line: 42 },
    auditID: '0f8e1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f',
    stage: 'ResponseComplete',
    level: 'RequestResponse',
    verb: 'create',
    user: 'system:serviceaccount:kafka:kafka-operator',
    namespace: 'kafka',
    name: 'orders-kafka-1-abcde',
    uid: '5d6c7b8a-0000-4000-8000-000000000001',
    subresource: null,
    code: 201,
    ...over,
  };
}

export function operatorFact(over: Partial<OperatorFact> = {}): OperatorFact {
  return {
    type: 'operator',
    at: '2026-11-02T10:00:02.5Z',
    src: { source: 'koperator.log', line: 7 },
    msg: 'resource diffs',
    level: 'debug',
    kafkaCluster: 'orders-kafka',
    namespace: 'kafka',
    pod: null,
    brokerId: '1',
    fields: { patch: '{}' },
    ...over,
  };
}

/**
 * Two brokers at Metadata level, no owner references: the operator is learned only from its
 * "broker pod deleted" line, which only broker 1 (analysed second) has, yet broker 0's
 * deletion is the operator's all the same (the analysis's restart).
 */
export function laterConfirmedOperatorFacts(): Fact[] {
  const operator = 'system:serviceaccount:kafka:kafka-operator';
  let n = 0;
  const write = (verb: string, name: string, second: number): PodWriteFact => {
    const at = `2026-11-03T08:00:${String(second).padStart(2, '0')}Z`;
    return {
      type: 'pod',
      at,
      doneAt: at,
      src: { source: 'sim', line: ++n },
      auditID: `a${n}`,
      stage: 'ResponseComplete',
      level: 'Metadata',
      verb,
      user: operator,
      namespace: 'kafka',
      name,
      uid: `uid-${name}`,
      subresource: null,
      code: verb === 'create' ? 201 : 200,
    };
  };
  return [
    write('create', 'orders-kafka-0-aaaaa', 0),
    write('delete', 'orders-kafka-0-aaaaa', 10),
    write('create', 'orders-kafka-0-bbbbb', 12),
    write('create', 'orders-kafka-1-ccccc', 20),
    write('delete', 'orders-kafka-1-ccccc', 30),
    {
      type: 'operator',
      at: '2026-11-03T08:00:30Z',
      src: { source: 'operator.log', line: 1 },
      msg: 'broker pod deleted',
      level: 'info',
      kafkaCluster: 'orders-kafka',
      namespace: 'kafka',
      pod: 'orders-kafka-1-ccccc',
      brokerId: '1',
      fields: {},
    },
  ];
}
