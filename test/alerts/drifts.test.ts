// Drifts are announced like single recreations (lib/alerts/diff.ts): once per drift, only
// the configured severities, nothing twice across runs, a first run over old logs leaving
// drifts already over to the report, and the state pruned as the window slides.
import { diffAlerts, emptyAlertState } from '../../lib/alerts/diff';
import { defaultAlertOptions } from '../../lib/alerts/options';
import { decodeAlertState, encodeAlertState } from '../../lib/alerts/state';
import type { AlertOptions, AlertState, DriftAlert } from '../../lib/alerts/types';
import type { Drift, DriftSeverity } from '../../lib/model/findings';

const T0 = Date.parse('2026-12-01T22:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function drift(pod: string, atMs: number, severity: DriftSeverity, ended: Drift['ended'] = null): Drift {
  return {
    namespace: 'kafka',
    kafkaCluster: 'events',
    brokerId: pod.split('-')[1] ?? '0',
    pod: { name: pod, uid: null },
    at: iso(atMs),
    by: 'bob@corp.example',
    verb: 'patch',
    subresource: '',
    kind: severity === 'tamper' ? 'image' : severity === 'autoscaler' ? 'resources' : 'metadata',
    fields: [{ path: 'spec.containers[name=kafka].image', declared: 'kafka:3.9.1', to: 'kafka:4.0.0' }],
    severity,
    ended,
    preFixWouldRevert: true,
    evidence: [`a-${pod}`],
  };
}

/** A state a run wrote earlier: the deployment was watching (not a first run). */
const watched = (): AlertState => ({ ...emptyAlertState('prod'), updatedAt: iso(T0 - 3600_000) });

function run(prev: AlertState | null, drifts: Drift[], nowMs: number, options: Partial<AlertOptions> = {}) {
  return diffAlerts(
    prev,
    { recreations: [], loops: [], drifts },
    {
      cluster: 'prod',
      now: new Date(nowMs),
      windowStart: new Date(nowMs - 3 * 3600_000),
      options: { ...defaultAlertOptions(), ...options },
    },
  );
}

const announced = (events: readonly { kind: string }[]): string[] =>
  events.filter((e): e is DriftAlert => e.kind === 'drift').map((e) => e.drift.pod.name);

describe('drift alerts', () => {
  const standing = drift('events-0-a', T0, 'tamper');
  const over = drift('events-1-b', T0 + 60_000, 'tamper', { at: iso(T0 + 90_000), how: 'pod-deleted' });
  const resize = drift('events-2-c', T0 + 120_000, 'autoscaler');
  const label = drift('events-3-d', T0 + 180_000, 'change');

  it.each([
    ['first run: standing tampers only', null, {}, ['events-0-a']],
    ['a watched cluster: every tamper, standing or over', 'watched', {}, ['events-0-a', 'events-1-b']],
    [
      'severities configured: tamper and change',
      'watched',
      { driftSeverities: ['tamper', 'change'] as DriftSeverity[] },
      ['events-0-a', 'events-1-b', 'events-3-d'],
    ],
    ['severities none', 'watched', { driftSeverities: [] }, []],
  ] as const)('%s', (_name, prev, options, expected) => {
    const r = run(prev ? watched() : null, [standing, over, resize, label], T0 + 600_000, options);
    expect(announced(r.events)).toEqual(expected);
    for (const e of r.events) expect(e.event).toBe('drift-detected');
    // Nothing twice: the same findings again announce nothing.
    expect(run(r.next, [standing, over, resize, label], T0 + 660_000, options).events).toEqual([]);
  });

  it('a drift announced standing is not announced again once it ended', () => {
    const first = run(watched(), [standing], T0 + 60_000);
    expect(announced(first.events)).toEqual(['events-0-a']);
    const ended = { ...standing, ended: { at: iso(T0 + 120_000), how: 'reverted' as const } };
    const next = run(decodeAlertState(encodeAlertState(first.next), 'prod'), [ended], T0 + 180_000);
    expect(next.events).toEqual([]);
  });

  it('a drift over before the first run is remembered, so no later run announces it', () => {
    const first = run(null, [over], T0 + 600_000);
    expect(first.events).toEqual([]);
    expect(first.next.drifts?.map((d) => d.at)).toEqual([over.at]);
    expect(run(first.next, [over], T0 + 660_000).events).toEqual([]);
  });

  it('ids are stable across runs and differ between drifts', () => {
    const a = run(watched(), [standing, over], T0 + 600_000).events.map((e) => e.id);
    const b = run(watched(), [standing, over], T0 + 700_000).events.map((e) => e.id);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(2);
  });

  it('the state forgets drifts that left the window', () => {
    const first = run(watched(), [standing, over], T0 + 600_000);
    expect(first.next.drifts).toHaveLength(2);
    // Three hours later the window starts after both.
    const later = run(first.next, [], T0 + 3 * 3600_000 + 120_000);
    expect(later.next.drifts).toEqual([]);
  });

  it('reads a state written before drifts were announced (no `drifts` key), and writes none until a drift', () => {
    const old = { ...watched() } as Record<string, unknown>;
    delete old.drifts;
    const state = decodeAlertState(JSON.stringify(old), 'prod');
    expect(run(state, [], T0 + 600_000).next).not.toHaveProperty('drifts');
    const r = run(state, [standing], T0 + 600_000);
    expect(announced(r.events)).toEqual(['events-0-a']);
    expect(r.next.drifts).toEqual([{ key: 'kafka/events-0-a@' + standing.at, at: standing.at }]);
  });
});
