import { load } from 'js-yaml';
import { typedPod, TypedDecodeError } from '../../lib/k8s/typed-pod';

const y = (s: string): unknown => load(s);

// The typed round trip: decode into corev1.Pod, encode again (k8s.io/api json tags).
describe('typedPod', () => {
  it.each<[string, string, string]>([
    [
      'an empty pod writes the struct values',
      '{}',
      '{metadata: {creationTimestamp: null}, spec: {containers: null}, status: {}}',
    ],
    [
      'fields Go does not know are dropped, at any depth',
      '{futureTop: 1, spec: {futureField: {a: 1}, containers: [{name: a, futureKnob: true}]}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: a, resources: {}}]}, status: {}}',
    ],
    [
      'keys are matched exactly (no case folding)',
      '{spec: {containers: [{name: a, Image: x}]}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: a, resources: {}}]}, status: {}}',
    ],
    [
      'omitempty zero values are dropped; pointers keep theirs',
      '{spec: {containers: [{name: a, image: "", stdin: false}], hostNetwork: false, enableServiceLinks: false, priority: 0, nodeSelector: {}, tolerations: []}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: a, resources: {}}], enableServiceLinks: false, priority: 0}, status: {}}',
    ],
    [
      'fields without omitempty are written when zero',
      '{spec: {containers: [{ports: [{name: p}], env: [{value: v}]}]}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: "", ports: [{name: p, containerPort: 0}], env: [{name: "", value: v}], resources: {}}]}, status: {}}',
    ],
    [
      'struct values are written even when empty',
      '{spec: {containers: [], affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1}]}}}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [], affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {}}]}}}, status: {}}',
    ],
    [
      'quantities are canonical wherever the type has one; a zero divisor is "0"',
      '{spec: {containers: [{name: a, resources: {requests: {cpu: 0.5, memory: 1024Mi}}, env: [{name: E, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}]}], overhead: {cpu: 1000m}, volumes: [{name: v, emptyDir: {sizeLimit: 2048Mi}}]}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}, env: [{name: E, valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: "0"}}}]}], overhead: {cpu: "1"}, volumes: [{name: v, emptyDir: {sizeLimit: 2Gi}}]}, status: {}}',
    ],
    [
      'times are written in UTC to the second',
      '{metadata: {creationTimestamp: "2026-05-04T11:01:02.123+02:00"}, spec: {containers: []}, status: {startTime: "2026-05-04T09:01:02Z"}}',
      '{metadata: {creationTimestamp: "2026-05-04T09:01:02Z"}, spec: {containers: []}, status: {startTime: "2026-05-04T09:01:02Z"}}',
    ],
    [
      'a null list element decodes as the zero struct',
      '{spec: {containers: [null], imagePullSecrets: [null]}}',
      '{metadata: {creationTimestamp: null}, spec: {containers: [{name: "", resources: {}}], imagePullSecrets: [{}]}, status: {}}',
    ],
  ])('%s', (_name, input, output) => {
    expect(typedPod(y(input), 'apiserver')).toEqual(y(output));
  });

  it.each<[unknown, unknown, unknown]>([
    // value, as the API server stores it, as objectmatcher's json-iterator override writes it
    [8080, 8080, 8080],
    ['8080', '8080', 8080],
    ['http', 'http', 'http'],
    [0, 0, null],
    ['0', '0', null],
    ['', '', null],
  ])(
    'IntOrString %p is written %p by the API server and %p by objectmatcher',
    (port, apiserver, objectmatcher) => {
      const p = { spec: { containers: [{ name: 'a', livenessProbe: { httpGet: { port } } }] } };
      const read = (mode: 'apiserver' | 'objectmatcher') =>
        (
          typedPod(p, mode) as {
            spec: { containers: Array<{ livenessProbe: { httpGet: { port: unknown } } }> };
          }
        ).spec.containers[0].livenessProbe.httpGet.port;
      expect(read('apiserver')).toEqual(apiserver);
      expect(read('objectmatcher')).toEqual(objectmatcher);
    },
  );

  it.each<[string, string, RegExp]>([
    [
      'a string for an int',
      '{spec: {terminationGracePeriodSeconds: "30", containers: []}}',
      /terminationGracePeriodSeconds/,
    ],
    [
      'a fraction for an int',
      '{spec: {containers: [{name: a, ports: [{containerPort: 80.5}]}]}}',
      /containerPort/,
    ],
    [
      'an int32 overflow',
      '{spec: {containers: [{name: a, ports: [{containerPort: 4294967296}]}]}}',
      /overflows int32/,
    ],
    ['a number for a string', '{spec: {containers: [{name: a, image: 5}]}}', /image/],
    ['a string for a list', '{spec: {containers: kafka}}', /containers/],
    ['a list element of the wrong kind', '{spec: {containers: [kafka]}}', /containers\[0\]/],
    ['a bad quantity', '{spec: {containers: [{name: a, resources: {limits: {cpu: lots}}}]}}', /limits\.cpu/],
    ['a bad time', '{metadata: {creationTimestamp: yesterday}}', /creationTimestamp/],
    ['an object for a string map value', '{metadata: {labels: {a: {b: c}}}}', /labels\.a/],
  ])('refuses %s', (_name, input, where) => {
    expect(() => typedPod(y(input), 'objectmatcher')).toThrow(TypedDecodeError);
    expect(() => typedPod(y(input), 'objectmatcher')).toThrow(where);
  });

  it('returns a pod that is already typed as the same object, and shares unchanged parts', () => {
    const once = typedPod(
      y('{spec: {containers: [{name: a}]}, metadata: {labels: {x: y}}}'),
      'objectmatcher',
    );
    expect(typedPod(once, 'objectmatcher')).toBe(once);
    const input = y('{metadata: {name: p}, spec: {containers: [{name: a, resources: {}}]}, status: {}}') as {
      spec: unknown;
    };
    const out = typedPod(input, 'objectmatcher') as { spec: unknown };
    expect(out.spec).toBe(input.spec);
  });

  it('does not mutate its input', () => {
    const input = y('{spec: {containers: [{name: a, resources: {requests: {cpu: 1000m}}, junk: 1}]}}');
    const before = JSON.stringify(input);
    typedPod(input, 'apiserver');
    typedPod(input, 'objectmatcher');
    expect(JSON.stringify(input)).toBe(before);
  });
});
