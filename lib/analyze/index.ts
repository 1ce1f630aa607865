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
    const ordered = [...list].sort((a, b) => compareTimes(a.createdAt ?? a.deletion?.at ?? '', b.createdAt ?? b.deletion?.at ?? ''));
    for (const inc of ordered) {
      if (!inc.deletion) continue;
      const successor = successorOf(inc, ordered);
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

/** The next pod of the same broker created after this one's deletion began. */
function successorOf(inc: Incarnation, ordered: Incarnation[]): Incarnation | null {
  const at = inc.deletion!.at;
  let best: Incarnation | null = null;
  for (const other of ordered) {
    if (other === inc || !other.createdAt) continue;
    if (compareTimes(other.createdAt, at) < 0) continue;
    if (!best || compareTimes(other.createdAt, best.createdAt!) < 0) best = other;
  }
  return best;
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
