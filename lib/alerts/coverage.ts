// Whether an analysis request is already covered by a run that finished (issue 29, "no
// backlog"). A run records in the cluster's alert state how far its window reached
// (`coveredUntil`: the later of its request's time and the newest event it read) and when it
// began reading facts (`readStartedAt`). A request whose time is at or before that end and
// which was sent before that read began asked for facts the run had already read: the ingest
// writes its facts before it sends the request, and S3 lists what was written before a
// listing starts. Skipping such a request is what turns a pile of requests queued behind a
// slow run into the one run after it.
import { compareTimes } from '../analyze/time';
import type { AlertState } from './types';

export interface Coverage {
  /** The end of the window the run analysed (RFC 3339). */
  coveredUntil: string;
  /** When the run began reading facts (wall clock, RFC 3339). */
  readStartedAt: string;
}

export interface CoverageQuestion {
  /** The request's time (RFC 3339). */
  time: string;
  /** When it was sent (epoch ms), by the sender's clock, else SQS's SentTimestamp; NaN when unknown. */
  sentMs: number;
}

export type CoverageDecision =
  | { covered: true; by: Coverage }
  | {
      covered: false;
      why:
        | 'no run recorded'
        | 'state unreadable'
        | 'alerts pending'
        | 'later than the window'
        | 'sent after the read began';
    };

/**
 * Covered only when nothing is left for a run to do: no alerts left pending by a crashed run
 * (only a run publishes them), the request's time inside the recorded window, and the request
 * sent strictly before that run began reading. An unknown send time is never covered.
 */
export function coverageDecision(
  state: Pick<AlertState, 'coveredUntil' | 'readStartedAt' | 'pending'>,
  q: CoverageQuestion,
): CoverageDecision {
  if (!state.coveredUntil || !state.readStartedAt) return { covered: false, why: 'no run recorded' };
  if (state.pending.length > 0) return { covered: false, why: 'alerts pending' };
  if (compareTimes(q.time, state.coveredUntil) > 0) return { covered: false, why: 'later than the window' };
  const readMs = Date.parse(state.readStartedAt);
  if (!Number.isFinite(q.sentMs) || !Number.isFinite(readMs) || q.sentMs >= readMs)
    return { covered: false, why: 'sent after the read began' };
  return { covered: true, by: { coveredUntil: state.coveredUntil, readStartedAt: state.readStartedAt } };
}

/**
 * The coverage a state records after a run: the run's own when its window reaches at least as
 * far as the one recorded (it then covers every request the recorded one did, and more), else
 * the recorded one kept (a replayed older schedule must not shrink what is known covered).
 */
export function advanceCoverage(
  prev: Pick<AlertState, 'coveredUntil' | 'readStartedAt'>,
  run: Coverage,
): Coverage {
  if (prev.coveredUntil && prev.readStartedAt && compareTimes(run.coveredUntil, prev.coveredUntil) < 0)
    return { coveredUntil: prev.coveredUntil, readStartedAt: prev.readStartedAt };
  return run;
}
