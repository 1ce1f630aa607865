// What koperator's real Go code decides, class by class (issue 16): the rules behind the
// shared reference vectors, written as the project's own table so the suite stands without
// ../shared. Each row: last-applied (as decoded, not normalised), desired, live, and what
// each decision must say: changed, and the patch (null where Go fails and koperator, logging
// the error, restarts the pod).
import { load } from 'js-yaml';
import { intentDecision, threeWayDecision } from '../../lib/koperator/pod-diff';

const y = (s: string): unknown => load(s);

/**
 * A pod with one kafka container, as Go writes it (`resources: {}`, `status: {}`); each
 * argument is flow-YAML members added to the container, the spec or the metadata.
 */
function pod(container = '', spec = '', metadata = ''): unknown {
  const more = (s: string): string => (s ? `, ${s}` : '');
  const c = container.includes('resources:') ? container : `resources: {}${more(container)}`;
  return y(
    `{metadata: {name: p${more(metadata)}}, spec: {containers: [{name: kafka, image: 'k:1', ${c}}]${more(spec)}}, status: {}}`,
  );
}

interface Expect {
  threeWay: [boolean, unknown];
  intent: [boolean, unknown];
}

type Row = [string, unknown, unknown, unknown, Expect];

const kafkaPatch = (fields: string): unknown =>
  y(`{spec: {$setElementOrder/containers: [{name: kafka}], containers: [{name: kafka, ${fields}}]}}`);

function check(original: unknown, modified: unknown, current: unknown, e: Expect): void {
  const tw = threeWayDecision(original, modified, current);
  const it = intentDecision(original, modified);
  expect([tw.changed, tw.error ? null : tw.patch]).toEqual(e.threeWay);
  expect([it.changed, it.error ? null : it.patch]).toEqual(e.intent);
}

describe('class 1: quantities are compared as canonical strings', () => {
  it.each<Row>([
    [
      'a webhook rewriting 2Gi as 2147483648 is reverted (one value, two canonical strings)',
      pod('resources: {requests: {memory: 2Gi}}'),
      pod('resources: {requests: {memory: 2Gi}}'),
      pod('resources: {requests: {memory: "2147483648"}}'),
      { threeWay: [true, kafkaPatch('resources: {requests: {memory: 2Gi}}')], intent: [false, {}] },
    ],
    [
      '1G and 1e9 keep their formats too',
      pod('resources: {requests: {memory: 1G}}'),
      pod('resources: {requests: {memory: 1G}}'),
      pod('resources: {requests: {memory: "1e9"}}'),
      { threeWay: [true, kafkaPatch('resources: {requests: {memory: 1G}}')], intent: [false, {}] },
    ],
    [
      'a desired pod respelling last-applied in another format is an intent change',
      pod('resources: {requests: {memory: 2Gi}}'),
      pod('resources: {requests: {memory: "2147483648"}}'),
      pod('resources: {requests: {memory: "2147483648"}}'),
      { threeWay: [false, {}], intent: [true, kafkaPatch('resources: {requests: {memory: "2147483648"}}')] },
    ],
    [
      'a respelling within one format is canonicalised away (1024Mi is stored as 1Gi, 0.5 as 500m)',
      pod('resources: {requests: {memory: 1Gi, cpu: 500m}}'),
      pod('resources: {requests: {memory: 1024Mi, cpu: 500m}}'),
      pod('resources: {requests: {memory: 1Gi, cpu: 0.5}}'),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'last-applied is taken as decoded: a non-canonical spelling there is a change',
      pod('resources: {requests: {cpu: 1000m}}'),
      pod('resources: {requests: {cpu: "1"}}'),
      pod('resources: {requests: {cpu: "1"}}'),
      { threeWay: [false, {}], intent: [true, kafkaPatch('resources: {requests: {cpu: "1"}}')] },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));
});

describe('class 2: repeated merge keys pair as Go sorts them', () => {
  it.each<Row>([
    [
      'an env name repeated in the desired pod merges into the one entry last-applied has: no change',
      pod('env: [{name: A, value: "1"}]'),
      pod('env: [{name: A, value: "1"}, {name: A, value: "2"}]'),
      pod('env: [{name: A, value: "1"}]'),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'one containerPort for TCP and UDP, the live list in the other order: pairs cross and the diff reverts',
      pod('ports: [{containerPort: 53, protocol: TCP}, {containerPort: 53, protocol: UDP}]'),
      pod('ports: [{containerPort: 53, protocol: TCP}, {containerPort: 53, protocol: UDP}]'),
      pod('ports: [{containerPort: 53, protocol: UDP}, {containerPort: 53, protocol: TCP}]'),
      {
        threeWay: [
          true,
          kafkaPatch(
            '$setElementOrder/ports: [{containerPort: 53}, {containerPort: 53}], ports: [{containerPort: 53, protocol: TCP}]',
          ),
        ],
        intent: [false, {}],
      },
    ],
    [
      'two spread constraints on one topology key, declared alike everywhere: no change',
      pod(
        '',
        'topologySpreadConstraints: [{topologyKey: zone, maxSkew: 1, whenUnsatisfiable: DoNotSchedule}, {topologyKey: zone, maxSkew: 2, whenUnsatisfiable: ScheduleAnyway}]',
      ),
      pod(
        '',
        'topologySpreadConstraints: [{topologyKey: zone, maxSkew: 1, whenUnsatisfiable: DoNotSchedule}, {topologyKey: zone, maxSkew: 2, whenUnsatisfiable: ScheduleAnyway}]',
      ),
      pod(
        '',
        'topologySpreadConstraints: [{topologyKey: zone, maxSkew: 1, whenUnsatisfiable: DoNotSchedule}, {topologyKey: zone, maxSkew: 2, whenUnsatisfiable: ScheduleAnyway}]',
      ),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'a finalizer repeated on the live pod: the merge dedupes in the live array itself, which orders the re-derived patch',
      pod('', '', 'finalizers: [a, c]'),
      pod('', '', 'finalizers: [a, c]'),
      pod('', '', 'finalizers: [a, b, a]'),
      {
        threeWay: [
          true,
          y(
            '{metadata: {$deleteFromPrimitiveList/finalizers: [a], $setElementOrder/finalizers: [a, b, c], finalizers: [c]}}',
          ),
        ],
        intent: [false, {}],
      },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));
});

describe('class 3: the live pod keeps its last-applied annotation in Calculate', () => {
  it.each<Row>([
    [
      'a desired pod with no annotations left removes the map, the annotation with it: a change',
      pod('', '', 'annotations: {team: kafka}'),
      pod(),
      pod(),
      {
        threeWay: [true, y('{metadata: {annotations: null}}')],
        intent: [true, y('{metadata: {annotations: null}}')],
      },
    ],
    [
      'with no last-applied state the live pod has no annotation to lose',
      null,
      pod(),
      pod(),
      { threeWay: [false, {}], intent: [true, pod()] },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));
});

describe("class 4: $setElementOrder of the re-derived patch follows Go's in-place merge", () => {
  it.each<Row>([
    [
      'a new volume meeting one only the live pod has: the live-only one comes first',
      pod('', 'volumes: [{name: old, emptyDir: {}}]'),
      pod('', 'volumes: [{name: new, emptyDir: {}}]'),
      pod('', 'volumes: [{name: old, emptyDir: {}}, {name: token, emptyDir: {}}]'),
      {
        threeWay: [
          true,
          y(
            '{spec: {$setElementOrder/volumes: [{name: token}, {name: new}], volumes: [{name: new, emptyDir: {}}, {$patch: delete, name: old}]}}',
          ),
        ],
        intent: [
          true,
          y(
            '{spec: {$setElementOrder/volumes: [{name: new}], volumes: [{name: new, emptyDir: {}}, {$patch: delete, name: old}]}}',
          ),
        ],
      },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));
});

describe('class 5: desired and live pods go through the typed round trip', () => {
  it.each<Row>([
    [
      'a field Go does not know is dropped',
      pod(),
      pod('', 'futureField: {a: 1}'),
      pod(),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'empty omitempty lists and maps are not written',
      pod(),
      pod('', 'tolerations: [], nodeSelector: {}'),
      pod(),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'always-present structs are present: a live pod without status has status {}',
      y('{status: {}}'),
      y('{status: {}}'),
      y('{}'),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'an IntOrString port written as a numeric string is the number to objectmatcher',
      pod('readinessProbe: {tcpSocket: {port: 8080}}'),
      pod('readinessProbe: {tcpSocket: {port: 8080}}'),
      pod('readinessProbe: {tcpSocket: {port: "8080"}}'),
      { threeWay: [false, {}], intent: [false, {}] },
    ],
    [
      'an IntOrString 0 is written as nil, so a probe on port 0 vanishes from the desired pod',
      pod('readinessProbe: {tcpSocket: {port: 0}}'),
      pod('readinessProbe: {tcpSocket: {port: 0}}'),
      pod('readinessProbe: {tcpSocket: {port: 0}}'),
      { threeWay: [false, {}], intent: [true, kafkaPatch('readinessProbe: null')] },
    ],
    [
      'last-applied is not stripped of nulls: a null there is a deletion',
      pod('', 'nodeSelector: null'),
      pod(),
      pod('', 'nodeSelector: {pool: b}'),
      {
        threeWay: [true, y('{spec: {nodeSelector: null}}')],
        intent: [true, y('{spec: {nodeSelector: null}}')],
      },
    ],
    [
      'a required field left out is written as its zero value (a port without containerPort is port 0)',
      pod('ports: [{containerPort: 80}]'),
      pod('ports: [{containerPort: 80}, {name: noport}]'),
      pod('ports: [{containerPort: 80}]'),
      {
        threeWay: [
          true,
          kafkaPatch(
            '$setElementOrder/ports: [{containerPort: 80}, {containerPort: 0}], ports: [{containerPort: 0, name: noport}]',
          ),
        ],
        intent: [
          true,
          kafkaPatch(
            '$setElementOrder/ports: [{containerPort: 80}, {containerPort: 0}], ports: [{containerPort: 0, name: noport}]',
          ),
        ],
      },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));
});

describe('class 6: where Go fails, koperator logs the error and restarts the pod', () => {
  it.each<Row>([
    [
      'a $-prefixed annotation key in the desired pod breaks applying the patch to the live pod',
      pod(),
      pod('', '', 'annotations: {"$setElementOrder/x": y}'),
      pod(),
      { threeWay: [true, null], intent: [true, y('{metadata: {annotations: {"$setElementOrder/x": y}}}')] },
    ],
    [
      'an env entry whose name is empty loses its merge key to null stripping',
      pod('env: [{name: A, value: "1"}]'),
      pod('env: [{name: A, value: "1"}, {name: "", value: "2"}]'),
      pod('env: [{name: A, value: "1"}]'),
      { threeWay: [true, null], intent: [true, null] },
    ],
    [
      'a desired value that does not decode into the Pod type fails both decisions',
      pod(),
      pod('workingDir: 5'),
      pod(),
      { threeWay: [true, null], intent: [true, null] },
    ],
    [
      'a last-applied document that is not a JSON object cannot be decoded into a map',
      ['not', 'a', 'pod'],
      pod(),
      pod(),
      { threeWay: [true, null], intent: [true, null] },
    ],
    [
      'a live value that does not decode fails only the live-pod diff',
      pod(),
      pod(),
      pod('resources: {requests: {cpu: lots}}'),
      { threeWay: [true, null], intent: [false, {}] },
    ],
  ])('%s', (_n, o, m, c, e) => check(o, m, c, e));

  it('notes the error on the decision', () => {
    const d = threeWayDecision(pod(), pod(), pod('resources: {requests: {cpu: lots}}'));
    expect(d.error).toMatch(/cpu.*not a quantity/);
  });
});
