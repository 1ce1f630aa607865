// The analysis: facts in, recreations and loops out. Pure; the CLI and the scheduled
// Lambda both call it.
import type { Fact } from '../model/facts';
import type { Loop, Recreation } from '../model/findings';
import { classifyDeletion } from './classify';
import { findLoops } from './loops';
import type { AnalysisOptions } from './options';
import { compareTimes } from './time';
import { buildTimeline, type Incarnation } from './timeline';

export interface AnalysisResult {
  recreations: Recreation[];
  loops: Loop[];
}

export function analyzeFacts(facts: Fact[], opts: AnalysisOptions): AnalysisResult {
  const tl = buildTimeline(facts, opts.operatorUsers ?? []);
  const byBroker = new Map<string, Incarnation[]>();
  for (const inc of tl.incarnations) {
    const k = `${inc.namespace}\u0000${inc.broker!.kafkaCluster}\u0000${inc.broker!.brokerId}`;
    const list = byBroker.get(k) ?? [];
    list.push(inc);
    byBroker.set(k, list);
  }
  const recreations: Recreation[] = [];
  for (const list of byBroker.values()) {
    const ordered = [...list].sort((a, b) =>
      compareTimes(a.createdAt ?? a.deletion?.at ?? '', b.createdAt ?? b.deletion?.at ?? ''),
    );
    const created = ordered.filter((i) => i.createdAt !== null);
    for (const inc of ordered) {
      if (!inc.deletion) continue;
      const successor = successorOf(inc, created);
      recreations.push(classifyDeletion(inc, successor, tl, opts));
    }
  }
  recreations.sort((a, b) => compareTimes(a.deletedPod.deletedAt, b.deletedPod.deletedAt));
  const kept = recreations.filter((r) => inScope(r, opts));
  // Loops are found on every recreation, then scoped, so a window edge does not split a loop's count.
  const loops = findLoops(recreations, tl.operatorUsers, tl.newestAt, opts).filter((l) =>
    inScope({ ...l, deletedPod: { deletedAt: l.lastAt } }, opts),
  );
  return { recreations: kept, loops };
}

/**
 * The next pod of the same broker created after this one's deletion began. `created` is
 * sorted by creation time; a binary search keeps a day-long loop (10^4 pods) linear-ish.
 */
function successorOf(inc: Incarnation, created: Incarnation[]): Incarnation | null {
  const at = inc.deletion!.at;
  let lo = 0;
  let hi = created.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTimes(created[mid].createdAt!, at) < 0) lo = mid + 1;
    else hi = mid;
  }
  while (lo < created.length && created[lo] === inc) lo++;
  return lo < created.length ? created[lo] : null;
}

function inScope(
  r: { namespace: string; kafkaCluster: string; deletedPod: { deletedAt: string } },
  opts: AnalysisOptions,
): boolean {
  if (opts.namespaces?.length && !opts.namespaces.includes(r.namespace)) return false;
  if (opts.kafkaClusters?.length && !opts.kafkaClusters.includes(r.kafkaCluster)) return false;
  if (opts.since && compareTimes(r.deletedPod.deletedAt, opts.since) < 0) return false;
  if (opts.until && compareTimes(r.deletedPod.deletedAt, opts.until) > 0) return false;
  return true;
}
