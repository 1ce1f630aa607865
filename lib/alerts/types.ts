// What the alerting remembers between scheduled runs, and what it announces.
import type { Classification, Drift, DriftSeverity, Fight, Loop, Recreation } from '../model/findings';
import type { AlertSource } from './sources';

export type LoopEventName = 'loop-started' | 'loop-escalated' | 'loop-ended';
/** Other controllers' fights (fights.md) start, escalate and end as loops do. */
export type FightEventName = 'fight-started' | 'fight-escalated' | 'fight-ended';
/** A live drift (drift.md): announced once, like a single recreation. */
export type DriftEventName = 'drift-detected';
export type AlertEventName = LoopEventName | FightEventName | 'recreation' | DriftEventName;

export const ALERT_EVENT_NAMES: readonly AlertEventName[] = [
  'loop-started',
  'loop-escalated',
  'loop-ended',
  'fight-started',
  'fight-escalated',
  'fight-ended',
  'recreation',
  'drift-detected',
];

export interface LoopAlert {
  kind: 'loop';
  event: LoopEventName;
  /** Stable id of this announcement, so a subscriber can drop a re-delivery. */
  id: string;
  cluster: string;
  /**
   * The same for every announcement of one loop (started, escalated, ended, resumed), so
   * chat clients can thread them; optional only in alerts left pending by older versions.
   */
  threadId?: string;
  loop: Loop;
  /**
   * Recreations of the loop counted across runs. `loop.count` only covers the look-back
   * window; once a long loop outlives the window the two differ.
   */
  totalCount: number;
  /** The loop's newest recreation in the window: its fields carry the from → to values the loop's paths only name. */
  latest: Recreation | null;
}

export interface RecreationAlert {
  kind: 'recreation';
  event: 'recreation';
  id: string;
  cluster: string;
  recreation: Recreation;
}

export interface FightAlert {
  kind: 'fight';
  event: FightEventName;
  id: string;
  cluster: string;
  /** The same for every announcement of one fight. */
  threadId: string;
  fight: Fight;
  /** Cycles counted across runs (an estimate once the fight outlives the window: see lib/alerts/diff.ts). */
  totalCount: number;
}

export interface DriftAlert {
  kind: 'drift';
  event: DriftEventName;
  id: string;
  cluster: string;
  /** As the announcing run saw it: `ended` null means it still stood at the end of the data read. */
  drift: Drift;
}

export type AlertEvent = LoopAlert | RecreationAlert | FightAlert | DriftAlert;

/** One fight as last seen, keyed by what is fought over (lib/report/format.ts fightKey). */
export interface FightState {
  key: string;
  threadId: string;
  firstAt: string;
  lastAt: string;
  totalCount: number;
  alertedCount: number;
  ended: boolean;
  fight: Fight;
}

/** One loop as last seen, keyed by its broker; several may exist per broker over time. */
export interface LoopState {
  broker: string;
  /** Fixed when the loop is first seen (firstAt may later move earlier); absent in older states. */
  threadId?: string;
  firstAt: string;
  lastAt: string;
  /** Recreations counted across runs (see LoopAlert.totalCount). */
  totalCount: number;
  /** totalCount when the loop was last announced (started or escalated). */
  alertedCount: number;
  /** loop-ended was announced; a later resumption announces loop-started again. */
  ended: boolean;
  /** The last finding, re-sent in loop-ended when the loop leaves the window unseen. */
  loop: Loop;
}

export const ALERT_STATE_VERSION = 1;

export interface AlertState {
  version: typeof ALERT_STATE_VERSION;
  cluster: string;
  updatedAt: string;
  /**
   * Id of the run that wrote the state. S3 ETags are content hashes: without a value
   * unique to the writer, two runs writing the same bytes would both satisfy If-Match.
   */
  writtenBy?: string;
  loops: LoopState[];
  /** Fights as last seen; absent in states written before fights were announced. */
  fights?: FightState[];
  /** Recreations already considered (alerted or deliberately not), by identity, with their time for pruning. */
  recreations: { key: string; deletedAt: string }[];
  /**
   * Drifts already considered (alerted or deliberately not), by identity, with their time
   * for pruning; absent in states written before drifts were announced.
   */
  drifts?: { key: string; at: string }[];
  /**
   * Events claimed by a run but not yet confirmed published. A run writes them here
   * before publishing and clears them after, so a run that dies mid-way leaves them for
   * the next run instead of losing them (see lib/aws/analyze-run.ts).
   */
  pending: PendingAlert[];
  /**
   * The end of the window the last run analysed (the later of its request's time and the
   * newest event it read) and when that run began reading facts: a request no later than
   * the one and sent before the other is already covered and skipped (lib/alerts/coverage.ts).
   * Absent in states written before runs recorded them.
   */
  coveredUntil?: string;
  readStartedAt?: string;
}

/** An announcement a run has claimed, with what its message points at. */
export interface PendingAlert {
  event: AlertEvent;
  window: { from: string; to: string };
  report: { uri: string; url?: string; expiresAt?: string; expiry?: 'exact' | 'at-most' } | null;
  /** The run read no operator log line (lib/pipeline/checks.ts operatorLogWarnings): the alert says so. */
  operatorLogs?: 'absent';
  /** The raw log records the alert rests on (lib/alerts/sources.ts). */
  sources?: AlertSource[];
}

export interface AlertOptions {
  /** A loop is re-announced when its count reaches this multiple of the count last announced. */
  escalationFactor: number;
  /** Individual recreations of these classes are announced. */
  recreationClasses: readonly Classification[];
  /** Announce a recreation even when it belongs to a loop (the loop's own alert covers it otherwise). */
  alertLoopMembers: boolean;
  /** Drifts of these severities are announced, once each (drift.md: `tamper` by default). */
  driftSeverities: readonly DriftSeverity[];
  /** The analysis' loop gap: a loop seen again within it after its last deletion is the same loop. */
  loopMaxGapSeconds: number;
}
