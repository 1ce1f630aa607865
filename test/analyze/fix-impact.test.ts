import {
  fixImpactByBroker,
  fixImpactOf,
  fixVerdict,
  sumFixImpacts,
  type FixImpact,
} from '../../lib/analyze/fix-impact';
import { isWebhookRef } from '../../lib/k8s/writers';
import type { Classification, FieldChange, Recreation } from '../../lib/model/findings';

const WEBHOOK = 'scaleops-mutating-webhook-configuration/pods.scaleops.sh';
const VPA = 'system:serviceaccount:kube-system:vpa-updater';
const KEDA = 'system:serviceaccount:keda:keda-operator';

function rec(over: {
  classification?: Classification;
  by?: (string | null)[];
  intentDiff?: boolean | null;
  deletedAt?: string;
  createdAt?: string | null;
  readyAt?: string | null;
  brokerId?: string;
}): Recreation {
  const by = over.by ?? [WEBHOOK];
  const fields: FieldChange[] = by.map((b, i) => ({ path: `spec.f${i}`, from: 1, to: 2, by: b }));
  const deletedAt = over.deletedAt ?? '2026-11-02T10:00:00Z';
  const createdAt = over.createdAt === undefined ? '2026-11-02T10:00:10Z' : over.createdAt;
  return {
    namespace: 'kafka',
    kafkaCluster: 'orders',
    brokerId: over.brokerId ?? '1',
    deletedPod: { name: 'orders-1-a', uid: null, deletedAt, deletedBy: 'koperator' },
    createdPod:
      createdAt === null
        ? null
        : {
            name: 'orders-1-b',
            uid: null,
            createdAt,
            ...(over.readyAt !== undefined ? { readyAt: over.readyAt } : {}),
          },
    classification: over.classification ?? 'external-mutation-revert',
    fields,
    wouldRestart:
      over.intentDiff === null ? null : { threeWayMerge: true, intentDiff: over.intentDiff ?? false },
    evidence: [],
  };
}

describe('fixVerdict', () => {
  it.each([
    ['a revert of a webhook’s write', rec({}), [], 'avoidable'],
    ['a revert of the VPA updater’s write', rec({ by: [VPA] }), [], 'avoidable'],
    ['a revert of a configured autoscaler’s write', rec({ by: [KEDA] }), [KEDA], 'avoidable'],
    ['an unconfigured controller’s write', rec({ by: [KEDA] }), [], 'reverted-tamper'],
    ['a revert of a person’s write', rec({ by: ['alice@example.com'] }), [], 'reverted-tamper'],
    ['a webhook’s and a person’s write', rec({ by: [WEBHOOK, 'bob'] }), [], 'reverted-tamper'],
    ['a revert of a write by an unknown writer', rec({ by: [null] }), [], 'other'],
    ['a webhook and an unknown writer', rec({ by: [WEBHOOK, null] }), [], 'other'],
    ['a revert with no fields', rec({ by: [] }), [], 'other'],
    ['a revert the intent diff would restart too', rec({ intentDiff: true }), [], 'other'],
    ['a revert whose states are unknown', rec({ intentDiff: null }), [], 'other'],
    ['an intent change', rec({ classification: 'intent-change', by: ['alice'] }), [], 'other'],
    ['an external deletion', rec({ classification: 'external-deletion', by: [] }), [], 'other'],
    ['a tainted restart', rec({ classification: 'tainted-restart', by: [] }), [], 'other'],
  ])('%s', (_label, r, autoscalers, verdict) => {
    expect(fixVerdict(r, autoscalers)).toBe(verdict);
  });
});

describe('isWebhookRef', () => {
  it.each([
    [WEBHOOK, true],
    ['zone-spread-injector/affinity.spread.example.com', true],
    ['vpa-webhook-config/vpa.k8s.io', true],
    ['alice@example.com', false],
    ['system:serviceaccount:kube-system:vpa-updater', false],
    ['arn:aws:sts::111122223333:assumed-role/admin/alice', false],
    ['config/not-fully-qualified', false],
    ['kubernetes-admin', false],
  ])('%s → %s', (by, expected) => {
    expect(isWebhookRef(by)).toBe(expected);
  });
});

describe('fixImpactOf', () => {
  const base: FixImpact = {
    recreations: 0,
    avoidableWithFix: 0,
    revertedTampers: 0,
    downtimeSeconds: 0,
    avoidableDowntimeSeconds: 0,
    downtimeFrom: 'create',
    readyUnseen: 0,
    withoutSuccessor: 0,
    autoscalerUsers: [VPA],
  };
  it.each<[string, Recreation[], Partial<FixImpact>]>([
    ['nothing', [], {}],
    [
      'no pod status: downtime to the create',
      [
        rec({}),
        rec({ classification: 'intent-change', by: ['alice'], createdAt: '2026-11-02T10:00:30.25Z' }),
      ],
      { recreations: 2, avoidableWithFix: 1, downtimeSeconds: 40.3, avoidableDowntimeSeconds: 10 },
    ],
    [
      'pod status: downtime to the first Ready',
      [
        rec({ readyAt: '2026-11-02T10:01:00Z' }),
        rec({
          by: ['bob'],
          deletedAt: '2026-11-02T11:00:00Z',
          createdAt: '2026-11-02T11:00:05Z',
          readyAt: '2026-11-02T11:00:35Z',
        }),
      ],
      {
        recreations: 2,
        avoidableWithFix: 1,
        revertedTampers: 1,
        downtimeSeconds: 95,
        avoidableDowntimeSeconds: 60,
        downtimeFrom: 'ready',
      },
    ],
    [
      'a successor never seen ready counts to its create, and is counted',
      [rec({ readyAt: '2026-11-02T10:00:40Z' }), rec({ readyAt: null })],
      {
        recreations: 2,
        avoidableWithFix: 2,
        downtimeSeconds: 50,
        avoidableDowntimeSeconds: 50,
        downtimeFrom: 'ready',
        readyUnseen: 1,
      },
    ],
    [
      'no successor: no downtime, counted apart',
      [rec({ classification: 'intent-change', by: [], createdAt: null })],
      { recreations: 1, withoutSuccessor: 1 },
    ],
    [
      'a successor logged before the deletion costs nothing, not less than nothing',
      [rec({ createdAt: '2026-11-02T09:59:59Z' })],
      { recreations: 1, avoidableWithFix: 1 },
    ],
  ])('%s', (_label, recreations, expected) => {
    expect(fixImpactOf(recreations)).toEqual({ ...base, ...expected });
  });

  it('sums clusters, counting a cluster without pod status as not seen ready', () => {
    const a = fixImpactOf([rec({ readyAt: '2026-11-02T10:00:20Z' })]);
    const b = fixImpactOf([rec({}), rec({ createdAt: null })]);
    expect(sumFixImpacts([a, b])).toEqual({
      ...base,
      recreations: 3,
      avoidableWithFix: 3,
      downtimeSeconds: 30,
      avoidableDowntimeSeconds: 30,
      downtimeFrom: 'ready',
      readyUnseen: 1,
      withoutSuccessor: 1,
    });
    expect(sumFixImpacts([b]).downtimeFrom).toBe('create');
  });

  it('breaks the impact down by broker, in the order brokers first appear', () => {
    const byBroker = fixImpactByBroker([
      rec({ brokerId: '2' }),
      rec({ brokerId: '1', by: ['alice'] }),
      rec({ brokerId: '2' }),
    ]);
    expect(byBroker.map((b) => [b.brokerId, b.impact.recreations, b.impact.avoidableWithFix])).toEqual([
      ['2', 2, 2],
      ['1', 1, 0],
    ]);
  });
});
