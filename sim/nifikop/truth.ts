// NiFiKop's ground truth in the findings contract's shape for an operator other than koperator
// ("Operators other than koperator"): the rules of koperator's truth (../truth.ts: what the logs
// can show, the loop rule) in NiFiKop's keys, `wouldRestart` by version range, and each loop with
// the first range of versions that would have kept every one of its pods (`stoppedByVersion`).
import type { Loop, Recreation } from '../../lib/model/findings';
import { buildTruth, type SimRecreation } from '../truth';
import type { Micros } from '../time';
import type { NifiRecreation } from './operator';
import { NIFIKOP_RANGES } from './reconcile';

/** Another operator's member in place of koperator's broker (findings-contract.md). */
interface NifiMember {
  operator: 'nifikop';
  nifiCluster: string;
  nodeId: string;
}

export type NifiTruthRecreation = Omit<
  Recreation,
  'operator' | 'kafkaCluster' | 'brokerId' | 'wouldRestart' | 'wouldRestartByVersion'
> &
  NifiMember & { wouldRestart: Record<string, boolean> | null };

export type NifiTruthLoop = Omit<Loop, 'operator' | 'kafkaCluster' | 'brokerId'> & NifiMember;

export interface NifiTruthInputs {
  haystack: string;
  podsAtMetadata: (namespace: string) => boolean;
  operatorUser: string;
  newestEventAt: Micros;
}

/** The first range from which no recreation of the run would have happened; null when none. */
function stoppedBy(answers: ReadonlyArray<Record<string, boolean>>): string | null {
  const labels = NIFIKOP_RANGES.map((r) => r.label);
  const i = labels.findIndex((_, k) => labels.slice(k).every((l) => answers.every((a) => a[l] === false)));
  return i < 0 ? null : labels[i];
}

export function nifikopTruth(
  recs: readonly NifiRecreation[],
  input: NifiTruthInputs,
): { recreations: NifiTruthRecreation[]; loops: NifiTruthLoop[] } {
  const sim: SimRecreation[] = recs.map((r) => ({
    ...r,
    kafkaCluster: r.nifiCluster,
    brokerId: r.nodeId,
    wouldRestart: null,
  }));
  const truth = buildTruth({ ...input, recreations: sim });
  const byPod = new Map(recs.map((r) => [r.deleted.pod.name, r]));
  const recreations = truth.recreations.map((t): NifiTruthRecreation => {
    const r = byPod.get(t.deletedPod.name)!;
    const { kafkaCluster, brokerId, wouldRestart: _none, ...rest } = t;
    // With no pod bodies the pods are known from the debug line alone, which logs them after the
    // running version's steps (objectmatcher's Modified and Current): the other ranges cannot be
    // replayed from them, so no answer by version is shown.
    const hidden = input.podsAtMetadata(r.namespace);
    return {
      ...rest,
      operator: 'nifikop',
      nifiCluster: kafkaCluster,
      nodeId: brokerId,
      wouldRestart: hidden ? null : r.wouldRestart,
    };
  });
  const loops = truth.loops.map((l): NifiTruthLoop => {
    const { kafkaCluster, brokerId, ...rest } = l;
    const members = recreations.filter(
      (r) =>
        r.namespace === l.namespace &&
        r.nifiCluster === kafkaCluster &&
        r.nodeId === brokerId &&
        r.deletedPod.deletedAt >= l.firstAt &&
        r.deletedPod.deletedAt <= l.lastAt,
    );
    const answers = members.flatMap((r) => (r.wouldRestart ? [r.wouldRestart] : []));
    return {
      ...rest,
      operator: 'nifikop',
      nifiCluster: kafkaCluster,
      nodeId: brokerId,
      ...(answers.length > 0 && answers.length === members.length
        ? { stoppedByVersion: stoppedBy(answers) }
        : {}),
    };
  });
  return { recreations, loops };
}
