// Operators as profiles (lib/operators/): the core asks the registry, the registry asks each
// operator's profile. With koperator alone every answer must be koperator's own, and the
// interface must carry an operator whose steps around the diff change from version to version.
import { MSG } from '../../lib/koperator/log-messages';
import { brokerOfPodName, mayBeKoperatorPod } from '../../lib/koperator/naming';
import { intentDecision, lastAppliedConfiguration, threeWayDecision } from '../../lib/koperator/pod-diff';
import { twinsKept } from '../../lib/koperator/tolerations';
import { FIXED_OPERATOR_VERSION, loopRecommendation } from '../../lib/koperator/recommendation';
import { KOPERATOR } from '../../lib/koperator/profile';
import { KOPERATOR_ANALYSIS } from '../../lib/koperator/analysis-profile';
import { analysisOf, beforeAndAfterFix } from '../../lib/operators/analysis-registry';
import {
  compareVersions,
  stepsAt,
  stepsBefore,
  type DiffVersion,
  type OperatorAnalysis,
} from '../../lib/operators/profile';
import {
  CR_RESOURCES,
  hasMarkerText,
  isOperatorPodName,
  isUnitConfigWrite,
  isUsedLogMessage,
  logRoleOf,
  mayBeOperatorPod,
  OPERATORS,
  operatorOfLogMessage,
  OWN_GROUPS,
  OWN_RESOURCES,
  UNIT_CONFIG_RESOURCES,
} from '../../lib/operators/registry';
import { NIFIKOP } from '../../lib/nifikop/profile';

describe('the registry: koperator, then NiFiKop', () => {
  it('holds koperator, by identity and by replay', () => {
    expect(OPERATORS.map((o) => o.id)).toEqual(['koperator', 'nifikop']);
    expect(analysisOf().id).toBe('koperator');
    expect(analysisOf('koperator')).toBe(KOPERATOR_ANALYSIS);
    expect(() => analysisOf('nobody')).toThrow(/no operator profile/);
  });

  it('names koperator’s CR, its own resources and its per-broker ConfigMaps', () => {
    expect(KOPERATOR.cr).toEqual({
      group: 'kafka.banzaicloud.io',
      kind: 'KafkaCluster',
      resource: 'kafkaclusters',
      textPiece: 'fkaclus',
    });
    expect(NIFIKOP.cr.resource).toContain(NIFIKOP.cr.textPiece);
    expect(KOPERATOR.cr.resource).toContain(KOPERATOR.cr.textPiece);
    expect([...CR_RESOURCES]).toEqual(['kafkaclusters', 'nificlusters']);
    expect(OWN_RESOURCES.slice(0, 4)).toEqual([
      'kafkaclusters',
      'kafkatopics',
      'kafkausers',
      'cruisecontroloperations',
    ]);
    expect(OWN_GROUPS).toEqual(['kafka.banzaicloud.io', 'nifi.konpyutaika.com']);
    expect(KOPERATOR.ownResourceFolds).toEqual(['kafka*']);
    expect([...UNIT_CONFIG_RESOURCES]).toEqual(['configmaps', 'secrets']);
    expect(KOPERATOR.unitConfig.nameOf('events', '2')).toBe('events-config-2');
    expect(KOPERATOR.pods.unitOfPodName('events-kafka-2-x7k2p')).toEqual({
      cluster: 'events-kafka',
      unit: '2',
    });
    expect(KOPERATOR.pods.unitOfPod({ metadata: { labels: { kafka_cr: 'events', brokerId: '2' } } })).toEqual(
      {
        cluster: 'events',
        unit: '2',
      },
    );
    expect(isUnitConfigWrite('configmaps', 'events-config-2')).toBe(true);
    expect(isUnitConfigWrite('configmaps', 'events-config')).toBe(false);
    // NiFiKop's node configuration is a Secret of the same name pattern.
    expect(isUnitConfigWrite('secrets', 'events-config-2')).toBe(true);
  });

  it.each<[string, unknown]>([
    ['the app=kafka label', { metadata: { labels: { app: 'kafka' } } }],
    ['a kafka_cr label', { metadata: { labels: { kafka_cr: 'c' } } }],
    ['a brokerId label', { metadata: { labels: { brokerId: '3' } } }],
    ['a KafkaCluster owner', { metadata: { ownerReferences: [{ kind: 'KafkaCluster', name: 'c' }] } }],
    ['a broker pod name', { metadata: { name: 'events-kafka-2-x7k2p' } }],
    ['another team’s pod', { metadata: { name: 'web-7f9c4b-x7k2p', labels: { app: 'web' } } }],
    ['not an object', 'pod'],
  ])('tells pods as koperator does: %s', (_name, pod) => {
    expect(mayBeOperatorPod(pod)).toBe(mayBeKoperatorPod(pod));
  });

  it('knows pod names as koperator’s generateName makes them', () => {
    for (const name of ['events-kafka-2-x7k2p', 'events-controller-3-abcde', 'web-7f9c4b-x7k2p', 'kafka-0']) {
      expect(isOperatorPodName(name)).toBe(brokerOfPodName(name) !== null);
    }
  });

  it('finds a marker text in every label and owner that makes a pod koperator’s', () => {
    for (const pod of [
      { metadata: { labels: { app: 'kafka' } } },
      { metadata: { labels: { kafka_cr: 'c' } } },
      { metadata: { labels: { brokerId: '3' } } },
      { metadata: { ownerReferences: [{ kind: 'KafkaCluster', name: 'c' }] } },
    ]) {
      expect(mayBeOperatorPod(pod)).toBe(true);
      expect(hasMarkerText(JSON.stringify(pod))).toBe(true);
    }
    expect(hasMarkerText(JSON.stringify({ metadata: { labels: { app: 'web' } } }))).toBe(false);
  });

  it('reads every log line koperator’s analysis reads, by its role, and no other', () => {
    for (const msg of Object.values(MSG)) expect(isUsedLogMessage(msg)).toBe(true);
    expect(logRoleOf(MSG.resourceDiffs)).toBe('resourceDiffs');
    expect(logRoleOf(MSG.brokerPodDeleted)).toBe('unitPodDeleted');
    expect(logRoleOf(MSG.taintedDeleting)).toBe('taintedDeleting');
    expect(logRoleOf(MSG.taintedDeletingOld)).toBe('taintedDeleting');
    expect(logRoleOf(MSG.terminatedContainer)).toBe('terminatedContainer');
    expect(logRoleOf(MSG.specChanged)).toBe('specChanged');
    expect(logRoleOf('Reconciling KafkaCluster')).toBeNull();
    // NiFiKop's, not koperator's: read by NiFiKop's profile.
    expect(operatorOfLogMessage('resource diffs')?.id).toBe('nifikop');
    expect(operatorOfLogMessage('Deleting pod search-nifi-2-nodeabcde')?.id).toBe('nifikop');
    expect(isUsedLogMessage('Deleting pod ')).toBe(false);
  });
});

describe('koperator’s replay as a table of versions', () => {
  it('decides before 0.30.0-rc1 by the three-way diff and from it by the intent diff', () => {
    const { before, fixed } = beforeAndAfterFix(KOPERATOR_ANALYSIS);
    expect(KOPERATOR_ANALYSIS.fixedVersion).toBe(FIXED_OPERATOR_VERSION);
    expect(before.since).toBeNull();
    expect(before.decide).toBe(threeWayDecision);
    expect(fixed.since).toBe('0.30.0-rc1');
    expect(KOPERATOR_ANALYSIS.loopRecommendation).toBe(loopRecommendation);
    expect(KOPERATOR_ANALYSIS.lastAppliedOf).toBe(lastAppliedConfiguration);
    expect(before.tolerationTwins).toBe(twinsKept);
    expect(fixed.tolerationTwins).toBeUndefined();
    expect(KOPERATOR_ANALYSIS.reconcileSteps).toEqual([
      'taintedLabels',
      'unitRemoved',
      'podDiff',
      'terminatedContainer',
      'unitConfigChanged',
    ]);
    const original = { metadata: { name: 'p' }, spec: { containers: [{ name: 'kafka', image: 'a' }] } };
    const modified = { metadata: { name: 'p' }, spec: { containers: [{ name: 'kafka', image: 'b' }] } };
    const live = { metadata: { name: 'p' }, spec: { containers: [{ name: 'kafka', image: 'a' }] } };
    expect(fixed.decide(original, modified, live)).toBe(intentDecision(original, modified));
    expect(stepsAt(KOPERATOR_ANALYSIS, '0.29.0')).toBe(before);
    expect(stepsAt(KOPERATOR_ANALYSIS, '0.30.0')).toBe(fixed);
    expect(stepsAt(KOPERATOR_ANALYSIS, null)).toBe(before);
  });
});

describe('an operator whose steps change by version (a NiFiKop-like table)', () => {
  const step = (since: string | null, steps: string): DiffVersion => ({
    since,
    steps,
    decide: () => ({ changed: false, patch: {}, fields: [] }),
  });
  const table: OperatorAnalysis = {
    id: 'versioned',
    reconcileSteps: ['podDiff', 'terminatedContainer', 'unitConfigChanged'],
    diffVersions: [
      step(null, 'three-way'),
      step('1.12.0', 'istio: prometheus port removed, liveness copied; injected containers merged'),
      step('1.14.0', 'zarf image rewriting tolerated'),
      step('1.15.0', 'linkerd merged; order-only patches in sync'),
    ],
    fixedVersion: '1.15.0',
    intent: () => ({ changed: false, patch: {}, fields: [] }),
    lastAppliedOf: (desired) => desired,
    loopRecommendation: () => '',
  };

  it.each<[string, string]>([
    ['1.11.2', 'three-way'],
    ['1.12.0', 'istio'],
    ['v1.13.1', 'istio'],
    ['1.14.0-rc1', 'istio'],
    ['1.14.0', 'zarf'],
    ['1.15.0', 'linkerd'],
    ['1.17.0', 'linkerd'],
  ])('at %s takes the steps of %s', (version, steps) => {
    expect(stepsAt(table, version).steps).toContain(steps);
  });

  it('compares to the fix with the steps just before it', () => {
    expect(stepsBefore(table, '1.15.0').steps).toContain('zarf');
    expect(beforeAndAfterFix(table).fixed.steps).toContain('linkerd');
  });

  it.each<[string, string, number]>([
    ['1.2.0', '1.10.0', -1],
    ['0.30.0-rc1', '0.30.0', -1],
    ['0.30.0-rc1', '0.30.0-rc2', -1],
    ['v1.15.0', '1.15', 0],
    ['1.15.1', '1.15.0', 1],
  ])('compares versions: %s to %s', (a, b, sign) => {
    expect(compareVersions(a, b)).toBe(sign);
  });
});

describe('koperator’s log-line context', () => {
  const ctx = (fields: Record<string, unknown>) => KOPERATOR.logs.context(MSG.brokerPodDeleted, fields);

  it.each<[string, Record<string, unknown>, Partial<ReturnType<typeof ctx>>]>([
    [
      'the controller-runtime KafkaCluster object',
      {
        KafkaCluster: { name: 'events', namespace: 'kafka' },
        name: 'x',
        namespace: 'y',
        pod: 'p',
        brokerId: '2',
      },
      { cluster: 'events', namespace: 'kafka', pod: 'p', unit: '2' },
    ],
    [
      'clusterName and clusterNamespace',
      { clusterName: 'c', clusterNamespace: 'n' },
      { cluster: 'c', namespace: 'n' },
    ],
    [
      'older versions’ Request.Name',
      { 'Request.Name': 'c', 'Request.Namespace': 'n' },
      { cluster: 'c', namespace: 'n' },
    ],
    [
      'a bare name with no KafkaCluster object',
      { name: 'c', namespace: 'n' },
      { cluster: 'c', namespace: 'n' },
    ],
    [
      'a pod object reference and a numeric broker id',
      { pod: { name: 'p' }, brokerId: 3 },
      { pod: 'p', unit: '3' },
    ],
  ])('reads %s', (_name, fields, expected) => {
    expect(ctx(fields)).toMatchObject(expected);
  });

  it('marks the downscale path, which logs brokerId before pod', () => {
    expect(ctx({ brokerId: '2', pod: 'p' }).marks).toEqual({ brokerIdFirst: true });
    expect(ctx({ pod: 'p', brokerId: '2' }).marks).toEqual({});
  });
});

describe('NiFiKop’s identity', () => {
  it.each([
    [
      'labels',
      { metadata: { labels: { app: 'nifi', nifi_cr: 'prod', nodeId: '2' } } },
      { cluster: 'prod', unit: '2' },
    ],
    [
      'nodeId and the owner',
      { metadata: { labels: { nodeId: '0' }, ownerReferences: [{ kind: 'NifiCluster', name: 'prod' }] } },
      { cluster: 'prod', unit: '0' },
    ],
    ['koperator’s labels', { metadata: { labels: { kafka_cr: 'events', brokerId: '2' } } }, null],
  ])('finds the node of a pod by its %s', (_n, pod, unit) => {
    expect(NIFIKOP.pods.unitOfPod(pod)).toEqual(unit);
  });

  it.each([
    ['search-nifi-2-nodexk2p9', { cluster: 'search-nifi', unit: '2' }],
    ['events-kafka-2-x7k2p', null],
    ['search-nifi-2-node', null],
  ])('reads the node of the pod name %s', (name, unit) => {
    expect(NIFIKOP.pods.unitOfPodName(name)).toEqual(unit);
    if (unit) expect(KOPERATOR.pods.unitOfPodName(name)).toBeNull();
  });

  it('keeps its config Secret and its status writes, and places its lines', () => {
    expect(isUnitConfigWrite('secrets', 'prod-config-2')).toBe(true);
    expect(isUnitConfigWrite('secrets', 'prod-tls')).toBe(false);
    expect(NIFIKOP.cr.keepStatus).toBe(true);
    expect(NIFIKOP.logs.context('Deleting pod prod-2-nodeabcde', {})).toMatchObject({
      pod: 'prod-2-nodeabcde',
    });
    expect(NIFIKOP.logs.roleOf('pod resource is in sync (order-only diff ignored)')).toBe('orderOnlyInSync');
  });
});
