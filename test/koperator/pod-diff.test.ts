import type { Pod } from 'kubernetes-types/core/v1';
import {
  intentDecision,
  lastAppliedConfiguration,
  threeWayDecision,
  type FieldDiff,
} from '../../lib/koperator/pod-diff';
import { DESIRED, edit, kafka, live } from './fixtures';

const LIVE = live(DESIRED);
const preferredHostname = {
  weight: 100,
  podAffinityTerm: {
    labelSelector: { matchLabels: { app: 'kafka', kafka_cr: 'pipeline-kafka' } },
    topologyKey: 'kubernetes.io/hostname',
  },
};
const preferredZone = {
  weight: 50,
  podAffinityTerm: {
    labelSelector: { matchLabels: { app: 'kafka' } },
    topologyKey: 'topology.kubernetes.io/zone',
  },
};
const DESIRED_PREFERRED = edit(DESIRED, (p) => {
  p.spec!.affinity = {
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferredHostname] },
  };
});
const team = { key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' };
const webhookToleration = { key: 'spot', operator: 'Exists', effect: 'NoSchedule' };
const DESIRED_TOLERATING = edit(DESIRED, (p) => {
  p.spec!.tolerations = [team];
});
const istio = { name: 'istio-proxy', image: 'istio/proxyv2:1.22', args: ['proxy', 'sidecar'] };

// koperator before the fix: handleRollingUpgrade's toleration merge, then objectmatcher's
// Calculate (three-way patch, then the apply-and-rediff $setElementOrder check).
// Each row: original (last-applied), modified (desired now), current (live), expected fields.
describe('threeWayDecision: what the live-pod diff reverts', () => {
  type Row = [string, Pod, Pod, Pod, FieldDiff[]];
  it.each<Row>([
    ['nothing but API-server defaults and the token volume in the live pod', DESIRED, DESIRED, LIVE, []],
    [
      'volume defaults on the live pod (configMap defaultMode) are not declared, so not reverted',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (p.spec!.volumes![0].configMap!.defaultMode = 420)),
      [],
    ],
    [
      'a declared volume whose source was switched is restored ($retainKeys clears the intruder)',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (p.spec!.volumes![0] = { name: 'broker-config', emptyDir: {} })),
      [
        {
          path: 'spec.volumes[name=broker-config].configMap.name',
          from: 'pipeline-kafka-config-4',
          to: null,
        },
      ],
    ],
    [
      'a sidecar container injected after kafka',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void p.spec!.containers.push(istio)),
      [],
    ],
    [
      'a sidecar injected first: $setElementOrder alone collapses after the rediff',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void p.spec!.containers.unshift(istio)),
      [],
    ],
    [
      'container requests lowered by a webhook',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (kafka(p).resources!.requests!.cpu = '392m')),
      [{ path: 'spec.containers[name=kafka].resources.requests.cpu', from: '1', to: '392m' }],
    ],
    [
      'quantities spelled differently (1000m vs 1, 2048Mi vs 2Gi, 1.5 vs 1500m)',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => {
        kafka(p).resources = {
          requests: { cpu: '1000m', memory: '2048Mi' },
          limits: { cpu: '1.5', memory: '3072Mi' },
        };
      }),
      [],
    ],
    [
      'a preferred anti-affinity term appended by a webhook: the whole atomic list',
      DESIRED_PREFERRED,
      DESIRED_PREFERRED,
      edit(live(DESIRED_PREFERRED), (p) => {
        p.spec!.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution!.push(
          preferredZone,
        );
      }),
      [
        {
          path: 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
          from: [preferredHostname],
          to: [preferredHostname, preferredZone],
        },
      ],
    ],
    [
      'required affinity declared, a webhook adds preferred terms koperator does not declare',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => {
        p.spec!.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution = [preferredZone];
        p.spec!.affinity!.nodeAffinity = {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: {} }],
        };
      }),
      [],
    ],
    [
      'tolerations appended by a webhook: merged into desired first',
      DESIRED_TOLERATING,
      DESIRED_TOLERATING,
      edit(live(DESIRED_TOLERATING), (p) => void p.spec!.tolerations!.push(webhookToleration)),
      [],
    ],
    [
      'a toleration prepended by a webhook changes the ordered atomic list',
      DESIRED_TOLERATING,
      DESIRED_TOLERATING,
      edit(live(DESIRED_TOLERATING), (p) => void p.spec!.tolerations!.unshift(webhookToleration)),
      [
        {
          path: 'spec.tolerations',
          from: [team, webhookToleration, ...live(DESIRED).spec!.tolerations!],
          to: [webhookToleration, team, ...live(DESIRED).spec!.tolerations!],
        },
      ],
    ],
    [
      'a label added by another actor',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (p.metadata!.labels!['security.istio.io/tlsMode'] = 'istio')),
      [],
    ],
    [
      'a declared label value changed on the live pod',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (p.metadata!.labels!.isBrokerNode = 'false')),
      [{ path: 'metadata.labels.isBrokerNode', from: 'true', to: 'false' }],
    ],
    [
      'a declared env var changed',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => void (kafka(p).env![0].value = '-Xmx1G')),
      [
        {
          path: 'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
          from: '-Xmx2G -Xms2G',
          to: '-Xmx1G',
        },
      ],
    ],
    [
      'ports are keyed by containerPort: a renamed declared port',
      DESIRED,
      DESIRED,
      edit(LIVE, (p) => {
        kafka(p).ports![1].name = 'controller';
        kafka(p).ports!.push({ name: 'metrics', containerPort: 9020 });
      }),
      [
        {
          path: 'spec.containers[name=kafka].ports[containerPort=29093].name',
          from: 'tcp-controller',
          to: 'controller',
        },
      ],
    ],
    [
      'a field koperator stopped declaring is deleted',
      edit(DESIRED, (p) => void (p.spec!.nodeSelector = { pool: 'kafka' })),
      DESIRED,
      edit(LIVE, (p) => void (p.spec!.nodeSelector = { pool: 'kafka' })),
      [{ path: 'spec.nodeSelector.pool', from: null, to: 'kafka' }],
    ],
    [
      'an env var koperator stopped declaring',
      DESIRED,
      edit(DESIRED, (p) => void kafka(p).env!.pop()),
      LIVE,
      [
        {
          path: 'spec.containers[name=kafka].env[name=CLASSPATH]',
          from: null,
          to: { name: 'CLASSPATH', value: '/opt/kafka/libs/extensions/*' },
        },
      ],
    ],
    [
      'nulls and empty strings in the desired pod are not declarations',
      DESIRED,
      edit(DESIRED, (p) => {
        p.spec!.hostname = '';
        p.spec!.nodeSelector = null as unknown as Record<string, string>;
        p.metadata!.labels!.empty = '';
        kafka(p).workingDir = '';
      }),
      LIVE,
      [],
    ],
    [
      'containers reordered in the desired pod: a real order change',
      DESIRED,
      edit(DESIRED, (p) => void p.spec!.containers.reverse()),
      LIVE,
      [{ path: 'spec.containers', from: ['fluent-bit', 'kafka'], to: ['kafka', 'fluent-bit'] }],
    ],
    [
      'a CR memory change reverts on the live pod too',
      DESIRED,
      edit(DESIRED, (p) => void (kafka(p).resources!.requests!.memory = '4Gi')),
      LIVE,
      [{ path: 'spec.containers[name=kafka].resources.requests.memory', from: '4Gi', to: '2Gi' }],
    ],
  ])('%s', (_name, original, modified, current, fields) => {
    const d = threeWayDecision(original, modified, current);
    expect(d.fields).toEqual(fields);
    expect(d.changed).toBe(fields.length > 0);
    expect(d.error).toBeUndefined();
    expect(Object.keys(d.patch).length > 0).toBe(d.changed);
  });

  it('patches the reverted requests with kafka as merge key and a $setElementOrder', () => {
    const current = edit(LIVE, (p) => void (kafka(p).resources!.requests!.cpu = '392m'));
    expect(threeWayDecision(DESIRED, DESIRED, current).patch).toEqual({
      spec: {
        '$setElementOrder/containers': [{ name: 'kafka' }, { name: 'fluent-bit' }],
        containers: [{ name: 'kafka', resources: { requests: { cpu: '1' } } }],
      },
    });
  });

  it('puts deletions in the patch: null for map keys, $patch: delete for merge-list elements', () => {
    const original = edit(DESIRED, (p) => void (p.spec!.nodeSelector = { pool: 'kafka' }));
    const current = edit(LIVE, (p) => void (p.spec!.nodeSelector = { pool: 'kafka' }));
    expect(threeWayDecision(original, DESIRED, current).patch).toEqual({ spec: { nodeSelector: null } });
    const dropped = threeWayDecision(
      DESIRED,
      edit(DESIRED, (p) => void p.spec!.containers.pop()),
      LIVE,
    );
    expect(dropped.patch).toEqual({
      spec: {
        '$setElementOrder/containers': [{ name: 'kafka' }],
        containers: [{ name: 'fluent-bit', $patch: 'delete' }],
      },
    });
  });

  it('reproduces Go comparing tolerationSeconds by pointer: a declared one never deduplicates', () => {
    const withSeconds = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 60,
    };
    const desired = edit(DESIRED, (p) => void (p.spec!.tolerations = [withSeconds]));
    const current = edit(LIVE, (p) => void (p.spec!.tolerations = [withSeconds]));
    const d = threeWayDecision(desired, desired, current);
    expect(d.changed).toBe(true);
    expect(d.fields).toEqual([
      { path: 'spec.tolerations', from: [withSeconds, withSeconds], to: [withSeconds] },
    ]);
  });

  it('reproduces the unsorted-finalizers quirk: the rediff keeps a $setElementOrder, with no field to show', () => {
    // strategicpatch sorts a primitive merge list in place and then compares it with the
    // unsorted one. The raw three-way patch of a live pod is never empty (the injected token
    // volume and mounts reorder merge lists), so the rediff always runs and two live
    // finalizers out of order always survive it.
    const unsorted = ['z.example.com/guard', 'a.example.com/guard'];
    const current = edit(LIVE, (p) => void (p.metadata!.finalizers = unsorted));
    const d = threeWayDecision(DESIRED, DESIRED, current);
    expect(d.changed).toBe(true);
    expect(d.patch).toEqual({ metadata: { '$setElementOrder/finalizers': unsorted } });
    expect(d.fields).toEqual([]);
    // sorted, they are harmless; so they are when the raw patch is already empty
    expect(
      threeWayDecision(
        DESIRED,
        DESIRED,
        edit(current, (p) => void p.metadata!.finalizers!.reverse()),
      ).changed,
    ).toBe(false);
    expect(
      threeWayDecision(
        DESIRED,
        DESIRED,
        edit(DESIRED, (p) => void (p.metadata!.finalizers = unsorted)),
      ).changed,
    ).toBe(false);
  });

  it('ignores the last-applied annotation on either side', () => {
    const modified = edit(
      DESIRED,
      (p) => void (p.metadata!.annotations = { 'banzaicloud.com/last-applied': 'something else' }),
    );
    expect(threeWayDecision(DESIRED, modified, LIVE).changed).toBe(false);
  });

  it('reports a malformed pod as an error and, like koperator, as a restart', () => {
    const broken = edit(DESIRED, (p) => void (p.spec!.containers[1] = { image: 'x' } as never));
    const d = threeWayDecision(DESIRED, broken, LIVE);
    expect(d.changed).toBe(true);
    expect(d.error).toMatch(/merge key name/);
  });

  it('does not mutate its inputs', () => {
    const current = edit(LIVE, (p) => void (kafka(p).resources!.requests!.cpu = '392m'));
    const before = JSON.stringify([DESIRED_TOLERATING, current]);
    threeWayDecision(DESIRED_TOLERATING, DESIRED_TOLERATING, current);
    expect(JSON.stringify([DESIRED_TOLERATING, current])).toBe(before);
  });
});

// The fix (podSpecIntentChanged): last-applied against desired; the live pod never counts.
describe('intentDecision: what the fixed operator restarts for', () => {
  type Row = [string, Pod, Pod, FieldDiff[]];
  it.each<Row>([
    [
      'a CR memory change',
      DESIRED,
      edit(DESIRED, (p) => {
        kafka(p).resources!.requests!.memory = '4Gi';
        kafka(p).resources!.limits!.memory = '6Gi';
      }),
      [
        { path: 'spec.containers[name=kafka].resources.requests.memory', from: '2Gi', to: '4Gi' },
        { path: 'spec.containers[name=kafka].resources.limits.memory', from: '3Gi', to: '6Gi' },
      ],
    ],
    ['no CR change (whatever webhooks did to the live pod)', DESIRED, DESIRED, []],
    [
      'the same quantity respelled',
      DESIRED,
      edit(DESIRED, (p) => void (kafka(p).resources!.limits!.cpu = '1.5')),
      [],
    ],
    [
      'a preferred term added to the CR-derived affinity',
      DESIRED_PREFERRED,
      edit(DESIRED_PREFERRED, (p) => {
        p.spec!.affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution!.push(
          preferredZone,
        );
      }),
      [
        {
          path: 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution',
          from: [preferredHostname],
          to: [preferredHostname, preferredZone],
        },
      ],
    ],
    [
      'a field no longer declared',
      edit(DESIRED, (p) => void (p.spec!.nodeSelector = { pool: 'kafka' })),
      DESIRED,
      [{ path: 'spec.nodeSelector.pool', from: 'kafka', to: null }],
    ],
    [
      'the desired pod carrying a last-applied annotation',
      DESIRED,
      edit(DESIRED, (p) => void (p.metadata!.annotations = { 'banzaicloud.com/last-applied': 'x' })),
      [],
    ],
  ])('%s', (_name, desiredThen, modified, fields) => {
    // last-applied is what koperator's annotator wrote for the desired pod of the time.
    const d = intentDecision(lastAppliedConfiguration(desiredThen), modified);
    expect(d.fields).toEqual(fields);
    expect(d.changed).toBe(fields.length > 0);
  });

  it('is true on a CR change and false on a webhook change that the three-way diff reverts', () => {
    const webhooked = edit(LIVE, (p) => void (kafka(p).resources!.requests!.cpu = '392m'));
    expect(threeWayDecision(DESIRED, DESIRED, webhooked).changed).toBe(true);
    const original = lastAppliedConfiguration(DESIRED);
    expect(intentDecision(original, DESIRED).changed).toBe(false);
    const crEdit = edit(DESIRED, (p) => void (kafka(p).resources!.requests!.memory = '4Gi'));
    expect(intentDecision(original, crEdit).changed).toBe(true);
  });
});
