// The analysis: facts in, recreations and loops out. Pure; the CLI and the scheduled
// Lambda both call it, with a FactStore or (tests, small inputs) an array.
import type { Fact, OperatorFact, PodWriteFact } from '../model/facts';
import { FactStore } from '../facts/store';
import type { Loop, Recreation } from '../model/findings';
import { classifyDeletion } from './classify';
import { findLoops } from './loops';
import type { AnalysisOptions } from './options';
import { sortByKey } from './sort-by-key';
import { compareTimes, epochMicros } from './time';
import { partitionFacts } from './partition';
import { assembleIncarnations, type ClusterFacts, type Incarnation } from './timeline';

export interface AnalysisResult {
  recreations: Recreation[];
  loops: Loop[];
}

export function analyzeFacts(facts: Fact[] | FactStore, opts: AnalysisOptions): AnalysisResult {
  const store = facts instanceof FactStore ? facts : FactStore.of(facts);
  const split = partitionFacts(store);
  const configured = opts.operatorUsers ?? [];
  const operatorUsers = new Set(configured.length > 0 ? configured : split.learnedUsers);
  const cluster: ClusterFacts = {
    kafkaClusterWrites: split.kafkaClusterWrites,
    configMapWrites: split.configMapWrites,
    operatorUsers,
  };
  let recreations: Recreation[] = [];
  // One broker's objects at a time: the facts of a fleet's day are built as objects only
  // while their broker is classified. A part whose operator lines confirm a user not known
  // before changes which pods count as the operator's in parts already done: start over
  // with the larger set (users are few, so this happens once or twice at most).
  for (let done = 0; done < split.parts.length; done++) {
    const part = split.parts[done];
    const known = operatorUsers.size;
    const incarnations = assembleIncarnations(
      part.pods.map((i) => store.fact(i) as PodWriteFact),
      part.lines.map((i) => store.fact(i) as OperatorFact),
      operatorUsers,
      configured.length === 0,
    );
    if (operatorUsers.size > known && done > 0) {
      recreations = [];
      done = -1;
      continue;
    }
    classifyBrokers(incarnations, cluster, opts, recreations);
  }
  sortByKey(recreations, (r) => epochMicros(r.deletedPod.deletedAt));
  const kept = recreations.filter((r) => inScope(r, opts));
  // Loops are found on every recreation, then scoped, so a window edge does not split a loop's count.
  const loops = findLoops(recreations, operatorUsers, split.newestAt, opts).filter((l) =>
    inScope({ ...l, deletedPod: { deletedAt: l.lastAt } }, opts),
  );
  return { recreations: kept, loops };
}

/** Classifies every deletion of the given broker pods, each against its broker's next pod. */
function classifyBrokers(
  incarnations: Incarnation[],
  cluster: ClusterFacts,
  opts: AnalysisOptions,
  out: Recreation[],
): void {
  const byBroker = new Map<string, Incarnation[]>();
  for (const inc of incarnations) {
    const k = `${inc.namespace}\u0000${inc.broker!.kafkaCluster}\u0000${inc.broker!.brokerId}`;
    const list = byBroker.get(k);
    if (list) list.push(inc);
    else byBroker.set(k, [inc]);
  }
  for (const list of byBroker.values()) {
    const ordered = byStart(list);
    const created = ordered.filter((i) => i.createdAt !== null);
    const createdAt = new Float64Array(created.length);
    for (let i = 0; i < created.length; i++) createdAt[i] = epochMicros(created[i].createdAt!);
    for (const inc of ordered) {
      if (!inc.deletion) continue;
      const successor = successorOf(inc, created, createdAt);
      out.push(classifyDeletion(inc, successor, cluster, opts));
    }
  }
}

/** A broker's pods by creation time (deletion time for those created before the data). */
function byStart(list: Incarnation[]): Incarnation[] {
  const ordered = [...list];
  sortByKey(ordered, (i) => epochMicros(i.createdAt ?? i.deletion?.at ?? ''));
  return ordered;
}

/**
 * The next pod of the same broker created after this one's deletion began. `created` is
 * sorted by creation time (`createdAt` its times); a binary search keeps a day-long loop
 * (10^4 pods) linear-ish.
 */
function successorOf(inc: Incarnation, created: Incarnation[], createdAt: Float64Array): Incarnation | null {
  const at = epochMicros(inc.deletion!.at);
  let lo = 0;
  let hi = created.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (createdAt[mid] - at < 0) lo = mid + 1;
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
