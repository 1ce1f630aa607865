// The heart of "exactly once": given what was announced before (AlertState) and what the
// analysis of the current window finds, decide what is new. Pure: the same inputs give
// the same events and the same next state, so two runs over the same data announce
// nothing the second time.
import { createHash } from 'crypto';
import type { Drift, Fight, Loop, Recreation } from '../model/findings';
import { fightKey } from '../fights/key';
import { driftKey } from '../drift/key';
import {
  ALERT_STATE_VERSION,
  type AlertEvent,
  type AlertOptions,
  type AlertState,
  type DriftAlert,
  type FightAlert,
  type FightEventName,
  type FightState,
  type LoopAlert,
  type LoopEventName,
  type LoopState,
  type RecreationAlert,
} from './types';

export interface DiffContext {
  cluster: string;
  /** The run's time (the scheduled event's time). */
  now: Date;
  /** Start of the look-back window: state about anything older is forgotten. */
  windowStart: Date;
  options: AlertOptions;
}

export interface Findings {
  recreations: readonly Recreation[];
  loops: readonly Loop[];
  fights?: readonly Fight[];
  drifts?: readonly Drift[];
}

export function emptyAlertState(cluster: string): AlertState {
  return {
    version: ALERT_STATE_VERSION,
    cluster,
    updatedAt: new Date(0).toISOString(),
    loops: [],
    recreations: [],
    pending: [],
  };
}

export function brokerKey(x: { namespace: string; kafkaCluster: string; brokerId: string }): string {
  return `${x.namespace}/${x.kafkaCluster}/${x.brokerId}`;
}

/** A recreation's identity across runs: the deleted pod's uid, else its name and deletion time. */
export function recreationKey(r: Recreation): string {
  return r.deletedPod.uid ?? `${r.namespace}/${r.deletedPod.name}@${r.deletedPod.deletedAt}`;
}

function ms(at: string): number {
  const t = Date.parse(at);
  return Number.isNaN(t) ? 0 : t;
}

function digest(parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** A loop's thread: from its first sighting, kept in the state so it never changes. */
function threadOf(cluster: string, st: LoopState): string {
  return st.threadId ?? `koperator-audit-${digest([cluster, 'thread', st.broker, st.firstAt])}`;
}

/** Whether a finding continues a remembered loop: same broker, and no gap longer than the loop gap between them. */
function continues(st: LoopState, cur: Loop, maxGapMs: number): boolean {
  return (
    st.broker === brokerKey(cur) &&
    ms(cur.firstAt) <= ms(st.lastAt) + maxGapMs &&
    ms(cur.lastAt) >= ms(st.firstAt)
  );
}

function inLoop(r: Recreation, loops: readonly Loop[]): boolean {
  const t = ms(r.deletedPod.deletedAt);
  return loops.some((l) => brokerKey(l) === brokerKey(r) && t >= ms(l.firstAt) && t <= ms(l.lastAt));
}

function latestOf(loop: Loop, recreations: readonly Recreation[]): Recreation | null {
  let best: Recreation | null = null;
  for (const r of recreations) {
    if (brokerKey(r) !== brokerKey(loop) || ms(r.deletedPod.deletedAt) > ms(loop.lastAt)) continue;
    if (!best || ms(r.deletedPod.deletedAt) > ms(best.deletedPod.deletedAt)) best = r;
  }
  return best;
}

export function diffAlerts(
  prev: AlertState | null,
  current: Findings,
  ctx: DiffContext,
): { events: AlertEvent[]; next: AlertState } {
  const { cluster, options } = ctx;
  const maxGapMs = options.loopMaxGapSeconds * 1000;
  const windowStartMs = ctx.windowStart.getTime();
  const first = isFirstRun(prev);
  const prevLoops = (prev?.loops ?? []).map((l) => ({ ...l }));
  const matched = new Set<LoopState>();
  const loopEvents: LoopAlert[] = [];
  const nextLoops: LoopState[] = [];

  const announce = (event: LoopEventName, st: LoopState, loop: Loop): void => {
    loopEvents.push({
      kind: 'loop',
      event,
      // Started/ended are once per loop (its first deletion identifies it); an escalation
      // once per count it reached.
      id: digest([cluster, event, st.broker, st.firstAt, event === 'loop-escalated' ? st.totalCount : 0]),
      cluster,
      threadId: threadOf(cluster, st),
      loop,
      totalCount: st.totalCount,
      latest: latestOf(loop, current.recreations),
    });
  };

  const loops = [...current.loops].sort(
    (a, b) => ms(a.firstAt) - ms(b.firstAt) || brokerKey(a).localeCompare(brokerKey(b)),
  );
  for (const cur of loops) {
    // The latest remembered loop of this broker that this finding continues.
    const candidates = prevLoops.filter((st) => !matched.has(st) && continues(st, cur, maxGapMs));
    const st = candidates.sort((a, b) => ms(b.lastAt) - ms(a.lastAt))[0];
    if (!st) {
      const fresh: LoopState = {
        broker: brokerKey(cur),
        threadId: `koperator-audit-${digest([cluster, 'thread', brokerKey(cur), cur.firstAt])}`,
        firstAt: cur.firstAt,
        lastAt: cur.lastAt,
        totalCount: cur.count,
        alertedCount: cur.count,
        ended: false,
        loop: cur,
      };
      // A loop first seen after it stopped (a backfill, a late log) is both news and over;
      // on the first run over old logs it is history, for the report and not for an alert
      // (remembered as ended, so it is never announced later either).
      if (!cur.active && first) fresh.ended = true;
      else {
        announce('loop-started', fresh, cur);
        if (!cur.active) {
          fresh.ended = true;
          announce('loop-ended', fresh, cur);
        }
      }
      nextLoops.push(fresh);
      continue;
    }
    matched.add(st);
    // Count what happened after the remembered last deletion instead of trusting
    // cur.count, which shrinks once the window slides past the loop's start.
    const newSince = current.recreations.filter(
      (r) =>
        brokerKey(r) === st.broker &&
        ms(r.deletedPod.deletedAt) > ms(st.lastAt) &&
        ms(r.deletedPod.deletedAt) <= ms(cur.lastAt),
    ).length;
    const updated: LoopState = {
      ...st,
      threadId: threadOf(cluster, st),
      firstAt: ms(cur.firstAt) < ms(st.firstAt) ? cur.firstAt : st.firstAt,
      lastAt: ms(cur.lastAt) > ms(st.lastAt) ? cur.lastAt : st.lastAt,
      totalCount: Math.max(st.totalCount + newSince, cur.count),
      loop: cur,
    };
    if (updated.ended) {
      if (cur.active && ms(cur.lastAt) > ms(st.lastAt)) {
        // Announced as over, then deletions resumed within the loop gap: news again.
        updated.ended = false;
        updated.alertedCount = updated.totalCount;
        announce('loop-started', updated, cur);
      }
    } else {
      if (updated.totalCount >= updated.alertedCount * options.escalationFactor) {
        updated.alertedCount = updated.totalCount;
        announce('loop-escalated', updated, cur);
      }
      if (!cur.active) {
        updated.ended = true;
        announce('loop-ended', updated, cur);
      }
    }
    nextLoops.push(updated);
  }

  for (const st of prevLoops) {
    if (matched.has(st)) continue;
    let kept = st;
    if (!st.ended) {
      // The loop is gone from the findings (aged out of the window, or no longer a loop):
      // whoever was told it started must be told it is over.
      kept = { ...st, ended: true, loop: { ...st.loop, active: false } };
      announce('loop-ended', kept, kept.loop);
    }
    // Forget loops that left the window: no finding can continue them any more.
    if (ms(kept.lastAt) >= windowStartMs) nextLoops.push(kept);
  }

  // Recreations: each considered once; loop members stay quiet unless asked for.
  const classes = new Set(options.recreationClasses);
  const seen = new Map((prev?.recreations ?? []).map((r) => [r.key, r.deletedAt]));
  const recEvents: RecreationAlert[] = [];
  const recs = [...current.recreations].sort(
    (a, b) => ms(a.deletedPod.deletedAt) - ms(b.deletedPod.deletedAt),
  );
  for (const r of recs) {
    if (!classes.has(r.classification)) continue;
    const key = recreationKey(r);
    if (seen.has(key)) continue;
    seen.set(key, r.deletedPod.deletedAt);
    if (!options.alertLoopMembers && inLoop(r, current.loops)) continue;
    recEvents.push({
      kind: 'recreation',
      event: 'recreation',
      id: digest([cluster, 'recreation', key]),
      cluster,
      recreation: r,
    });
  }
  const nextRecs = [...seen.entries()]
    .filter(([, at]) => ms(at) >= windowStartMs)
    .map(([key, deletedAt]) => ({ key, deletedAt }))
    .sort((a, b) => ms(a.deletedAt) - ms(b.deletedAt) || a.key.localeCompare(b.key));

  nextLoops.sort((a, b) => ms(a.firstAt) - ms(b.firstAt) || a.broker.localeCompare(b.broker));
  const fights = diffFights(prev?.fights ?? [], current.fights ?? [], ctx, first);
  const drifts = diffDrifts(prev?.drifts ?? [], current.drifts ?? [], ctx, first);
  return {
    events: [...loopEvents, ...fights.events, ...recEvents, ...drifts.events],
    next: {
      version: ALERT_STATE_VERSION,
      cluster,
      updatedAt: ctx.now.toISOString(),
      loops: nextLoops,
      ...(fights.next.length > 0 || prev?.fights ? { fights: fights.next } : {}),
      recreations: nextRecs,
      ...(drifts.next.length > 0 || prev?.drifts ? { drifts: drifts.next } : {}),
      pending: prev?.pending ?? [],
    },
  };
}

/**
 * The first analysis of a cluster: no state yet (the deployment passes emptyAlertState,
 * whose updatedAt is the epoch; every state written carries its run's time).
 */
export function isFirstRun(prev: AlertState | null): boolean {
  return prev === null || Date.parse(prev.updatedAt) === 0;
}

/** Whether two states differ in anything but who wrote them when: an unchanged state is not rewritten. */
export function sameAlertState(a: AlertState, b: AlertState): boolean {
  return (
    JSON.stringify({ ...a, updatedAt: '', writtenBy: '' }) ===
    JSON.stringify({ ...b, updatedAt: '', writtenBy: '' })
  );
}

/**
 * Fights announced like loops: started once (and ended at once when first seen over),
 * escalated when the count grows by the escalation factor, ended when no longer active or
 * gone from the findings, started again when a fight announced over resumes within the gap.
 * A fight's cycles are not listed one by one, so once the window slides past its start the
 * count since the last run is estimated from the time elapsed and the period.
 */
function diffFights(
  prev: readonly FightState[],
  current: readonly Fight[],
  ctx: DiffContext,
  firstRun: boolean,
): { events: FightAlert[]; next: FightState[] } {
  const { cluster, options } = ctx;
  const maxGapMs = options.loopMaxGapSeconds * 1000;
  const events: FightAlert[] = [];
  const next: FightState[] = [];
  const matched = new Set<FightState>();
  const announce = (event: FightEventName, st: FightState, fight: Fight): void => {
    events.push({
      kind: 'fight',
      event,
      id: digest([cluster, event, st.key, st.firstAt, event === 'fight-escalated' ? st.totalCount : 0]),
      cluster,
      threadId: st.threadId,
      fight,
      totalCount: st.totalCount,
    });
  };
  const sorted = [...current].sort(
    (a, b) => ms(a.firstAt) - ms(b.firstAt) || fightKey(a).localeCompare(fightKey(b)),
  );
  for (const cur of sorted) {
    const key = fightKey(cur);
    const st = prev
      .filter(
        (p) =>
          !matched.has(p) &&
          p.key === key &&
          ms(cur.firstAt) <= ms(p.lastAt) + maxGapMs &&
          ms(cur.lastAt) >= ms(p.firstAt),
      )
      .sort((a, b) => ms(b.lastAt) - ms(a.lastAt))[0];
    if (!st) {
      const fresh: FightState = {
        key,
        threadId: `koperator-audit-${digest([cluster, 'fight-thread', key, cur.firstAt])}`,
        firstAt: cur.firstAt,
        lastAt: cur.lastAt,
        totalCount: cur.count,
        alertedCount: cur.count,
        ended: false,
        fight: cur,
      };
      // As for loops: a fight over before the first run is the report's, not an alert's.
      if (!cur.active && firstRun) fresh.ended = true;
      else {
        announce('fight-started', fresh, cur);
        if (!cur.active) {
          fresh.ended = true;
          announce('fight-ended', fresh, cur);
        }
      }
      next.push(fresh);
      continue;
    }
    matched.add(st);
    const later = ms(cur.lastAt) - ms(st.lastAt);
    const grown =
      ms(cur.firstAt) <= ms(st.firstAt)
        ? Math.max(st.totalCount, cur.count)
        : st.totalCount + (later > 0 ? Math.round(later / 1000 / Math.max(cur.periodSeconds, 1)) : 0);
    const updated: FightState = {
      ...st,
      firstAt: ms(cur.firstAt) < ms(st.firstAt) ? cur.firstAt : st.firstAt,
      lastAt: later > 0 ? cur.lastAt : st.lastAt,
      totalCount: grown,
      fight: cur,
    };
    if (updated.ended) {
      if (cur.active && later > 0) {
        updated.ended = false;
        updated.alertedCount = updated.totalCount;
        announce('fight-started', updated, cur);
      }
    } else {
      if (updated.totalCount >= updated.alertedCount * options.escalationFactor) {
        updated.alertedCount = updated.totalCount;
        announce('fight-escalated', updated, cur);
      }
      if (!cur.active) {
        updated.ended = true;
        announce('fight-ended', updated, cur);
      }
    }
    next.push(updated);
  }
  for (const st of prev) {
    if (matched.has(st)) continue;
    let kept = st;
    if (!st.ended) {
      kept = { ...st, ended: true, fight: { ...st.fight, active: false } };
      announce('fight-ended', kept, kept.fight);
    }
    if (ms(kept.lastAt) >= ctx.windowStart.getTime()) next.push(kept);
  }
  next.sort((a, b) => ms(a.firstAt) - ms(b.firstAt) || a.key.localeCompare(b.key));
  return { events, next };
}

/**
 * Drifts are single writes, announced once each as recreations are: considered once by
 * identity (lib/drift/key.ts), remembered until they leave the window. A drift already over
 * when the first run sees it is history, for the report and not for an alert, as a loop
 * over before the first run is; one that still stands is news whenever it is first seen.
 */
function diffDrifts(
  prev: readonly { key: string; at: string }[],
  current: readonly Drift[],
  ctx: DiffContext,
  firstRun: boolean,
): { events: DriftAlert[]; next: { key: string; at: string }[] } {
  const severities = new Set(ctx.options.driftSeverities);
  const seen = new Map(prev.map((d) => [d.key, d.at]));
  const events: DriftAlert[] = [];
  for (const d of [...current].sort((a, b) => ms(a.at) - ms(b.at))) {
    if (!severities.has(d.severity)) continue;
    const key = driftKey(d);
    if (seen.has(key)) continue;
    seen.set(key, d.at);
    if (firstRun && d.ended !== null) continue;
    events.push({
      kind: 'drift',
      event: 'drift-detected',
      id: digest([ctx.cluster, 'drift', key]),
      cluster: ctx.cluster,
      drift: d,
    });
  }
  const windowStartMs = ctx.windowStart.getTime();
  const next = [...seen.entries()]
    .filter(([, at]) => ms(at) >= windowStartMs)
    .map(([key, at]) => ({ key, at }))
    .sort((a, b) => ms(a.at) - ms(b.at) || a.key.localeCompare(b.key));
  return { events, next };
}
