// Checks of a run's settings against what the logs hold, so a setting that quietly
// changes every finding is said out loud: an operator user that never creates a broker
// pod, a --namespace or --cluster that matches nothing. Each returns warning lines for
// `summary.warnings` (the CLI prints them on stderr, the reports show them).
import { analyzeInto } from '../analyze';
import type { AnalysisOptions } from '../analyze/options';
import { partitionFacts } from '../analyze/partition';
import { factTime } from '../analyze/timeline';
import type { FactStore } from '../facts/store';
import type { Loop, Recreation } from '../model/findings';
import { identityOf } from '../operators/registry';
import { byOperatorOrder, wordsOf } from '../operators/words-registry';

// The operator replayed: the registry's default, koperator (lib/operators/).
const OPERATOR = identityOf();

/** The newest time any fact carries: the end of the logs, which "active" loops are relative to. */
export function dataEndOf(store: FactStore): string | null {
  let best = -1;
  let newest = -Infinity;
  for (let i = 0; i < store.size; i++) {
    const t = store.effectiveMicros(i);
    if (t > newest) {
      newest = t;
      best = i;
    }
  }
  return best < 0 ? null : factTime(store.fact(best)) || null;
}

/** The oldest time any fact carries: where the logs begin. */
export function dataStartOf(store: FactStore): string | null {
  let best = -1;
  let oldest = Infinity;
  for (let i = 0; i < store.size; i++) {
    if (store.effectiveTimeIsEmpty(i)) continue;
    const t = store.effectiveMicros(i);
    if (t < oldest) {
      oldest = t;
      best = i;
    }
  }
  return best < 0 ? null : factTime(store.fact(best)) || null;
}

/**
 * A --since/--until window that holds none of the logs: 0 recreations then says nothing
 * about the cluster, so it is said out loud, as a --namespace that matches nothing is.
 */
export function windowWarnings(
  opts: Pick<AnalysisOptions, 'since' | 'until'>,
  range: { start: string | null; end: string | null },
): string[] {
  const { since, until } = opts;
  if (since === undefined && until === undefined) return [];
  if (since !== undefined && until !== undefined && Date.parse(since) > Date.parse(until))
    return [`--since ${since} is after --until ${until}: the window holds no event`];
  if (range.start === null || range.end === null) return [];
  const logs = `the logs run from ${range.start} to ${range.end}`;
  if (since !== undefined && Date.parse(since) > Date.parse(range.end))
    return [`--since ${since} is after the newest event read: the window holds no event (${logs})`];
  if (until !== undefined && Date.parse(until) < Date.parse(range.start))
    return [`--until ${until} is before the oldest event read: the window holds no event (${logs})`];
  return [];
}

const LIST_AT_MOST = 8;

function listed(values: Iterable<string>): string {
  const all = [...values].sort();
  if (all.length === 0) return 'none';
  const head = all.slice(0, LIST_AT_MOST).join(', ');
  return all.length > LIST_AT_MOST ? `${head} and ${all.length - LIST_AT_MOST} more` : head;
}

/** `--namespace` and `--cluster` values that name no broker pod or KafkaCluster in the logs. */
export function scopeWarnings(store: FactStore, opts: AnalysisOptions): string[] {
  if (!opts.namespaces?.length && !opts.kafkaClusters?.length) return [];
  const namespaces = new Set<string>();
  const clusters = new Set<string>();
  /** Namespaces each KafkaCluster name is seen in. */
  const homes = new Map<string, Set<string>>();
  const seen = (ns: string | null, cluster: string) => {
    clusters.add(cluster);
    if (!ns) return;
    namespaces.add(ns);
    const h = homes.get(cluster) ?? new Set<string>();
    h.add(ns);
    homes.set(cluster, h);
  };
  for (let i = 0; i < store.size; i++) {
    const type = store.type(i);
    const ns = store.namespaceOf(i);
    const name = store.nameOf(i);
    if (type === 'pod' && name) {
      const b = OPERATOR.pods.unitOfPodName(name);
      if (b) seen(ns, b.cluster);
    } else if (type === 'kafkacluster' && name) {
      seen(ns, name);
    }
  }
  const out: string[] = [];
  for (const ns of opts.namespaces ?? []) {
    if (!namespaces.has(ns))
      out.push(
        `--namespace ${ns} matches no broker pod in the logs (namespaces seen: ${listed(namespaces)})`,
      );
  }
  for (const c of opts.kafkaClusters ?? []) {
    if (!clusters.has(c))
      out.push(
        `--cluster ${c} matches no KafkaCluster in the logs (KafkaClusters seen: ${listed(clusters)})`,
      );
    else if (
      opts.namespaces?.length &&
      ![...(homes.get(c) ?? [])].some((ns) => opts.namespaces!.includes(ns))
    )
      out.push(
        `--cluster ${c} is not in --namespace ${opts.namespaces.join(', ')} (it is in ${listed(homes.get(c) ?? [])})`,
      );
  }
  return out;
}

function recreationKey(r: Recreation): string {
  return r.deletedPod.uid ?? `${r.namespace}/${r.deletedPod.name}@${r.deletedPod.deletedAt}`;
}

/**
 * Configured operator users that never create a broker pod while another user does: the
 * analysis then takes every deletion for an external one and finds no loop. Says who does
 * create them, and what changes with that user (by running the analysis again with the
 * operator learned from the logs; only in this case, so it costs nothing otherwise).
 */
export function operatorUserWarnings(
  store: FactStore,
  opts: AnalysisOptions,
  result: { recreations: Iterable<Recreation>; loops: readonly Loop[] },
): string[] {
  const configured = opts.operatorUsers ?? [];
  if (configured.length === 0) return [];
  const learned = partitionFacts(store).learnedUsers;
  const who = configured.join(', ');
  if (learned.length === 0) {
    for (let i = 0; i < store.size; i++) {
      if (store.type(i) === 'pod' && configured.includes(store.userOf(i) ?? '')) return [];
    }
    return store.size > 0 ? [`operator user ${who} never wrote to a pod in these logs`] : [];
  }
  if (learned.some((u) => configured.includes(u))) return [];
  const before = new Map<string, string>();
  for (const r of result.recreations) before.set(recreationKey(r), r.classification);
  let changed = 0;
  const alt = analyzeInto(
    store,
    { ...opts, operatorUsers: undefined },
    {
      add: (r) => {
        if (before.get(recreationKey(r)) !== r.classification) changed++;
      },
      clear: () => (changed = 0),
    },
  );
  const seen = learned.join(', ');
  return [
    `operator user ${who} never created a broker pod in these logs, while ${seen} did: ` +
      `with ${learned.length === 1 ? 'that user' : 'those users'} as the operator, ${changed} of ` +
      `${alt.recreations} recreation(s) change class and ${alt.loops.length} loop(s) are found ` +
      `(${result.loops.length} now). Set --operator-user ${learned[0]} (or operatorUsers in the config file), ` +
      `or leave it unset to learn it from the logs.`,
  ];
}

/**
 * Recreations found while not one operator log line was read: the classes still come from
 * the audit log's pod states, but what only the operator says is missing, and the reader
 * must know before trusting an `unknown` or a class the logs would have confirmed.
 */
export function operatorLogWarnings(
  store: FactStore,
  /** The operators of the recreations and loops found (Recreation.operator; absent: koperator's). */
  operators: Iterable<string | undefined>,
): string[] {
  const found = [...new Set([...operators].map((o) => o ?? 'koperator'))].sort(byOperatorOrder);
  if (found.length === 0) return [];
  for (let i = 0; i < store.size; i++) if (store.type(i) === 'operator') return [];
  // One line per operator whose members were found, in its own words: NiFiKop's reader must
  // not be told about koperator's lines.
  return found.map((id) => {
    const w = wordsOf(id);
    return (
      `no ${w.operator} log line was read: recreations are classified from the audit log alone, so ${w.missingLogs}. ` +
      `Ship its logs with the audit logs (on EKS: eksOperatorLogs, docs/deploying.md "Operator logs")`
    );
  });
}

/**
 * Whether an alert of this kind rests on what the missing operator lines would have said
 * (`warnings`: operatorLogWarnings of its run): loops and recreations do; fights and drifts
 * are read off the audit log alone.
 */
export function missesOperatorLogs(
  kind: 'loop' | 'recreation' | 'fight' | 'drift',
  warnings: readonly string[],
): boolean {
  return warnings.length > 0 && (kind === 'loop' || kind === 'recreation');
}
