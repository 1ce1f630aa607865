// Facts as the projection makes them, for the tests of what holds, encodes and merges them.
import type { OperatorFact, PodWriteFact } from '../../lib/model/facts';

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
