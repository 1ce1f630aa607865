// The newest audit event an alert is about: where its delay is measured from (the
// AlertDelay metric, the dashboard's "event to alert"). A loop's or fight's last cycle, a
// recreation's deletion, a drift's write.
import type { AlertEvent } from './types';

export function decisiveEventAt(ev: AlertEvent): string {
  switch (ev.kind) {
    case 'loop':
      return ev.loop.lastAt;
    case 'fight':
      return ev.fight.lastAt;
    case 'drift':
      return ev.drift.at;
    case 'recreation':
      return ev.recreation.deletedPod.deletedAt;
  }
}

/** Seconds from that event to `nowMs`, or null where the time does not parse or lies ahead (a cluster clock ahead of ours). */
export function alertDelaySeconds(ev: AlertEvent, nowMs: number): number | null {
  const at = Date.parse(decisiveEventAt(ev));
  if (!Number.isFinite(at) || at > nowMs) return null;
  return Math.round(nowMs - at) / 1000;
}
