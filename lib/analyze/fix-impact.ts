// What koperator's fix (the intent diff, 0.30.0-rc1) would have saved: of all recreations,
// those it would not have made, and the broker downtime they cost (drift.md,
// `summary.fixImpact`). A broker removed by a downscale is no recreation (nothing was
// re-created, and no fix avoids a removal): it is left out of every count here. Pure: recreations in, counts out, one recreation at a time so that a
// spooled day of a fleet is never held.
import { DEFAULT_AUTOSCALER_USERS, isAutoscalerUser, isWebhookRef } from '../k8s/writers';
import type { Recreation } from '../model/findings';
import { isBrokerRemoval } from './removal';
import { secondsBetween } from './time';

export interface FixImpact {
  /** Recreations: the deletions without the brokers removed by a downscale. */
  recreations: number;
  /** Reverts of webhook or autoscaler writes the intent diff would not restart for. */
  avoidableWithFix: number;
  /** Reverts of a person's (or another controller's) write: with the fix, those changes stand. */
  revertedTampers: number;
  /** Broker downtime of every recreation with a successor, rounded to 0.1 s. */
  downtimeSeconds: number;
  avoidableDowntimeSeconds: number;
  /** `ready`: to the successor's first Ready=True status write; `create`: to its create. */
  downtimeFrom: 'ready' | 'create';
  // Additions to drift.md's keys, so that no recreation drops out of the sums unsaid.
  /** With `downtimeFrom: ready`, recreations whose successor was never seen Ready: counted to its create. */
  readyUnseen: number;
  /** Recreations whose successor is outside the data: no downtime counted. */
  withoutSuccessor: number;
  /** The users counted as autoscalers (the VPA updater and any configured), so the counts can be redone. */
  autoscalerUsers: string[];
}

export type FixVerdict = 'avoidable' | 'reverted-tamper' | 'other';

/**
 * What the fix changes for one recreation. Avoidable: the intent diff would not restart it,
 * it reverted an external mutation, and every field it reverted was written by a webhook or
 * an autoscaler. A revert of anyone else's write protected the cluster; with the fix that
 * change stands, so it is counted apart.
 */
export function fixVerdict(r: Recreation, autoscalerUsers: readonly string[] = []): FixVerdict {
  // koperator's fix: another operator's findings name their own versions (wouldRestartByVersion).
  if (r.operator !== undefined) return 'other';
  if (r.classification !== 'external-mutation-revert' || r.wouldRestart?.intentDiff !== false) return 'other';
  if (r.fields.length === 0) return 'other';
  const machine = (by: string | null) =>
    by !== null && (isWebhookRef(by) || isAutoscalerUser(by, autoscalerUsers));
  if (r.fields.every((f) => machine(f.by))) return 'avoidable';
  // A field whose writer is unknown (null) is no evidence of a person.
  if (r.fields.some((f) => f.by !== null && !machine(f.by))) return 'reverted-tamper';
  return 'other';
}

/**
 * One recreation's downtime: deletion to the successor's create, and to its first Ready=True
 * where the logs show it; null without a successor. A successor created before the deletion
 * was recorded (clock skew between sources) cost no downtime, rather than a negative one.
 */
export function recreationDowntime(r: Recreation): { toCreate: number; toReady: number | null } | null {
  const next = r.createdPod;
  if (!next) return null;
  const toCreate = Math.max(0, secondsBetween(r.deletedPod.deletedAt, next.createdAt));
  const toReady = next.readyAt
    ? Math.max(toCreate, secondsBetween(r.deletedPod.deletedAt, next.readyAt))
    : null;
  return { toCreate, toReady };
}

/** Sums recreations into a FixImpact, one at a time. */
export class FixImpactTally {
  private n = 0;
  private avoidable = 0;
  private tampers = 0;
  private noSuccessor = 0;
  private readySeen = 0;
  /** Seconds, rounded once at the end. */
  private toCreate = 0;
  private toBest = 0;
  private avoidableToCreate = 0;
  private avoidableToBest = 0;

  constructor(private readonly autoscalerUsers: readonly string[] = []) {}

  add(r: Recreation): void {
    if (isBrokerRemoval(r)) return;
    this.n++;
    const verdict = fixVerdict(r, this.autoscalerUsers);
    if (verdict === 'avoidable') this.avoidable++;
    else if (verdict === 'reverted-tamper') this.tampers++;
    const downtime = recreationDowntime(r);
    if (!downtime) {
      this.noSuccessor++;
      return;
    }
    const { toCreate } = downtime;
    if (downtime.toReady !== null) this.readySeen++;
    const toBest = downtime.toReady ?? toCreate;
    this.toCreate += toCreate;
    this.toBest += toBest;
    if (verdict === 'avoidable') {
      this.avoidableToCreate += toCreate;
      this.avoidableToBest += toBest;
    }
  }

  result(): FixImpact {
    // Any Ready write seen means the logs carry pod status: measure to readiness, and say
    // how many successors were not seen ready (those count to their create, a lower bound).
    const ready = this.readySeen > 0;
    const withSuccessor = this.n - this.noSuccessor;
    return {
      recreations: this.n,
      avoidableWithFix: this.avoidable,
      revertedTampers: this.tampers,
      downtimeSeconds: tenths(ready ? this.toBest : this.toCreate),
      avoidableDowntimeSeconds: tenths(ready ? this.avoidableToBest : this.avoidableToCreate),
      downtimeFrom: ready ? 'ready' : 'create',
      readyUnseen: ready ? withSuccessor - this.readySeen : 0,
      withoutSuccessor: this.noSuccessor,
      autoscalerUsers: autoscalersCounted(this.autoscalerUsers),
    };
  }
}

export function fixImpactOf(
  recreations: Iterable<Recreation>,
  autoscalerUsers: readonly string[] = [],
): FixImpact {
  const tally = new FixImpactTally(autoscalerUsers);
  for (const r of recreations) tally.add(r);
  return tally.result();
}

/**
 * Several clusters' impacts as one. Where some measured to readiness and others could
 * not, the sum says `ready` and counts the others' successors as not seen ready.
 */
export function sumFixImpacts(parts: readonly FixImpact[]): FixImpact {
  const ready = parts.some((p) => p.downtimeFrom === 'ready');
  const sum = (k: 'recreations' | 'avoidableWithFix' | 'revertedTampers' | 'withoutSuccessor') =>
    parts.reduce((n, p) => n + p[k], 0);
  return {
    recreations: sum('recreations'),
    avoidableWithFix: sum('avoidableWithFix'),
    revertedTampers: sum('revertedTampers'),
    downtimeSeconds: tenths(parts.reduce((n, p) => n + p.downtimeSeconds, 0)),
    avoidableDowntimeSeconds: tenths(parts.reduce((n, p) => n + p.avoidableDowntimeSeconds, 0)),
    downtimeFrom: ready ? 'ready' : 'create',
    readyUnseen: ready
      ? parts.reduce(
          (n, p) => n + (p.downtimeFrom === 'ready' ? p.readyUnseen : p.recreations - p.withoutSuccessor),
          0,
        )
      : 0,
    withoutSuccessor: sum('withoutSuccessor'),
    autoscalerUsers: autoscalersCounted(parts.flatMap((p) => p.autoscalerUsers)),
  };
}

function autoscalersCounted(configured: readonly string[]): string[] {
  return [...new Set([...DEFAULT_AUTOSCALER_USERS, ...configured])];
}

export interface BrokerFixImpact {
  namespace: string;
  kafkaCluster: string;
  brokerId: string;
  impact: FixImpact;
}

/** The impact broker by broker, in the order brokers first appear. */
export function fixImpactByBroker(
  recreations: Iterable<Recreation>,
  autoscalerUsers: readonly string[] = [],
): BrokerFixImpact[] {
  const tallies = new Map<
    string,
    { namespace: string; kafkaCluster: string; brokerId: string; tally: FixImpactTally }
  >();
  for (const r of recreations) {
    // A broker only removed has no recreation to list.
    if (isBrokerRemoval(r)) continue;
    const k = `${r.namespace}\u0000${r.kafkaCluster}\u0000${r.brokerId}`;
    let t = tallies.get(k);
    if (!t) {
      t = {
        namespace: r.namespace,
        kafkaCluster: r.kafkaCluster,
        brokerId: r.brokerId,
        tally: new FixImpactTally(autoscalerUsers),
      };
      tallies.set(k, t);
    }
    t.tally.add(r);
  }
  return [...tallies.values()].map(({ tally, ...broker }) => ({ ...broker, impact: tally.result() }));
}

function tenths(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

/** Whether a document's summary holds a fix impact (findings made before it existed hold none). */
export function isFixImpact(v: unknown): v is FixImpact {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.recreations === 'number' &&
    typeof o.avoidableWithFix === 'number' &&
    typeof o.downtimeSeconds === 'number' &&
    (o.downtimeFrom === 'ready' || o.downtimeFrom === 'create')
  );
}
