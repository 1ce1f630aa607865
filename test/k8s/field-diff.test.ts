import { load } from 'js-yaml';
import { diffFields, type FieldChange } from '../../lib/k8s/field-diff';

const y = (s: string): unknown => load(s);

// Field granularity follows the strategic-merge schema: maps key by key, merge-keyed elements by
// key, atomic and set lists whole, quantities by value.
describe('diffFields', () => {
  it.each<[string, string, string, FieldChange[]]>([
    ['identical', 'spec: {a: 1}', 'spec: {a: 1}', []],
    [
      'a changed scalar',
      'spec: {nodeName: a}',
      'spec: {nodeName: b}',
      [{ path: 'spec.nodeName', before: 'a', after: 'b' }],
    ],
    [
      'a quoted label key',
      'metadata: {labels: {}}',
      'metadata: {labels: {app.kubernetes.io/name: kafka}}',
      [{ path: 'metadata.labels["app.kubernetes.io/name"]', before: null, after: 'kafka' }],
    ],
    [
      'a map added whole is reported key by key',
      'spec: {}',
      'spec: {nodeSelector: {a: "1", b: "2"}}',
      [
        { path: 'spec.nodeSelector.a', before: null, after: '1' },
        { path: 'spec.nodeSelector.b', before: null, after: '2' },
      ],
    ],
    [
      'inside a merge-keyed element',
      'spec: {containers: [{name: kafka, resources: {requests: {cpu: "1"}}}]}',
      'spec: {containers: [{name: kafka, resources: {requests: {cpu: 392m}}}]}',
      [{ path: 'spec.containers[name=kafka].resources.requests.cpu', before: '1', after: '392m' }],
    ],
    [
      'a quantity in another canonical spelling is a change, as the patch sees it',
      'spec: {containers: [{name: kafka, resources: {requests: {memory: 2Gi}}}]}',
      'spec: {containers: [{name: kafka, resources: {requests: {memory: "2147483648"}}}]}',
      [
        {
          path: 'spec.containers[name=kafka].resources.requests.memory',
          before: '2Gi',
          after: '2147483648',
        },
      ],
    ],
    [
      'an element present on one side is one field',
      'spec: {containers: [{name: kafka}]}',
      'spec: {containers: [{name: kafka}, {name: istio-proxy, image: i}]}',
      [
        {
          path: 'spec.containers[name=istio-proxy]',
          before: null,
          after: { name: 'istio-proxy', image: 'i' },
        },
      ],
    ],
    [
      'numeric merge keys',
      'spec: {containers: [{name: k, ports: [{containerPort: 9092, name: a}]}]}',
      'spec: {containers: [{name: k, ports: [{containerPort: 9092, name: b}]}]}',
      [{ path: 'spec.containers[name=k].ports[containerPort=9092].name', before: 'a', after: 'b' }],
    ],
    [
      'a reorder of shared elements is a field on the list, valued by keys',
      'spec: {containers: [{name: a}, {name: b}, {name: c}]}',
      'spec: {containers: [{name: b}, {name: a}]}',
      [
        { path: 'spec.containers', before: ['a', 'b'], after: ['b', 'a'] },
        { path: 'spec.containers[name=c]', before: { name: 'c' }, after: null },
      ],
    ],
    [
      'an atomic list is one field with whole values',
      'spec: {tolerations: [{key: a}]}',
      'spec: {tolerations: [{key: a}, {key: b}]}',
      [{ path: 'spec.tolerations', before: [{ key: 'a' }], after: [{ key: 'a' }, { key: 'b' }] }],
    ],
    [
      'an atomic list nested in a map',
      'spec: {affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1}]}}}',
      'spec: {affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 2}]}}}',
      [
        {
          path: 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
          before: [{ weight: 1 }],
          after: [{ weight: 2 }],
        },
      ],
    ],
    [
      'a set list is one field',
      'metadata: {finalizers: [a]}',
      'metadata: {finalizers: [a, b]}',
      [{ path: 'metadata.finalizers', before: ['a'], after: ['a', 'b'] }],
    ],
    [
      'a merge list whose keys repeat is compared whole',
      'spec: {containers: [{name: a}, {name: a}]}',
      'spec: {containers: [{name: a}]}',
      [{ path: 'spec.containers', before: [{ name: 'a' }, { name: 'a' }], after: [{ name: 'a' }] }],
    ],
    ['a type change', 'spec: {x: {a: 1}}', 'spec: {x: 3}', [{ path: 'spec.x', before: { a: 1 }, after: 3 }]],
  ])('%s', (_name, before, after, expected) => {
    expect(diffFields(y(before), y(after))).toEqual(expected);
  });
});
