// koperator's own traffic for one stretch of time, from the project's simulator (sim/):
// a broker added to a cluster whose pods a rightsizing webhook mutates, so koperator
// deletes and re-creates it every ~8-10 s (the revert loop), and now and then a rolling
// upgrade after a KafkaCluster edit (intent change). Each stretch is its own simulated
// World, so memory stays bounded by one stretch whatever the file size.
import type { AuditEvent } from '../../lib/model/audit';
import { humanActor } from '../../sim/audit-event';
import { CLUSTERS, seedWorld } from '../../sim/fixtures';
import { operatorRestart } from '../../sim/operator';
import { Rng } from '../../sim/rng';
import { patchKafkaCluster, revertLoop, upscale } from '../../sim/scenarios/common';
import { MIN, SEC, type Micros } from '../../sim/time';
import { rightsizer } from '../../sim/webhooks';
import { World } from '../../sim/world';

export interface Stretch {
  events: AuditEvent[];
  /** When the stretch's last event happened; the next stretch starts after it. */
  end: Micros;
}

/** Revert-loop iterations per stretch: ~25 pod lifetimes, a few MB of events. */
const LOOP_ITERATIONS = 25;

/** The seed of stretch `index` of a file made with `seed` (its World's, and its noise's). */
export function stretchSeed(seed: number, index: number): number {
  return (seed * 100_003 + index) >>> 0;
}

/** The benchmark's cluster: koperator in `kafka`, its brokers' pods rewritten by a rightsizer at admission. */
export function rightsizedKafkaWorld(seed: number, start: Micros): World {
  const world = new World({
    seed,
    start,
    namespace: 'kafka',
    metadataNamespace: 'metrics',
    operatorUser: 'system:serviceaccount:kafka:kafka-operator',
    podLevel: 'RequestResponse',
    logStyle: 'current',
  });
  seedWorld(world);
  world.installWebhook(rightsizer(), ['kafka'], start);
  return world;
}

export function koperatorStretch(seed: number, index: number, start: Micros): Stretch {
  const world = rightsizedKafkaWorld(stretchSeed(seed, index), start);
  const ctx = { world, rng: new Rng(seed).fork(`stretch-${index}`), leaveRunning: true };
  // Different brokers loop in different stretches, as in a fleet.
  const brokerId = String(5 + (index % 5));
  const first = upscale(ctx, world.cluster(CLUSTERS.clickstream), brokerId, start + SEC);
  let { end } = revertLoop(
    ctx,
    CLUSTERS.clickstream,
    brokerId,
    { createdAt: first.record.receivedAt, readyAt: first.readyAt },
    LOOP_ITERATIONS,
    null,
  );
  if (index % 3 === 2) end = rollingUpgrade(world, end + 5 * SEC);
  world.audit.sort((a, b) =>
    a.stageTimestamp < b.stageTimestamp ? -1 : a.stageTimestamp > b.stageTimestamp ? 1 : 0,
  );
  return { events: world.audit, end: end + MIN / 6 };
}

/** A person bumps the ledger cluster's image; koperator rolls its three brokers one by one. */
function rollingUpgrade(world: World, at: Micros): Micros {
  const cluster = world.cluster(CLUSTERS.ledger);
  patchKafkaCluster(world, cluster, humanActor('oncall@example.com', '198.51.100.7'), at, 'kubectl-edit');
  cluster.spec.image = 'ghcr.io/adobe/kafka:2.13-3.9.2';
  let t = at + 2 * SEC;
  const ids = [...cluster.brokers.keys()];
  for (const [i, id] of ids.entries()) {
    const r = operatorRestart(world, CLUSTERS.ledger, id, t, { keepRolling: i < ids.length - 1 });
    t = r.readyAt + 3 * SEC;
  }
  return t;
}
