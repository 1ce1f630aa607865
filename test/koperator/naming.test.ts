// Which pods could be koperator's broker pods: a cheap screen for work worth doing only for
// them (interning bodies). Identification itself is brokerOfPod's.
import { mayBeKoperatorPod } from '../../lib/koperator/naming';

describe('mayBeKoperatorPod', () => {
  it.each<[string, unknown, boolean]>([
    ['the app=kafka label', { metadata: { labels: { app: 'kafka' } } }, true],
    ['a kafka_cr label', { metadata: { labels: { kafka_cr: 'c' } } }, true],
    ['a brokerId label', { metadata: { labels: { brokerId: '3' } } }, true],
    ['a KafkaCluster owner', { metadata: { ownerReferences: [{ kind: 'KafkaCluster', name: 'c' }] } }, true],
    ['a broker pod name', { metadata: { name: 'events-kafka-2-x7k2p' } }, true],
    ['a broker generateName', { metadata: { generateName: 'events-kafka-controller-2-' } }, true],
    [
      'another team’s pod',
      { metadata: { name: 'web-7f9c4b-x7k2p', generateName: 'web-7f9c4b-', labels: { app: 'web' } } },
      false,
    ],
    ['no metadata', { spec: {} }, false],
    ['not an object', 'pod', false],
  ])('%s', (_name, pod, expected) => {
    expect(mayBeKoperatorPod(pod)).toBe(expected);
  });
});
