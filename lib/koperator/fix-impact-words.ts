// The fix impact (summary.fixImpact) in the words a team lead forwards to decide the upgrade.
// Every human format and the loop alerts say it the same way.
import { fixVerdict, type FixImpact } from '../analyze/fix-impact';
import { secondsBetween } from '../analyze/time';
import { isAutoscalerUser, isWebhookRef } from '../k8s/writers';
import type { Loop, Recreation } from '../model/findings';
import { FIXED_OPERATOR_VERSION } from './recommendation';

/** "with koperator 0.30.0-rc1, 2,801 of 2,983 recreations (94 %) would not have happened: 3.2 broker-hours of restarts" */
export function fixImpactHeadline(fi: FixImpact): string {
  const of = `${count(fi.avoidableWithFix)} of ${count(fi.recreations)} ${fi.recreations === 1 ? 'recreation' : 'recreations'}`;
  const pct = fi.recreations > 0 ? ` (${percent(fi.avoidableWithFix, fi.recreations)})` : '';
  const cost = fi.avoidableWithFix > 0 ? `: ${brokerTime(fi.avoidableDowntimeSeconds)} of restarts` : '';
  return `with koperator ${FIXED_OPERATOR_VERSION}, ${of}${pct} would not have happened${cost}`;
}

/** How the downtime was measured, and what the sums leave out. */
export function fixImpactBasis(fi: FixImpact): string {
  const parts = [
    fi.downtimeFrom === 'ready'
      ? "downtime from each deletion to the successor pod's first Ready=True status write"
      : "downtime from each deletion to the successor pod's create (the logs carry no pod status)",
  ];
  if (fi.readyUnseen > 0)
    parts.push(`${count(fi.readyUnseen)} never seen ready, counted to the create (a lower bound)`);
  if (fi.withoutSuccessor > 0)
    parts.push(`${count(fi.withoutSuccessor)} with no successor seen, not counted`);
  parts.push(`${brokerTime(fi.downtimeSeconds)} of downtime in all`);
  return parts.join('; ');
}

/** The reverts of people's writes the fix gives up, or null when there are none. */
export function fixImpactTampers(fi: FixImpact): string | null {
  if (fi.revertedTampers === 0) return null;
  const n = fi.revertedTampers;
  return (
    `${count(n)} ${n === 1 ? 'recreation' : 'recreations'} reverted a person's or another controller's write; ` +
    `with ${FIXED_OPERATOR_VERSION} ${n === 1 ? 'that change' : 'those changes'} would stand instead`
  );
}

/** Broker downtime in the unit that reads best: broker-seconds, -minutes or -hours. */
export function brokerTime(seconds: number): string {
  const [value, unit] =
    seconds < 60
      ? [trim(seconds.toFixed(1)), 'second']
      : seconds < 3600
        ? [trim((seconds / 60).toFixed(1)), 'minute']
        : [trim(count((seconds / 3600).toFixed(1))), 'hour'];
  return `${value} broker-${unit}${value === '1' ? '' : 's'}`;
}

function percent(part: number, whole: number): string {
  const p = (100 * part) / whole;
  // 94 %, but never "100 %" for 2,982 of 2,983 nor "0 %" for 1 of 2,983.
  const shown = p > 99 && part < whole ? Math.floor(p) : p < 1 && part > 0 ? '<1' : Math.round(p);
  return `${shown} %`;
}

/** `2,983`, `1,234.5`: grouped the same on every machine, whatever its locale. */
function count(n: number | string): string {
  const [whole, frac] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

function trim(s: string): string {
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

export { capitalized } from '../report/format';

/**
 * A loop's reason to upgrade, for its alerts: the fix would end a loop that reverts a
 * webhook's or an autoscaler's write; one that reverts people's writes would end too, but
 * those writes would then stand. Null for loops the fix does not change.
 */
export function loopUpgradeReason(
  loop: Pick<Loop, 'classification' | 'mutators'>,
  latest: Recreation | null,
  totalCount: number,
  autoscalerUsers: readonly string[] = [],
): string | null {
  if (loop.classification !== 'external-mutation-revert') return null;
  const verdict = latest
    ? fixVerdict(latest, autoscalerUsers)
    : loop.mutators.length === 0
      ? 'other'
      : loop.mutators.every((m) => isWebhookRef(m) || isAutoscalerUser(m, autoscalerUsers))
        ? 'avoidable'
        : 'reverted-tamper';
  const n = `${count(totalCount)} ${totalCount === 1 ? 'recreation' : 'recreations'}`;
  if (verdict === 'avoidable') {
    const cost = latest ? downtimeOf(latest) : null;
    return (
      `Reason to upgrade: with koperator ${FIXED_OPERATOR_VERSION}, the ${n} of this loop would not have happened ` +
      `(its intent diff leaves ${loop.mutators.length === 1 ? "that writer's" : 'those writers’'} values alone)` +
      (cost !== null ? `; the latest cost ${brokerTime(cost)} of downtime.` : '.')
    );
  }
  if (verdict === 'reverted-tamper') {
    return (
      `With koperator ${FIXED_OPERATOR_VERSION} this loop would stop, but the writes it reverts would stand ` +
      `instead: check they are wanted before upgrading.`
    );
  }
  return null;
}

/** A recreation's downtime: to the successor's first Ready where seen, else to its create. */
function downtimeOf(r: Recreation): number | null {
  const end = r.createdPod?.readyAt ?? r.createdPod?.createdAt;
  return end ? Math.max(0, Math.round(secondsBetween(r.deletedPod.deletedAt, end) * 10) / 10) : null;
}
