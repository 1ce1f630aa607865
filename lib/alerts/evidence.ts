// When the ingest asks for a cluster's analysis at once instead of waiting for the schedule:
// when the facts it just wrote hold evidence of something worth an alert. Each kind of
// evidence is a rule; a detector adds its own (its logic in its own folder), and nothing
// else changes.
//
// The request's time is the newest event in those facts, not the clock: it is where the
// analysis window ends, so a wall-clock time taken before the object was read, or one
// behind the cluster's clock, could cut off the very recreation that makes the loop.
import { epochMicros } from '../analyze/time';
import { driftEvidence } from '../drift/evidence';
import { fightEvidence } from '../fights/evidence';
import { isBrokerPodDelete } from '../operators/evidence';
import type { Fact } from '../model/facts';

export interface EvidenceRule {
  /** Names the evidence in logs and metrics. */
  readonly kind: string;
  /** The facts of one ingested batch that are evidence of this kind. */
  select(facts: readonly Fact[]): readonly Fact[];
}

export interface EvidenceOptions {
  /** The operator's user names (OPERATOR_USERS); empty: anyone but Kubernetes' own controllers. */
  operatorUsers?: readonly string[];
}

export function evidenceRules(opts: EvidenceOptions = {}): EvidenceRule[] {
  const users = opts.operatorUsers ?? [];
  return [
    { kind: 'broker-pod-delete', select: (facts) => facts.filter((f) => isBrokerPodDelete(f, users)) },
    { kind: 'fight-write', select: fightEvidence },
    { kind: 'drift-write', select: (facts) => driftEvidence(facts, users) },
  ];
}

export interface Evidence {
  /** Evidence facts per rule kind (only kinds that found some). */
  counts: Record<string, number>;
  /**
   * The newest event among all the facts (epoch ms, rounded up so that a microsecond
   * time is inside a window ending there); null when no fact has a readable time.
   */
  newestMs: number | null;
}

/** Facts without a readable time are left out: no facts object holds them, no analysis reads them. */
export function findEvidence(facts: readonly Fact[], rules: readonly EvidenceRule[]): Evidence {
  let newest = -Infinity;
  const timed: Fact[] = [];
  for (const f of facts) {
    const t = epochMicros(f.at);
    if (Number.isNaN(t)) continue;
    timed.push(f);
    if (t > newest) newest = t;
  }
  const counts: Record<string, number> = {};
  for (const r of rules) {
    const n = r.select(timed).length;
    if (n > 0) counts[r.kind] = n;
  }
  return { counts, newestMs: Number.isFinite(newest) ? Math.ceil(newest / 1000) : null };
}

export type TriggerDecision =
  | { action: 'none' }
  /** Evidence, recent enough: ask for the analysis of the window ending at `time`. */
  | { action: 'request'; request: { cluster: string; time: string }; counts: Record<string, number> }
  /**
   * Evidence older than `maxAgeMs` before the clock (a backfill, an object delivered late):
   * the schedule covers it, and an old window must not be analysed ahead of the current one.
   */
  | { action: 'too-old'; time: string; counts: Record<string, number> };

/**
 * The clock evidence is judged stale by: the object's arrival in S3, so that a retry of our
 * own (a failed ingest back from the queue minutes later) never turns live evidence into a
 * backfill. An arrival after our clock (skew) or none known is taken as now.
 */
export function evidenceClock(arrivedAt: string | undefined, nowMs: number): number {
  const at = arrivedAt === undefined ? NaN : Date.parse(arrivedAt);
  return Number.isFinite(at) ? Math.min(at, nowMs) : nowMs;
}

export function triggerDecision(
  cluster: string,
  evidence: Evidence,
  nowMs: number,
  maxAgeMs: number,
): TriggerDecision {
  if (Object.keys(evidence.counts).length === 0 || evidence.newestMs === null) return { action: 'none' };
  const time = new Date(evidence.newestMs).toISOString();
  if (nowMs - evidence.newestMs > maxAgeMs) return { action: 'too-old', time, counts: evidence.counts };
  return { action: 'request', request: { cluster, time }, counts: evidence.counts };
}
