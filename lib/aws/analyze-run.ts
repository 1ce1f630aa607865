// One cluster's analysis run (one message of the analysis queue, see functions/analyze.ts):
// read the facts of the look-back window, analyse, diff against the alert state, write the
// report and the Athena findings history, and publish what is new.
//
// Ordering is what makes announcements exactly-once in practice:
//   1. read the state and its ETag; if a crashed run left events pending, claim them
//      (rewrite the state conditionally on that ETag), publish them, clear them;
//   2. analyse and diff;
//   3. write the state with the new events as `pending`, conditionally on the ETag read:
//      of two racing runs only one gets here, the other stops without publishing;
//   4. publish the events one at a time, writing the state after each with that event
//      no longer pending.
// A run dying between 3 and 4 leaves its events pending and the next run sends them;
// only a death between one publish and the write after it can repeat a message, and
// every message carries a stable `id` for subscribers that must drop repeats.
import type { S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'crypto';
import type { SNSClient } from '@aws-sdk/client-sns';
import { analyzeFacts } from '../analyze';
import { fixImpactOf } from '../analyze/fix-impact';
import { isBrokerRemoval } from '../analyze/removal';
import { findFights } from '../fights';
import { findDrifts } from '../drift';
import { compareTimes, epochMicros } from '../analyze/time';
import { diffAlerts, isFirstRun, sameAlertState } from '../alerts/diff';
import { decodeAlertState, encodeAlertState } from '../alerts/state';
import { advanceCoverage, type Coverage } from '../alerts/coverage';
import { laterTime } from '../analyze/newest-event';
import type { AlertEvent, AlertState } from '../alerts/types';
import { alertStateKey, reportKey } from './bucket-layout';
import type { Classification, FindingsDocument } from '../model/findings';
import { toAlertMessage } from '../notify/message';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { publishAlert } from './alert-sinks';
import { AlertStateConflictError, loadAlertState, saveAlertState } from './alert-state-store';
import type { AnalyzeConfig } from './env-config';
import { readFactsThroughSnapshot, snapshotNotices } from './facts-snapshot';
import { writeFindingsHistory, type HistoryWritten } from './findings-history';
import { writeReport, type ReportLink } from './report-store';
import { renderReport } from '../report';
import { missesOperatorLogs, operatorLogWarnings } from '../pipeline/checks';
import { alertSources } from '../alerts/sources';

export interface RunLogger {
  info(message: string, extra: Record<string, unknown>): void;
  warn(message: string, extra: Record<string, unknown>): void;
}

export interface AnalyzeRunDeps {
  s3: S3Client;
  sns: SNSClient;
  /** Needed only when config.eventBus is set. */
  events?: EventBridgeClient;
  config: AnalyzeConfig;
  logger?: RunLogger;
  /** The report-link secret (config.reportLink.mode `function` only). */
  linkSecret?: () => Promise<string>;
}

export interface RunOptions {
  /**
   * Read up to the newest facts present (the wall clock), not only to `now`, and end the
   * window at the newest event read: a run asked for on evidence then covers every request
   * queued behind it (lib/alerts/coverage.ts).
   */
  upToNewest?: boolean;
}

export interface ClusterRun {
  cluster: string;
  window: { from: string; to: string };
  factsObjects: number;
  facts: number;
  recreationsByClass: Partial<Record<Classification, number>>;
  loops: number;
  activeLoops: number;
  /**
   * Drifts of the alerted severities already over in the window: a first run leaves them to
   * the report (lib/alerts/diff.ts), which the local pipeline says.
   */
  endedDrifts?: number;
  /** Events published by this run, leftovers of an earlier run included. */
  published: AlertEvent[];
  /** Leftovers of an earlier run among `published`. */
  republished: number;
  report: ReportLink | null;
  /** What the run added to the Athena findings history (settled hours not written before). */
  history?: HistoryWritten;
  stateWritten: boolean;
  /** Another run changed the state first; this run published nothing for the cluster. */
  conflict: boolean;
  /** The cluster's run failed; the analyze handler reports its message as a batch item failure. */
  error?: string;
  /** What this run covered (recorded in the state unless a wider run's is kept there). */
  coverage?: Coverage;
}

const warningsOf = (warnings: string[]) => (warnings.length > 0 ? { warnings } : {});

const quiet: RunLogger = { info: () => undefined, warn: () => undefined };

/**
 * One cluster's run. Never throws: a failure (damaged facts, a failed publish) is
 * returned as `error`, a lost race as `conflict`, so the caller decides what to retry.
 */
export async function analyzeCluster(
  deps: AnalyzeRunDeps,
  cluster: string,
  now: Date,
  opts: RunOptions = {},
): Promise<ClusterRun> {
  const { config } = deps;
  try {
    return await runCluster(deps, cluster, now, opts);
  } catch (e) {
    const conflict = e instanceof AlertStateConflictError;
    if (conflict) {
      (deps.logger ?? quiet).warn(
        'alert state changed by another run; this run stands down for the cluster',
        {
          cluster,
        },
      );
    }
    return {
      cluster,
      window: windowOf(config, now),
      factsObjects: 0,
      facts: 0,
      recreationsByClass: {},
      loops: 0,
      activeLoops: 0,
      published: [],
      republished: 0,
      report: null,
      stateWritten: false,
      conflict,
      ...(conflict ? {} : { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
    };
  }
}

function windowOf(config: AnalyzeConfig, now: Date): { from: string; to: string } {
  return {
    from: new Date(now.getTime() - config.lookbackSeconds * 1000).toISOString(),
    to: now.toISOString(),
  };
}

/** Marks a state as written by this run, so its bytes (and ETag) differ from any other run's. */
function stamp(state: AlertState, runId: string): AlertState {
  return { ...state, writtenBy: runId };
}

/**
 * Publishes `state.pending` in order and records each message as sent right after it
 * went out (a conditional write per message), so a run that dies part-way (a timeout, a
 * publish that finally fails, S3 unreachable) leaves pending exactly what it did not
 * send, give or take the one message whose write was lost. The state is first written
 * back as read (conditionally on `etag`) so that, of two runs holding the same pending
 * events, only the one whose write lands publishes them; the other gets
 * AlertStateConflictError. A publish failure is rethrown; what is left stays pending.
 */
async function flush(
  deps: AnalyzeRunDeps,
  key: string,
  state: AlertState,
  etag: string | null,
  alreadyClaimed: boolean,
  runId: string,
): Promise<{ state: AlertState; etag: string | null; sent: AlertEvent[] }> {
  const bucket = deps.config.bucket;
  let current = etag;
  if (!alreadyClaimed)
    current = await saveAlertState(deps.s3, bucket, key, encodeAlertState(stamp(state, runId)), current);
  const sent: AlertEvent[] = [];
  let next = state;
  for (let i = 0; i < state.pending.length; i++) {
    const p = state.pending[i]!;
    // The alerts topic, then the chat topic and EventBridge when configured (lib/aws/alert-sinks.ts).
    await publishAlert(
      deps,
      deps.config,
      toAlertMessage(p.event, {
        window: p.window,
        report: p.report,
        ...(p.operatorLogs ? { operatorLogs: p.operatorLogs } : {}),
        ...(p.sources ? { sources: p.sources } : {}),
      }),
    );
    sent.push(p.event);
    next = stamp({ ...state, pending: state.pending.slice(i + 1) }, runId);
    current = await saveAlertState(deps.s3, bucket, key, encodeAlertState(next), current);
  }
  return { state: next, etag: current, sent };
}

async function runCluster(
  deps: AnalyzeRunDeps,
  cluster: string,
  requested: Date,
  opts: RunOptions,
): Promise<ClusterRun> {
  const { config, s3 } = deps;
  const log = deps.logger ?? quiet;
  const stateKey = alertStateKey(config.layout, cluster);
  const runId = randomUUID();
  const stored = await loadAlertState(s3, config.bucket, stateKey);
  let state = decodeAlertState(stored.text, cluster);
  let etag = stored.etag;
  let stateWritten = false;
  const published: AlertEvent[] = [];

  if (state.pending.length > 0) {
    log.warn('publishing alerts a previous run left pending', { cluster, pending: state.pending.length });
    const r = await flush(deps, stateKey, state, etag, false, runId);
    ({ state, etag } = r);
    published.push(...r.sent);
    stateWritten = true;
  }
  const republished = published.length;

  const readFrom = new Date(
    requested.getTime() - config.lookbackSeconds * 1000 - config.contextSeconds * 1000,
  );
  // Taken before the listing: facts written before it are read (lib/alerts/coverage.ts).
  const readStartedAt = new Date();
  const readTo = opts.upToNewest
    ? new Date(Math.max(requested.getTime(), readStartedAt.getTime()))
    : requested;
  // Through the window snapshot: only facts objects the last run did not read are fetched.
  const read = await readFactsThroughSnapshot(s3, config.bucket, config.layout, cluster, readFrom, readTo);
  for (const n of snapshotNotices(read.snapshot)) log[n.level](n.message, { cluster, ...read.snapshot });
  // What the run covers: up to the request's time, and on evidence up to the newest event read.
  // At the millisecond, rounded up as evidence requests' times are (lib/alerts/evidence.ts),
  // never past what was read.
  const newestMs = read.newestEventAt ? Math.ceil(epochMicros(read.newestEventAt) / 1000) : NaN;
  const coveredUntil =
    laterTime(
      requested.toISOString(),
      Number.isFinite(newestMs) ? new Date(Math.min(newestMs, readTo.getTime())).toISOString() : null,
    ) ?? requested.toISOString();
  const now = opts.upToNewest ? new Date(coveredUntil) : requested;
  const window = windowOf(config, now);
  const windowStart = new Date(window.from);
  // "Active" against the newest event read, which the facts objects' headers carry.
  const analysis = { ...config.analysis, newestEventAt: read.newestEventAt };
  const result = analyzeFacts(read.facts, { ...analysis, since: window.from, until: window.to });
  // Found on the whole read (context included), then kept when they reach into the window, as loops are.
  const fights = findFights(read.facts, analysis).filter(
    (f) => compareTimes(f.lastAt, window.from) >= 0 && compareTimes(f.firstAt, window.to) <= 0,
  );
  // Drifts are single writes: found on the whole read, kept where they fall in the window.
  const drift = findDrifts(read.facts, { ...config.analysis, since: window.from, until: window.to });
  const { events, next } = diffAlerts(
    state,
    { ...result, fights, drifts: drift.drifts },
    { cluster, now, windowStart, options: config.alerts },
  );

  // No operator line read: the report and every alert of the run say so.
  const operatorLogs = operatorLogWarnings(read.facts, [
    ...result.recreations.map((r) => r.operator),
    ...result.loops.map((l) => l.operator),
  ]);

  // A broker removed by a downscale is in `recreations` (the contract) but counted apart.
  const recreationsByClass: Partial<Record<Classification, number>> = {};
  let brokerRemovals = 0;
  for (const r of result.recreations) {
    if (isBrokerRemoval(r)) brokerRemovals++;
    else recreationsByClass[r.classification] = (recreationsByClass[r.classification] ?? 0) + 1;
  }
  const report: FindingsDocument & {
    cluster: string;
    window: typeof window;
    events: { event: string; id: string }[];
  } = {
    cluster,
    window,
    recreations: result.recreations,
    loops: result.loops,
    fights,
    drifts: drift.drifts,
    events: events.map((e) => ({ event: e.event, id: e.id })),
    summary: {
      generatedAt: now.toISOString(),
      factsReadFrom: readFrom.toISOString(),
      factsObjects: read.objects,
      factsBytes: read.bytes,
      factsFetched: { objects: read.fetched, bytes: read.fetchedBytes },
      factsSnapshot: read.snapshot,
      facts: read.facts.size,
      recreations: result.recreations.length - brokerRemovals,
      brokerRemovals,
      fixImpact: fixImpactOf(result.recreations, config.analysis.autoscalerUsers),
      loops: result.loops.length,
      fights: fights.length,
      drifts: drift.drifts.length,
      recreationsByClass,
      ...warningsOf([...operatorLogs, ...drift.warnings]),
    },
  };
  const link = await writeReport(
    s3,
    config.bucket,
    reportKey(config.layout, cluster, now),
    report,
    config.reportLink,
    renderReport(report, 'html', {
      color: false,
      inputs: [`cluster ${cluster}`],
      generatedAt: now.toISOString(),
    }),
    deps.linkSecret && {
      secret: deps.linkSecret,
      onFallback: (e) =>
        log.warn('report links pre-signed instead: the link secret could not be read', { error: String(e) }),
    },
  );

  // Before the claim: a run that loses the race or dies after this has only rewritten
  // the same hour objects a later run writes again (their keys are the hours).
  const history = await writeFindingsHistory(
    s3,
    {
      bucket: config.bucket,
      prefix: config.findings.prefix,
      statePrefix: config.layout.statePrefix,
      cluster,
      window,
      settleSeconds: config.findings.settleSeconds,
      loopStartedAt: (loop) => next.loops.find((st) => st.loop === loop)?.firstAt ?? loop.firstAt,
      autoscalerUsers: config.analysis.autoscalerUsers,
    },
    { ...result, fights, drifts: drift.drifts },
  );

  // The first run writes its state even when it found nothing: a later run then knows the
  // deployment has been watching, so a loop that a backfill brings in is news (diff.ts).
  // The coverage changes every run, so every run writes the state (one PUT): a request
  // queued behind this run is then skipped after one read (functions/analyze.ts).
  const covered: AlertState = {
    ...next,
    ...advanceCoverage(state, { coveredUntil, readStartedAt: readStartedAt.toISOString() }),
  };
  // Each alert names the raw records it rests on (found in the facts read: no extra reads).
  const sources = alertSources(events, read.facts);
  if (events.length > 0 || !sameAlertState(state, covered) || isFirstRun(state)) {
    const claimed: AlertState = {
      ...covered,
      pending: events.map((event) => ({
        event,
        window,
        report: link,
        ...(missesOperatorLogs(event.kind, operatorLogs) ? { operatorLogs: 'absent' as const } : {}),
        ...(sources.has(event.id) ? { sources: sources.get(event.id) } : {}),
      })),
    };
    // The claim: fails with AlertStateConflictError if another run wrote since we read.
    etag = await saveAlertState(s3, config.bucket, stateKey, encodeAlertState(claimed), etag);
    stateWritten = true;
    if (events.length > 0) {
      const r = await flush(deps, stateKey, claimed, etag, true, runId);
      published.push(...r.sent);
    }
  }
  log.info('analysis run', {
    cluster,
    window,
    facts: read.facts.size,
    recreations: result.recreations.length - brokerRemovals,
    brokerRemovals,
    loops: result.loops.length,
    published: published.length,
    report: link.uri,
    findingsHours: history.hours,
    findingsRows: history.rows,
  });
  return {
    cluster,
    window,
    factsObjects: read.objects,
    facts: read.facts.size,
    recreationsByClass,
    loops: result.loops.length,
    activeLoops: result.loops.filter((l) => l.active).length,
    endedDrifts: drift.drifts.filter(
      (d) => d.ended !== null && config.alerts.driftSeverities.includes(d.severity),
    ).length,
    published,
    republished,
    report: link,
    history,
    stateWritten,
    conflict: false,
    coverage: { coveredUntil, readStartedAt: readStartedAt.toISOString() },
  };
}
