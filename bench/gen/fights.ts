// Controllers fighting, for one stretch of time (sim/fights/): another operator's recreate
// loops, GitOps vs an autoscaler, a renderer vs cainjector, a custom resource at Metadata level
// and a hot loop, with names, periods and webhooks drawn per stretch, beside koperator's own
// traffic, so a "cluster full of fights" file can be measured like the koperator one.
import type { AuditEvent } from '../../lib/model/audit';
import { simulateFights, variedFights } from '../../sim/fights';
import { Rng } from '../../sim/rng';
import { fmtMicros, parseTime, type Micros } from '../../sim/time';

export function fightsStretch(seed: number, start: Micros): { events: AuditEvent[]; end: Micros } {
  const sim = simulateFights({
    seed,
    start: fmtMicros(start),
    level: seed % 2 === 0 ? 'RequestResponse' : 'Metadata',
    fights: variedFights(new Rng(seed).fork('fights')),
    negatives: ['rollout', 'hpa-alone', 'drain', 'cooperating-annotations'],
    gapSeconds: 30,
  });
  const last = sim.audit[sim.audit.length - 1];
  return { events: sim.audit, end: last ? parseTime(last.stageTimestamp) : start };
}
