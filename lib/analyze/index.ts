// The analysis: facts in, recreations and loops out. Pure; the CLI and the scheduled
// Lambda both call it, with a FactStore or (tests, small inputs) an array.
import type { Fact, OperatorFact, PodWriteFact } from '../model/facts';
import { FactStore } from '../facts/store';
import type { Classification, Loop, Recreation } from '../model/findings';
import { classifyDeletion } from './classify';
import { findLoops, type LoopInput } from './loops';
import { withLearnedVersions, type AnalysisOptions } from './options';
import { sortByKey, sortWithKeys } from './sort-by-key';
import { compareTimes, epochMicros } from './time';
import { partitionFacts } from './partition';
import { laterTime } from './newest-event';
import { assembleIncarnations, memberKey, type ClusterFacts, type Incarnation } from './timeline';

export interface AnalysisResult {
  recreations: Recreation[];
  loops: Loop[];
}

export function analyzeFacts(facts: Fact[] | FactStore, opts: AnalysisOptions): AnalysisResult {
  const recreations: Recreation[] = [];
  const { loops } = analyzeInto(facts, opts, {
    add: (r) => recreations.push(r),
    clear: () => (recreations.length = 0),
  });
  // Stable: recreations of the same instant keep the order they were found in.
  sortByKey(recreations, (r) => epochMicros(r.deletedPod.deletedAt));
  return { recreations, loops };
}

/**
 * Where the analysis puts recreations it may take back: when a later broker confirms an
 * operator user, the pass restarts, `clear` drops what the sink got so far, and the last
 * pass's recreations are what it holds at the end (in the order found, as analyzeFacts
 * sorts them, stably). A restart is cheaper than streamFindings' first pass for a sink
 * that can take back (an array, the CLI's spool).
 */
export interface RecreationSink {
  add(r: Recreation): void;
  clear(): void;
}

export function analyzeInto(
  facts: Fact[] | FactStore,
  opts: AnalysisOptions,
  sink: RecreationSink,
): { loops: Loop[]; recreations: number } {
  return analyze(
    facts,
    opts,
    (r) => sink.add(r),
    () => sink.clear(),
  );
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
  return analyze(facts, opts, onRecreation, null);
}

/**
 * `onRestart` null: nothing handed out may be taken back, so the users of the final pass
 * are found first; otherwise a restart calls it and starts over.
 */
function analyze(
  facts: Fact[] | FactStore,
  opts: AnalysisOptions,
  onRecreation: (r: Recreation) => void,
  onRestart: (() => void) | null,
): { loops: Loop[]; recreations: number } {
  const store = facts instanceof FactStore ? facts : FactStore.of(facts);
  const split = partitionFacts(store);
  opts = withLearnedVersions(opts, split.learnedVersions);
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
  if (learn && onRestart === null) {
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
  let forLoops = new LoopInputs();
  let kept = 0;
  for (let done = 0; done < split.parts.length; done++) {
    const known = operatorUsers.size;
    const incarnations = assemble(done);
    if (operatorUsers.size > known && done > 0) {
      if (onRestart === null) throw new Error('operator users changed on the final pass');
      onRestart();
      forLoops = new LoopInputs();
      kept = 0;
      done = -1;
      continue;
    }
    classifyBrokers(incarnations, cluster, opts, (r) => {
      forLoops.add(r);
      if (!inScope(r, opts)) return;
      kept++;
      onRecreation(r);
    });
  }
  // Loops are found on every recreation, then scoped, so a window edge does not split a loop's count.
  const loops = forLoops
    .loops(operatorUsers, laterTime(split.newestAt, opts.newestEventAt) ?? '', opts)
    .filter((l) => inScope({ ...l, deletedPod: { deletedAt: l.lastAt } }, opts));
  return { loops, recreations: kept };
}

/**
 * What findLoops reads of every recreation, as columns: its broker, user, class and field
 * list as indices into small tables, its time, and its deletion time's text (~70 bytes a
 * recreation, where a million finding objects took ~0.6 GB).
 */
class LoopInputs {
  private readonly tables = {
    broker: new Table<Pick<LoopInput, 'namespace' | 'kafkaCluster' | 'brokerId' | 'operator'>>(),
    user: new Table<string | null>(),
    classification: new Table<Classification>(),
    fields: new Table<LoopInput['fields']>(),
  };
  private broker = new Int32Array(1024);
  private user = new Int32Array(1024);
  private classification = new Int32Array(1024);
  private fields = new Int32Array(1024);
  private at = new Float64Array(1024);
  private readonly deletedAt: string[] = [];
  /** Each version range's answer, for the recreations of operators replayed by version (few). */
  private readonly byVersion = new Map<number, Record<string, boolean>>();
  private n = 0;

  add(r: Recreation): void {
    if (this.n === this.at.length) this.grow();
    const i = this.n++;
    const t = this.tables;
    this.broker[i] = t.broker.index(memberKey(r.namespace, r), () => ({
      namespace: r.namespace,
      ...(r.operator ? { operator: r.operator } : {}),
      kafkaCluster: r.kafkaCluster,
      brokerId: r.brokerId,
    }));
    if (r.wouldRestartByVersion) this.byVersion.set(i, r.wouldRestartByVersion);
    const by = r.deletedPod.deletedBy;
    this.user[i] = t.user.index(by === null ? '\u0000' : `=${by}`, () => by);
    this.classification[i] = t.classification.index(r.classification, () => r.classification);
    let key = '';
    for (const f of r.fields) key += `${f.path}\u0000${f.by ?? ''}\u0000${f.via ?? ''}\u0001`;
    this.fields[i] = t.fields.index(key, () =>
      r.fields.map((f) => ({ path: f.path, by: f.by, ...(f.via ? { via: f.via } : {}) })),
    );
    this.at[i] = epochMicros(r.deletedPod.deletedAt);
    this.deletedAt.push(r.deletedPod.deletedAt);
  }

  /**
   * findLoops on every recreation in deletion-time order (the very sort analyzeFacts makes),
   * run broker by broker in the order brokers first appear there, which is the order
   * findLoops itself groups them in: the same loops in the same order.
   */
  loops(operatorUsers: Set<string>, newestAt: string, opts: AnalysisOptions): Loop[] {
    const order = Array.from({ length: this.n }, (_, i) => i);
    sortWithKeys(order, this.at.slice(0, this.n));
    const byBroker = new Map<number, number[]>();
    for (const i of order) {
      const list = byBroker.get(this.broker[i]);
      if (list) list.push(i);
      else byBroker.set(this.broker[i], [i]);
    }
    const t = this.tables;
    const loops: Loop[] = [];
    for (const [b, list] of byBroker) {
      const broker = t.broker.value(b);
      const inputs: LoopInput[] = list.map((i) => ({
        ...broker,
        deletedPod: { deletedAt: this.deletedAt[i], deletedBy: t.user.value(this.user[i]) },
        classification: t.classification.value(this.classification[i]),
        fields: t.fields.value(this.fields[i]),
        ...(this.byVersion.has(i) ? { wouldRestartByVersion: this.byVersion.get(i) } : {}),
      }));
      for (const l of findLoops(inputs, operatorUsers, newestAt, opts)) loops.push(l);
    }
    return loops.sort((a, b) => compareTimes(a.firstAt, b.firstAt));
  }

  private grow(): void {
    const n = this.at.length * 2;
    const more = <A extends Int32Array | Float64Array>(a: A, b: A): A => {
      b.set(a);
      return b;
    };
    this.broker = more(this.broker, new Int32Array(n));
    this.user = more(this.user, new Int32Array(n));
    this.classification = more(this.classification, new Int32Array(n));
    this.fields = more(this.fields, new Int32Array(n));
    this.at = more(this.at, new Float64Array(n));
  }
}

/** Distinct values by a string key, each with its index. */
class Table<T> {
  private readonly byKey = new Map<string, number>();
  private readonly values: T[] = [];

  index(key: string, make: () => T): number {
    let i = this.byKey.get(key);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(make());
      this.byKey.set(key, i);
    }
    return i;
  }

  value(i: number): T {
    return this.values[i];
  }
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
    const k = memberKey(inc.namespace, inc.broker!);
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
