// The ground truth, in the findings contract's shape (findings-contract.md), built from what the
// simulator did rather than from what the logs show; then trimmed to what the logs can show
// where the contract says so (a uid the logs never print is null; states the logs never show
// give wouldRestart null).
import type { Classification, FieldChange, Loop, Recreation } from '../lib/model/findings';
import { fmtMicros, parseTime, SEC, type Micros } from './time';
import type { LivePod } from './world';

export interface SimRecreation {
  namespace: string;
  kafkaCluster: string;
  brokerId: string;
  deleted: { pod: LivePod; at: Micros; by: string; auditID: string };
  created: { pod: LivePod; at: Micros; auditID: string } | null;
  classification: Classification;
  fields: FieldChange[];
  wouldRestart: { threeWayMerge: boolean; intentDiff: boolean } | null;
  evidence: string[];
  /** A verbose "kafka pod resource diffs" line was logged for this deletion. */
  diffLogged: boolean;
}

export interface TruthInputs {
  recreations: readonly SimRecreation[];
  /** Every serialised audit event and operator line, to tell which uids the logs ever show. */
  haystack: string;
  /** Pod writes of this namespace are logged at Metadata level only. */
  podsAtMetadata: (namespace: string) => boolean;
  operatorUser: string;
  newestEventAt: Micros;
}

/**
 * At Metadata level a person's patch shows no body, so nothing says which field it wrote: its
 * author is unknown (null) unless the subresource says it (a resize writes only resources).
 * A webhook's name stays: the admission annotations carry it at every level.
 */
function bodilessAuthor(f: FieldChange): FieldChange {
  const webhook = f.by !== null && f.by.includes('/');
  return webhook || /\.resources(\.|$)/.test(f.path) ? f : { ...f, by: null };
}

export const DEFAULT_LOOP_MIN_COUNT = 3;
export const DEFAULT_LOOP_MAX_GAP_SECONDS = 600;

export function buildTruth(input: TruthInputs): { recreations: Recreation[]; loops: Loop[] } {
  const recreations = input.recreations
    .slice()
    .sort((a, b) => a.deleted.at - b.deleted.at)
    .map((r): Recreation => {
      const statesHidden = input.podsAtMetadata(r.namespace) && !r.diffLogged;
      // A diff-driven deletion is only decidable from the pod's states. With pod bodies out of the
      // audit log and no verbose diff line, the logs cannot tell a revert from an intent change
      // (or either from an empty diff): the contract's answer is `unknown`. A downscale (no
      // successor) stays decidable from the operator's own line and the missing successor.
      const undecidable =
        statesHidden &&
        (r.classification === 'external-mutation-revert' ||
          (r.classification === 'intent-change' && r.created !== null));
      return {
        namespace: r.namespace,
        kafkaCluster: r.kafkaCluster,
        brokerId: r.brokerId,
        deletedPod: {
          name: r.deleted.pod.name,
          uid: input.haystack.includes(r.deleted.pod.uid) ? r.deleted.pod.uid : null,
          deletedAt: fmtMicros(r.deleted.at),
          deletedBy: r.deleted.by,
        },
        createdPod: r.created
          ? {
              name: r.created.pod.name,
              uid: input.haystack.includes(r.created.pod.uid) ? r.created.pod.uid : null,
              createdAt: fmtMicros(r.created.at),
            }
          : null,
        classification: undecidable ? 'unknown' : r.classification,
        fields: undecidable
          ? []
          : input.podsAtMetadata(r.namespace) && r.classification === 'external-mutation-revert'
            ? r.fields.map(bodilessAuthor)
            : r.fields,
        wouldRestart: statesHidden ? null : r.wouldRestart,
        evidence: [...new Set(r.evidence)],
      };
    });
  return {
    recreations,
    loops: computeLoops(recreations, {
      operatorUser: input.operatorUser,
      newestEventAt: input.newestEventAt,
      minCount: DEFAULT_LOOP_MIN_COUNT,
      maxGapSeconds: DEFAULT_LOOP_MAX_GAP_SECONDS,
    }),
  };
}

export interface LoopRule {
  operatorUser: string;
  newestEventAt: Micros;
  minCount: number;
  maxGapSeconds: number;
}

function median(values: readonly number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The contract's loop rule: a run of at least `minCount` consecutive recreations of one broker,
 * each initiated by the operator, none more than `maxGapSeconds` after the previous one.
 */
export function computeLoops(recreations: readonly Recreation[], rule: LoopRule): Loop[] {
  const byBroker = new Map<string, Recreation[]>();
  for (const r of recreations) {
    const key = `${r.namespace}\u0000${r.kafkaCluster}\u0000${r.brokerId}`;
    const list = byBroker.get(key) ?? [];
    list.push(r);
    byBroker.set(key, list);
  }
  const loops: Loop[] = [];
  for (const list of byBroker.values()) {
    list.sort((a, b) => parseTime(a.deletedPod.deletedAt) - parseTime(b.deletedPod.deletedAt));
    let run: Recreation[] = [];
    const flush = (): void => {
      if (run.length >= rule.minCount) loops.push(loopOf(run, rule));
      run = [];
    };
    for (const r of list) {
      const byOperator =
        r.deletedPod.deletedBy === rule.operatorUser && r.classification !== 'external-deletion';
      if (!byOperator) {
        flush();
        continue;
      }
      const prev = run[run.length - 1];
      if (
        prev &&
        parseTime(r.deletedPod.deletedAt) - parseTime(prev.deletedPod.deletedAt) > rule.maxGapSeconds * SEC
      )
        flush();
      run.push(r);
    }
    flush();
  }
  return loops.sort((a, b) => parseTime(a.firstAt) - parseTime(b.firstAt));
}

function loopOf(run: readonly Recreation[], rule: LoopRule): Loop {
  const times = run.map((r) => parseTime(r.deletedPod.deletedAt));
  const gaps = times.slice(1).map((t, i) => (t - times[i]) / SEC);
  const period = Math.round(median(gaps) * 10) / 10;
  const counts = new Map<Classification, number>();
  for (const r of run) counts.set(r.classification, (counts.get(r.classification) ?? 0) + 1);
  const classification = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const fields: string[] = [];
  const mutators: string[] = [];
  for (const r of run) {
    for (const f of r.fields) {
      if (!fields.includes(f.path)) fields.push(f.path);
      if (f.by !== null && !mutators.includes(f.by)) mutators.push(f.by);
    }
  }
  const last = times[times.length - 1];
  return {
    namespace: run[0].namespace,
    kafkaCluster: run[0].kafkaCluster,
    brokerId: run[0].brokerId,
    classification,
    count: run.length,
    firstAt: run[0].deletedPod.deletedAt,
    lastAt: run[run.length - 1].deletedPod.deletedAt,
    periodSeconds: period,
    fields,
    mutators,
    active: rule.newestEventAt - last <= 2 * period * SEC,
    recommendation: '',
  };
}
