// Fights are announced like loops (lib/alerts/diff.ts): started once, escalated when their count
// grows by the escalation factor, ended when no longer active or gone, started again when one
// announced over resumes, and nothing twice for the same findings.
import { diffAlerts, emptyAlertState, type Findings } from '../../lib/alerts/diff';
import { defaultAlertOptions } from '../../lib/alerts/options';
import { decodeAlertState, encodeAlertState } from '../../lib/alerts/state';
import type { AlertEvent, AlertState } from '../../lib/alerts/types';
import type { Fight } from '../../lib/model/findings';

const T0 = Date.parse('2026-11-09T14:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function fight(firstMs: number, count: number, active: boolean, periodSeconds = 10): Fight {
  return {
    kind: 'field-fight',
    namespace: 'checkout',
    target: { apiGroup: 'apps', resource: 'deployments', name: 'checkout-api' },
    writers: [
      'system:serviceaccount:argocd:argocd-application-controller',
      'system:serviceaccount:kube-system:horizontal-pod-autoscaler',
    ],
    mutators: [],
    fields: ['spec.replicas'],
    count,
    firstAt: iso(firstMs),
    lastAt: iso(firstMs + (count - 1) * periodSeconds * 1000),
    periodSeconds,
    active,
    recommendation: 'let the HPA own spec.replicas',
    evidence: ['a'],
  };
}

const findings = (fights: Fight[]): Findings => ({ recreations: [], loops: [], fights });

function run(prev: AlertState | null, fights: Fight[], nowMs: number) {
  return diffAlerts(prev, findings(fights), {
    cluster: 'prod',
    now: new Date(nowMs),
    windowStart: new Date(nowMs - 3 * 3600_000),
    options: defaultAlertOptions(),
  });
}

const names = (events: AlertEvent[]) => events.map((e) => e.event);

describe('fight alerts', () => {
  it('start, stay quiet on the same findings, escalate, end, and survive the state codec', () => {
    const first = run(null, [fight(T0, 5, true)], T0 + 60_000);
    expect(names(first.events)).toEqual(['fight-started']);
    const again = run(
      decodeAlertState(encodeAlertState(first.next), 'prod'),
      [fight(T0, 5, true)],
      T0 + 61_000,
    );
    expect(again.events).toEqual([]);
    const factor = defaultAlertOptions().escalationFactor;
    const grown = run(again.next, [fight(T0, Math.ceil(5 * factor), true)], T0 + 600_000);
    expect(names(grown.events)).toEqual(['fight-escalated']);
    const over = run(grown.next, [fight(T0, Math.ceil(5 * factor), false)], T0 + 900_000);
    expect(names(over.events)).toEqual(['fight-ended']);
    expect(run(over.next, [fight(T0, Math.ceil(5 * factor), false)], T0 + 901_000).events).toEqual([]);
  });

  it.each([
    ['on the first run over old logs: history, for the report only', null, []],
    [
      'on a later run (a backfill, a late log): both news and over',
      'written',
      ['fight-started', 'fight-ended'],
    ],
  ])('a fight first seen over, %s', (_name, prev, expected) => {
    const state = prev ? { ...emptyAlertState('prod'), updatedAt: new Date(T0).toISOString() } : null;
    const r = run(state, [fight(T0, 8, false)], T0 + 3600_000);
    expect(names(r.events)).toEqual(expected);
    // Remembered as over either way, so no later run announces it.
    expect(r.next.fights?.map((f) => f.ended)).toEqual([true]);
    expect(run(r.next, [fight(T0, 8, false)], T0 + 3700_000).events).toEqual([]);
  });

  it('a fight gone from the findings is announced over; one that resumes within the gap starts again', () => {
    const started = run(null, [fight(T0, 6, true)], T0 + 60_000);
    const gone = run(started.next, [], T0 + 120_000);
    expect(names(gone.events)).toEqual(['fight-ended']);
    const resumed = run(gone.next, [fight(T0, 12, true)], T0 + 180_000);
    expect(names(resumed.events)).toEqual(['fight-started']);
    // Every announcement of one fight shares its thread.
    const threads = new Set(
      [...started.events, ...gone.events, ...resumed.events].map((e) =>
        e.kind === 'fight' ? e.threadId : '',
      ),
    );
    expect(threads.size).toBe(1);
  });

  it('a state written before fights were announced reads as no fight known', () => {
    const old = { ...emptyAlertState('prod') };
    delete (old as Partial<AlertState>).fights;
    const r = run(decodeAlertState(JSON.stringify(old), 'prod'), [fight(T0, 4, true)], T0 + 60_000);
    expect(names(r.events)).toEqual(['fight-started']);
    expect(r.next.fights?.length).toBe(1);
  });

  it('ids differ per event and repeat for the same event of the same fight', () => {
    const written = { ...emptyAlertState('prod'), updatedAt: new Date(T0).toISOString() };
    const a = run(written, [fight(T0, 8, false)], T0 + 3600_000).events.map((e) => e.id);
    const b = run(written, [fight(T0, 8, false)], T0 + 3600_000).events.map((e) => e.id);
    expect(a).toHaveLength(2);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
  });
});
