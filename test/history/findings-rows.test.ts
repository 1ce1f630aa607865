// The findings history's pure core: which hours a run writes, and the rows of one hour
// (a loop split across hours under one id, recreations tied to their loop, values as text).
import {
  encodeRow,
  FINDINGS_COLUMNS,
  loopId,
  rowsForHour,
  settledHours,
  type HourContext,
} from '../../lib/history/findings-rows';
import { fixImpactOf } from '../../lib/analyze/fix-impact';
import type { Drift, Fight, Loop, Recreation } from '../../lib/model/findings';

describe('settledHours', () => {
  const cases: {
    name: string;
    window: [string, string];
    settle: number;
    done: string | null;
    want: string[];
  }[] = [
    {
      name: 'whole hours inside the window, ended a settle ago',
      window: ['2026-11-02T05:45:00Z', '2026-11-02T11:45:00Z'],
      settle: 3600,
      done: null,
      want: ['2026-11-02-06', '2026-11-02-07', '2026-11-02-08', '2026-11-02-09'],
    },
    {
      name: 'after the last hour written',
      window: ['2026-11-02T05:45:00Z', '2026-11-02T11:45:00Z'],
      settle: 3600,
      done: '2026-11-02-08',
      want: ['2026-11-02-09'],
    },
    {
      name: 'nothing new five minutes later',
      window: ['2026-11-02T05:50:00Z', '2026-11-02T11:50:00Z'],
      settle: 3600,
      done: '2026-11-02-09',
      want: [],
    },
    {
      name: 'no settle: every whole hour up to the run',
      window: ['2026-11-02T06:00:00Z', '2026-11-02T09:00:00Z'],
      settle: 0,
      done: null,
      want: ['2026-11-02-06', '2026-11-02-07', '2026-11-02-08'],
    },
    {
      name: 'across midnight',
      window: ['2026-11-02T22:10:00Z', '2026-11-03T02:00:00Z'],
      settle: 0,
      done: '2026-11-02-22',
      want: ['2026-11-02-23', '2026-11-03-00', '2026-11-03-01'],
    },
  ];
  it.each(cases)('$name', ({ window, settle, done, want }) => {
    expect(settledHours({ from: window[0], to: window[1] }, settle, done)).toEqual(want);
  });
});

function rec(id: string, at: string, by: string | null, extra: Partial<Recreation> = {}): Recreation {
  return {
    namespace: 'kafka',
    kafkaCluster: 'orders',
    brokerId: '2',
    deletedPod: { name: `orders-2-${id}`, uid: `uid-${id}`, deletedAt: at, deletedBy: 'op' },
    createdPod: { name: `orders-2-${id}x`, uid: null, createdAt: at },
    classification: 'external-mutation-revert',
    fields: [{ path: 'spec.containers[name=kafka].resources.requests.cpu', from: '1', to: { m: 630 }, by }],
    wouldRestart: { threeWayMerge: true, intentDiff: false },
    evidence: ['a1'],
    ...extra,
  };
}

const loop: Loop = {
  namespace: 'kafka',
  kafkaCluster: 'orders',
  brokerId: '2',
  classification: 'external-mutation-revert',
  count: 3,
  firstAt: '2026-11-02T06:59:50Z',
  lastAt: '2026-11-02T07:00:06Z',
  periodSeconds: 8,
  fields: ['spec.containers[name=kafka].resources.requests.cpu'],
  mutators: ['rightsizer/pods.rightsizer.dev'],
  active: true,
  recommendation: 'exclude the pods',
};

const fight: Fight = {
  kind: 'field-fight',
  namespace: 'apps',
  target: { apiGroup: 'apps', resource: 'deployments', name: 'web' },
  writers: ['argocd', 'hpa'],
  mutators: [],
  fields: ['spec.replicas'],
  count: 5,
  firstAt: '2026-11-02T06:30:00Z',
  lastAt: '2026-11-02T07:10:00Z',
  periodSeconds: 60,
  active: false,
  recommendation: 'let one writer own the field',
  evidence: ['f1'],
};

describe('rowsForHour', () => {
  const findings = {
    recreations: [
      rec('a', '2026-11-02T06:59:50Z', 'rightsizer/pods.rightsizer.dev'),
      rec('b', '2026-11-02T06:59:58Z', 'rightsizer/pods.rightsizer.dev'),
      rec('c', '2026-11-02T07:00:06Z', 'rightsizer/pods.rightsizer.dev'),
      rec('d', '2026-11-02T07:30:00Z', null, {
        brokerId: '3',
        classification: 'intent-change',
        wouldRestart: null,
      }),
    ],
    loops: [loop],
    fights: [fight],
  };
  const ctx = (hour: string): HourContext => ({
    cluster: 'eks',
    hour,
    runAt: '2026-11-02T09:00:00Z',
    // The alert state remembers the loop from before the window.
    loopStartedAt: () => '2026-11-02T05:00:00Z',
  });

  it('splits a loop across the hours it re-created pods in, under one id', () => {
    const six = rowsForHour(findings, ctx('2026-11-02-06')).filter((r) => r.record_type === 'loop');
    const seven = rowsForHour(findings, ctx('2026-11-02-07')).filter((r) => r.record_type === 'loop');
    const id = loopId('eks', loop, '2026-11-02T05:00:00Z');
    expect(six).toMatchObject([
      { id, loop_id: id, cycles: 2, first_at: '2026-11-02T06:59:50Z', last_at: '2026-11-02T06:59:58Z' },
    ]);
    expect(seven).toMatchObject([{ id, loop_id: id, cycles: 1, loop_started_at: '2026-11-02T05:00:00Z' }]);
  });

  it.each([
    ['2026-11-02-06', ['recreation:uid-a', 'recreation:uid-b', 'loop', 'fight']],
    ['2026-11-02-07', ['recreation:uid-c', 'recreation:uid-d', 'loop', 'fight']],
    ['2026-11-02-08', []],
  ])('hour %s holds its recreations, its part of the loop, and the fight that overlaps it', (hour, want) => {
    const rows = rowsForHour(findings, ctx(hour));
    expect(rows.map((r) => (r.record_type === 'recreation' ? `recreation:${r.id}` : r.record_type))).toEqual(
      want,
    );
  });

  it('ties a recreation to its loop, keeps values as text, and leaves what does not apply null', () => {
    const [a] = rowsForHour(findings, ctx('2026-11-02-06'));
    expect(a).toMatchObject({
      record_type: 'recreation',
      loop_id: loopId('eks', loop, '2026-11-02T05:00:00Z'),
      changes: [
        {
          path: 'spec.containers[name=kafka].resources.requests.cpu',
          old_value: '1',
          new_value: '{"m":630}',
          set_by: 'rightsizer/pods.rightsizer.dev',
        },
      ],
      would_restart_three_way: true,
      cycles: null,
      fight_kind: null,
    });
    const d = rowsForHour(findings, ctx('2026-11-02-07')).find((r) => r.id === 'uid-d')!;
    expect(d).toMatchObject({
      loop_id: null,
      would_restart_intent: null,
      changes: [expect.objectContaining({ set_by: null })],
    });
  });

  it('encodes every column, in column order, and the same findings to the same bytes', () => {
    const rows = rowsForHour(findings, ctx('2026-11-02-06'));
    for (const r of rows)
      expect(Object.keys(JSON.parse(encodeRow(r)) as object)).toEqual(FINDINGS_COLUMNS.map((c) => c.name));
    const shuffled = { ...findings, recreations: [...findings.recreations].reverse() };
    expect(rowsForHour(shuffled, ctx('2026-11-02-06')).map(encodeRow)).toEqual(rows.map(encodeRow));
  });
});

describe('what the fix saves, per recreation row', () => {
  const hour = '2026-11-02-06';
  const ctx: HourContext = {
    cluster: 'eks',
    hour,
    runAt: '2026-11-02T09:00:00Z',
    loopStartedAt: (l) => l.firstAt,
    autoscalerUsers: ['system:serviceaccount:scaleops-system:scaleops-updater'],
  };
  const at = '2026-11-02T06:10:00Z';
  const succ = (createdAt: string, readyAt?: string) => ({
    name: 'orders-2-next',
    uid: null,
    createdAt,
    ...(readyAt ? { readyAt } : {}),
  });
  const cases: [
    string,
    Recreation,
    { fix_verdict: string; downtime_seconds: number | null; downtime_from: string | null },
  ][] = [
    [
      'a webhook revert the intent diff would not restart: avoidable, to Ready',
      rec('w', at, 'rightsizer/pods.rightsizer.dev', {
        createdPod: succ('2026-11-02T06:10:02Z', '2026-11-02T06:10:41.25Z'),
      }),
      { fix_verdict: 'avoidable', downtime_seconds: 41.25, downtime_from: 'ready' },
    ],
    [
      'a configured autoscaler’s write: avoidable, to create where no Ready is seen',
      rec('s', at, 'system:serviceaccount:scaleops-system:scaleops-updater', {
        createdPod: succ('2026-11-02T06:10:03.04Z'),
      }),
      { fix_verdict: 'avoidable', downtime_seconds: 3.04, downtime_from: 'create' },
    ],
    [
      'a person’s write the pre-fix operator reverted: reverted-tamper',
      rec('p', at, 'bob@corp.example', { createdPod: succ('2026-11-02T06:10:05Z') }),
      { fix_verdict: 'reverted-tamper', downtime_seconds: 5, downtime_from: 'create' },
    ],
    [
      'an intent change: other',
      rec('i', at, null, {
        classification: 'intent-change',
        wouldRestart: { threeWayMerge: true, intentDiff: true },
      }),
      { fix_verdict: 'other', downtime_seconds: 0, downtime_from: 'create' },
    ],
    [
      'no successor: no downtime',
      rec('n', at, 'rightsizer/pods.rightsizer.dev', { createdPod: null }),
      { fix_verdict: 'avoidable', downtime_seconds: null, downtime_from: null },
    ],
  ];
  it.each(cases)('%s', (_name, r, want) => {
    expect(rowsForHour({ recreations: [r], loops: [] }, ctx)[0]).toMatchObject(want);
  });

  it('summed over the rows, gives summary.fixImpact of the same recreations', () => {
    const recreations = cases.map(([, r]) => r);
    // Measured to Ready where one was seen, as the summary does once any Ready is in the logs.
    const rows = rowsForHour({ recreations, loops: [] }, ctx);
    const impact = fixImpactOf(recreations, ctx.autoscalerUsers);
    const sum = (pick: (r: (typeof rows)[number]) => boolean) =>
      Math.round(rows.filter(pick).reduce((n, r) => n + (r.downtime_seconds ?? 0), 0) * 10) / 10;
    expect(rows.filter((r) => r.fix_verdict === 'avoidable').length).toBe(impact.avoidableWithFix);
    expect(rows.filter((r) => r.fix_verdict === 'reverted-tamper').length).toBe(impact.revertedTampers);
    expect(sum(() => true)).toBe(impact.downtimeSeconds);
    expect(sum((r) => r.fix_verdict === 'avoidable')).toBe(impact.avoidableDowntimeSeconds);
  });
});

describe('drift rows', () => {
  const drift: Drift = {
    namespace: 'kafka',
    kafkaCluster: 'events',
    brokerId: '0',
    pod: { name: 'events-0-xklrp', uid: 'u-0' },
    at: '2026-12-01T21:59:13.512345Z',
    by: 'bob@corp.example',
    verb: 'patch',
    subresource: '',
    kind: 'image',
    fields: [{ path: 'spec.containers[name=kafka].image', declared: 'kafka:3.9.1', to: 'kafka:4.0.0' }],
    severity: 'tamper',
    ended: null,
    preFixWouldRevert: true,
    evidence: ['w1'],
  };
  const debug: Drift = {
    ...drift,
    pod: { name: 'events-1-n7l72', uid: null },
    brokerId: '1',
    at: '2026-12-01T22:00:09Z',
    verb: 'update',
    subresource: 'ephemeralcontainers',
    kind: 'ephemeral-container',
    fields: [
      { path: 'spec.ephemeralContainers[name=dbg]', declared: null, to: { name: 'dbg', image: 'busybox' } },
    ],
    ended: { at: '2026-12-01T22:03:00Z', how: 'pod-deleted' },
    preFixWouldRevert: false,
    evidence: ['w2', 'd2'],
  };
  const ctx = (hour: string): HourContext => ({
    cluster: 'eks',
    hour,
    runAt: '2026-12-01T23:30:00Z',
    loopStartedAt: (l) => l.firstAt,
  });

  it.each([
    ['2026-12-01-21', ['kafka/events-0-xklrp@2026-12-01T21:59:13.512345Z']],
    ['2026-12-01-22', ['kafka/events-1-n7l72@2026-12-01T22:00:09Z']],
    ['2026-12-01-23', []],
  ])('hour %s holds the drifts written in it', (hour, ids) => {
    const rows = rowsForHour({ recreations: [], loops: [], drifts: [debug, drift] }, ctx(hour));
    expect(rows.map((r) => `${r.record_type}:${r.id}`)).toEqual(ids.map((id) => `drift:${id}`));
  });

  it.each([
    [
      'a standing image swap',
      drift,
      '2026-12-01-21',
      {
        pod: 'events-0-xklrp',
        pod_uid: 'u-0',
        written_by: 'bob@corp.example',
        verb: 'patch',
        subresource: '',
        drift_kind: 'image',
        drift_severity: 'tamper',
        ended_at: null,
        ended_how: null,
        pre_fix_would_revert: true,
        event_time: drift.at,
        evidence: ['w1'],
      },
    ],
    [
      'a debug container since deleted',
      debug,
      '2026-12-01-22',
      {
        pod_uid: null,
        subresource: 'ephemeralcontainers',
        drift_kind: 'ephemeral-container',
        ended_at: '2026-12-01T22:03:00Z',
        ended_how: 'pod-deleted',
        pre_fix_would_revert: false,
      },
    ],
  ])('%s: its columns, fields as JSON, recreation columns null', (_name, d, hour, want) => {
    const [row] = rowsForHour({ recreations: [], loops: [], drifts: [d] }, ctx(hour));
    expect(row).toMatchObject({
      ...want,
      namespace: 'kafka',
      kafka_cluster: 'events',
      broker_id: d.brokerId,
    });
    expect(JSON.parse(row!.drift_fields!)).toEqual(d.fields);
    expect(row).toMatchObject({ deleted_pod: null, changes: null, fix_verdict: null, classification: null });
    expect(Object.keys(JSON.parse(encodeRow(row!)) as object)).toEqual(FINDINGS_COLUMNS.map((c) => c.name));
  });
});
