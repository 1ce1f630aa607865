import {
  diffAlerts,
  emptyAlertState,
  recreationKey,
  sameAlertState,
  type Findings,
} from '../../lib/alerts/diff';
import { defaultAlertOptions } from '../../lib/alerts/options';
import { decodeAlertState, encodeAlertState } from '../../lib/alerts/state';
import type { AlertOptions, AlertState } from '../../lib/alerts/types';
import type { Classification, Loop, Recreation } from '../../lib/model/findings';

// Hand-built findings: a broker's recreations every 10 s from a start time, and the loop
// the analysis would report over them.
const T0 = Date.parse('2026-11-02T10:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function rec(
  broker: string,
  atMs: number,
  cls: Classification = 'external-mutation-revert',
  uid: string | null = `uid-${broker}-${atMs}`,
): Recreation {
  return {
    namespace: 'kafka',
    kafkaCluster: 'orders',
    brokerId: broker,
    deletedPod: {
      name: `orders-${broker}-${atMs}`,
      uid,
      deletedAt: iso(atMs),
      deletedBy: 'system:serviceaccount:kafka:kafka-operator',
    },
    createdPod: { name: `orders-${broker}-${atMs + 1}`, uid: null, createdAt: iso(atMs + 1000) },
    classification: cls,
    fields: [
      {
        path: 'spec.containers[name=kafka].resources.requests.cpu',
        from: '1',
        to: '500m',
        by: 'scaleops/pods.scaleops.sh',
      },
    ],
    wouldRestart: { threeWayMerge: true, intentDiff: false },
    evidence: [],
  };
}

function series(broker: string, startMs: number, n: number, stepMs = 10_000): Recreation[] {
  return Array.from({ length: n }, (_, i) => rec(broker, startMs + i * stepMs));
}

function loopOf(recs: Recreation[], active: boolean): Loop {
  const first = recs[0]!;
  return {
    namespace: first.namespace,
    kafkaCluster: first.kafkaCluster,
    brokerId: first.brokerId,
    classification: first.classification,
    count: recs.length,
    firstAt: first.deletedPod.deletedAt,
    lastAt: recs[recs.length - 1]!.deletedPod.deletedAt,
    periodSeconds: 10,
    fields: ['spec.containers[name=kafka].resources.requests.cpu'],
    mutators: ['scaleops/pods.scaleops.sh'],
    active,
    recommendation: 'exclude the broker pods from the webhook',
  };
}

const opts = (o: Partial<AlertOptions> = {}): AlertOptions => ({ ...defaultAlertOptions(), ...o });

function run(prev: AlertState | null, findings: Findings, nowMs: number, o: Partial<AlertOptions> = {}) {
  return diffAlerts(prev, findings, {
    cluster: 'eks-a',
    now: new Date(nowMs),
    windowStart: new Date(nowMs - 6 * 3600_000),
    options: opts(o),
  });
}

const names = (r: { events: { event: string }[] }): string[] => r.events.map((e) => e.event);

describe('diffAlerts: loops', () => {
  const three = series('1', T0, 3);
  const six = series('1', T0, 6);

  // A state some earlier run wrote (the deployment's first run gets emptyAlertState instead).
  const written = (): AlertState => ({ ...emptyAlertState('eks-a'), updatedAt: iso(T0 - 3600_000) });

  it.each([
    ['an active loop first seen', null, [loopOf(three, true)], ['loop-started']],
    ['an active loop first seen on a later run', 'written', [loopOf(three, true)], ['loop-started']],
    // The first run over old logs: a loop long over is the report's, not an alert.
    ['a loop that ended before the first run', null, [loopOf(three, false)], []],
    ['a loop that ended before the first run (deployed: empty state)', 'empty', [loopOf(three, false)], []],
    [
      'a loop first seen after it stopped on a later run (backfill)',
      'written',
      [loopOf(three, false)],
      ['loop-started', 'loop-ended'],
    ],
    ['no loop: each recreation on its own', null, [], ['recreation', 'recreation', 'recreation']],
  ])('%s announces %j', (_name, prev, loops, expected) => {
    const state = prev === 'written' ? written() : prev === 'empty' ? emptyAlertState('eks-a') : null;
    const out = run(state, { recreations: three, loops }, T0 + 60_000);
    expect(names(out)).toEqual(expected);
    // Whatever was (not) announced, a loop is remembered, ended when over: never announced twice.
    expect(out.next.loops.map((l) => l.ended)).toEqual(loops.map((l) => !l.active));
  });

  it('announces nothing when the same findings are diffed twice', () => {
    const findings = { recreations: six, loops: [loopOf(six, true)] };
    const first = run(null, findings, T0 + 60_000);
    const second = run(first.next, findings, T0 + 60_000);
    expect(names(first)).toEqual(['loop-started']);
    expect(second.events).toEqual([]);
    expect(sameAlertState(first.next, second.next)).toBe(true);
  });

  it.each([
    // count last announced → count now, factor → escalated?
    [3, 5, 2, false],
    [3, 6, 2, true],
    [3, 9, 3, true],
    [4, 11, 3, false],
  ])('escalates from %i to %i recreations with factor %i: %s', (before, after, factor, escalated) => {
    const a = series('1', T0, before);
    const b = series('1', T0, after);
    const first = run(null, { recreations: a, loops: [loopOf(a, true)] }, T0 + 60_000, {
      escalationFactor: factor,
    });
    const second = run(first.next, { recreations: b, loops: [loopOf(b, true)] }, T0 + 200_000, {
      escalationFactor: factor,
    });
    expect(names(second)).toEqual(escalated ? ['loop-escalated'] : []);
  });

  it('escalates again only after the count doubles from the last escalation', () => {
    const counts = [3, 6, 8, 12, 13];
    let state: AlertState | null = null;
    const seen: string[][] = [];
    for (const n of counts) {
      const r = series('1', T0, n);
      const out = run(state, { recreations: r, loops: [loopOf(r, true)] }, T0 + 300_000);
      seen.push(names(out));
      state = out.next;
    }
    expect(seen).toEqual([['loop-started'], ['loop-escalated'], [], ['loop-escalated'], []]);
    expect(state!.loops[0]!.alertedCount).toBe(12);
  });

  it('announces the end once, when the finding turns inactive', () => {
    const r = series('1', T0, 4);
    const first = run(null, { recreations: r, loops: [loopOf(r, true)] }, T0 + 60_000);
    const ended = run(first.next, { recreations: r, loops: [loopOf(r, false)] }, T0 + 600_000);
    const again = run(ended.next, { recreations: r, loops: [loopOf(r, false)] }, T0 + 900_000);
    expect(names(ended)).toEqual(['loop-ended']);
    expect(again.events).toEqual([]);
  });

  it('announces the end when the loop disappears from the findings, then forgets it once out of the window', () => {
    const r = series('1', T0, 4);
    const first = run(null, { recreations: r, loops: [loopOf(r, true)] }, T0 + 60_000);
    const gone = run(first.next, { recreations: [], loops: [] }, T0 + 3600_000);
    expect(names(gone)).toEqual(['loop-ended']);
    expect(gone.next.loops).toHaveLength(1);
    const later = run(gone.next, { recreations: [], loops: [] }, T0 + 7 * 3600_000);
    expect(later.events).toEqual([]);
    expect(later.next.loops).toHaveLength(0);
  });

  it('announces a resumed loop (within the loop gap) as started again', () => {
    const a = series('1', T0, 4);
    const b = [...a, ...series('1', T0 + 300_000, 2)];
    const first = run(written(), { recreations: a, loops: [loopOf(a, false)] }, T0 + 60_000);
    const resumed = run(first.next, { recreations: b, loops: [loopOf(b, true)] }, T0 + 320_000);
    expect(names(first)).toEqual(['loop-started', 'loop-ended']);
    expect(names(resumed)).toEqual(['loop-started']);
  });

  it('treats a loop after a gap longer than the loop gap as a new loop', () => {
    const a = series('1', T0, 3);
    const b = series('1', T0 + 3600_000, 3);
    const first = run(null, { recreations: a, loops: [loopOf(a, false)] }, T0 + 60_000);
    const second = run(
      first.next,
      { recreations: [...a, ...b], loops: [loopOf(a, false), loopOf(b, true)] },
      T0 + 3700_000,
    );
    expect(names(second)).toEqual(['loop-started']);
    expect(second.next.loops).toHaveLength(2);
  });

  it('keeps counting a long loop across runs after the window slid past its start', () => {
    // Window holds 6 recreations only; the loop has had 12 by the second run.
    const all = series('1', T0, 12);
    const firstHalf = all.slice(0, 6);
    const secondView = all.slice(6);
    const first = run(null, { recreations: firstHalf, loops: [loopOf(firstHalf, true)] }, T0 + 60_000);
    const second = run(
      first.next,
      { recreations: secondView, loops: [loopOf(secondView, true)] },
      T0 + 120_000,
    );
    expect(names(second)).toEqual(['loop-escalated']);
    const ev = second.events[0]!;
    expect(ev.kind === 'loop' && ev.totalCount).toBe(12);
  });

  it('gives started and ended stable ids, and an escalation one id per count', () => {
    const r = series('1', T0, 3);
    const a = run(written(), { recreations: r, loops: [loopOf(r, false)] }, T0 + 60_000);
    const b = run(written(), { recreations: r, loops: [loopOf(r, false)] }, T0 + 90_000);
    expect(a.events.map((e) => e.id)).toEqual(b.events.map((e) => e.id));
    expect(new Set(a.events.map((e) => e.id)).size).toBe(2);
  });

  it('attaches the newest recreation of the loop for its from → to values', () => {
    const r = series('1', T0, 3);
    const out = run(null, { recreations: r, loops: [loopOf(r, true)] }, T0 + 60_000);
    const ev = out.events[0]!;
    expect(ev.kind === 'loop' && ev.latest?.deletedPod.deletedAt).toBe(r[2]!.deletedPod.deletedAt);
  });
});

describe('diffAlerts: recreations', () => {
  it.each<[string, Classification[], boolean, Recreation[], Loop[], number]>([
    ['default classes, lone revert', ['external-mutation-revert', 'unknown'], false, [rec('2', T0)], [], 1],
    [
      'class not chosen',
      ['external-mutation-revert', 'unknown'],
      false,
      [rec('2', T0, 'intent-change')],
      [],
      0,
    ],
    [
      'unknown is chosen by default',
      ['external-mutation-revert', 'unknown'],
      false,
      [rec('2', T0, 'unknown')],
      [],
      1,
    ],
    [
      'loop members stay quiet',
      ['external-mutation-revert'],
      false,
      series('3', T0, 3),
      [loopOf(series('3', T0, 3), true)],
      0,
    ],
    [
      'loop members on request',
      ['external-mutation-revert'],
      true,
      series('3', T0, 3),
      [loopOf(series('3', T0, 3), true)],
      3,
    ],
    ['no classes chosen', [], false, [rec('2', T0)], [], 0],
  ])('%s', (_name, classes, members, recreations, loops, expected) => {
    const out = run(null, { recreations, loops }, T0 + 60_000, {
      recreationClasses: classes,
      alertLoopMembers: members,
    });
    expect(out.events.filter((e) => e.kind === 'recreation')).toHaveLength(expected);
  });

  it('announces each recreation once across runs, keyed on uid, else name and time', () => {
    const withUid = rec('2', T0);
    const noUid = rec('4', T0 + 5000, 'unknown', null);
    expect(recreationKey(noUid)).toBe(`kafka/${noUid.deletedPod.name}@${noUid.deletedPod.deletedAt}`);
    const first = run(null, { recreations: [withUid, noUid], loops: [] }, T0 + 60_000);
    const second = run(
      first.next,
      { recreations: [withUid, noUid, rec('2', T0 + 90_000)], loops: [] },
      T0 + 120_000,
    );
    expect(first.events).toHaveLength(2);
    expect(second.events).toHaveLength(1);
  });

  it('forgets recreations older than the window so the state stays small', () => {
    const first = run(null, { recreations: [rec('2', T0)], loops: [] }, T0 + 60_000);
    expect(first.next.recreations).toHaveLength(1);
    const later = run(first.next, { recreations: [], loops: [] }, T0 + 7 * 3600_000);
    expect(later.next.recreations).toHaveLength(0);
  });
});

describe('alert state codec', () => {
  it('round-trips, and refuses a state of another version or cluster rather than starting empty', () => {
    const r = series('1', T0, 3);
    const { next } = run(null, { recreations: r, loops: [loopOf(r, true)] }, T0 + 60_000);
    expect(decodeAlertState(encodeAlertState(next), 'eks-a')).toEqual(next);
    expect(decodeAlertState(null, 'eks-a')).toEqual(emptyAlertState('eks-a'));
    expect(() => decodeAlertState(JSON.stringify({ ...next, version: 2 }), 'eks-a')).toThrow(/version 2/);
    expect(() => decodeAlertState(encodeAlertState(next), 'eks-b')).toThrow(/belongs to cluster eks-a/);
    expect(() => decodeAlertState('{', 'eks-a')).toThrow(/not JSON/);
  });
});
