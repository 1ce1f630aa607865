// The analysis: facts in, recreations and loops out. Pure; the CLI and the scheduled
// Lambda both call it, with a FactStore or (tests, small inputs) an array.
import type { Fact, OperatorFact, PodWriteFact } from '../model/facts';
import { FactStore } from '../facts/store';
import type { Loop, Recreation } from '../model/findings';
import { classifyDeletion } from './classify';
import { findLoops, type LoopInput } from './loops';
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
  const recreations: Recreation[] = [];
  const { loops } = streamFindings(facts, opts, (r) => recreations.push(r));
  // Stable: recreations of the same instant keep the order they were found in.
  sortByKey(recreations, (r) => epochMicros(r.deletedPod.deletedAt));
  return { recreations, loops };
}

/**
 * The analysis with its recreations handed to `onRecreation` as each broker is classified
 * (in that order, not by time: a caller that wants them by time sorts them, stably, by
 * deletion time, as analyzeFacts does), so a day of a fleet need not hold a million finding
 * objects. Loops are found at the end on what they read of every recreation (a few shared
 * strings each), exactly as analyzeFacts finds them.
 */
export function streamFindings(
  facts: Fact[] | FactStore,
  opts: AnalysisOptions,
  onRecreation: (r: Recreation) => void,
): { loops: Loop[]; recreations: number } {
  const store = facts instanceof FactStore ? facts : FactStore.of(facts);
  const split = partitionFacts(store);
  const configured = opts.operatorUsers ?? [];
  const learn = configured.length === 0;
  const cluster: ClusterFacts = {
    kafkaClusterWrites: split.kafkaClusterWrites,
    configMapWrites: split.configMapWrites,
    operatorUsers: new Set(configured.length > 0 ? configured : split.learnedUsers),
  };
  const operatorUsers = cluster.operatorUsers;
  const assemble = (i: number) => {
    const part = split.parts[i];
    return assembleIncarnations(
      part.pods.map((j) => store.fact(j) as PodWriteFact),
      part.lines.map((j) => store.fact(j) as OperatorFact),
      operatorUsers,
      learn,
    );
  };
  // A part whose operator lines confirm a user not known before changes which pods count as
  // the operator's in parts already done: the analysis is that of the last pass over the
  // parts, the one no part restarts. Which users it starts with is found first, by
  // assembling alone (users are few, so this restarts once or twice at most), so that no
  // recreation is handed out that a restart would take back.
  if (learn) {
    let start = [...operatorUsers];
    for (let done = 0; done < split.parts.length; done++) {
      const known = operatorUsers.size;
      assemble(done);
      if (operatorUsers.size > known && done > 0) {
        start = [...operatorUsers];
        done = -1;
      }
    }
    operatorUsers.clear();
    for (const u of start) operatorUsers.add(u);
  }
  const forLoops: LoopInput[] = [];
  const shared = new Map<string, LoopInput['fields']>();
  let kept = 0;
  for (let done = 0; done < split.parts.length; done++) {
    const known = operatorUsers.size;
    const incarnations = assemble(done);
    if (operatorUsers.size > known && done > 0) throw new Error('operator users changed on the final pass');
    classifyBrokers(incarnations, cluster, opts, (r) => {
      forLoops.push(loopInput(r, shared));
      if (!inScope(r, opts)) return;
      kept++;
      onRecreation(r);
    });
  }
  sortByKey(forLoops, (r) => epochMicros(r.deletedPod.deletedAt));
  // Loops are found on every recreation, then scoped, so a window edge does not split a loop's count.
  const loops = findLoops(forLoops, operatorUsers, split.newestAt, opts).filter((l) =>
    inScope({ ...l, deletedPod: { deletedAt: l.lastAt } }, opts),
  );
  return { loops, recreations: kept };
}

/** A recreation as findLoops reads it; its fields' paths and mutators shared between equal lists. */
function loopInput(r: Recreation, shared: Map<string, LoopInput['fields']>): LoopInput {
  let key = '';
  for (const f of r.fields) key += `${f.path}\u0000${f.by ?? ''}\u0001`;
  let fields = shared.get(key);
  if (fields === undefined) {
    fields = r.fields.map((f) => ({ path: f.path, by: f.by }));
    shared.set(key, fields);
  }
  return {
    namespace: r.namespace,
    kafkaCluster: r.kafkaCluster,
    brokerId: r.brokerId,
    deletedPod: { deletedAt: r.deletedPod.deletedAt, deletedBy: r.deletedPod.deletedBy },
    classification: r.classification,
    fields,
  };
}

/** Classifies every deletion of the given broker pods, each against its broker's next pod. */
function classifyBrokers(
  incarnations: Incarnation[],
  cluster: ClusterFacts,
  opts: AnalysisOptions,
  out: (r: Recreation) => void,
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
      out(classifyDeletion(inc, successor, cluster, opts));
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
