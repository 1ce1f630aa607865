// Live drift (shared/spec/drift.md): out-of-band writes to running broker pods, which
// koperator's fix no longer reverts. Pure: facts in, drifts and the warnings that qualify
// them out. Reads the same broker parts as the recreation analysis, but assembles only the
// parts where someone other than the operator wrote to a pod.
import { partitionFacts } from '../analyze/partition';
import { compareTimes } from '../analyze/time';
import { assembleIncarnations } from '../analyze/timeline';
import type { AnalysisOptions } from '../analyze/options';
import type { FactStore } from '../facts/store';
import type { OperatorFact, PodWriteFact } from '../model/facts';
import type { Drift } from '../model/findings';
import { podDrifts } from './pod-drifts';

export interface DriftResult {
  drifts: Drift[];
  /** For summary.warnings: what limited the detection (drifts may be missing). */
  warnings: string[];
  /** For summary.notes: how a finding was reached, which takes nothing from it. */
  notes: string[];
}

const CANDIDATE_VERBS = new Set(['patch', 'update']);
const CANDIDATE_SUBRESOURCES = new Set([null, 'ephemeralcontainers', 'resize']);

export function findDrifts(store: FactStore, opts: AnalysisOptions): DriftResult {
  const split = partitionFacts(store);
  const configured = opts.operatorUsers ?? [];
  const operatorUsers = new Set(configured.length > 0 ? configured : split.learnedUsers);
  const drifts: Drift[] = [];
  let judgedOnDeclared = 0;
  let withoutBodies = 0;
  for (const part of split.parts) {
    // A restart loop's parts hold thousands of pods written only by the operator, the
    // scheduler and the kubelet: read from the columns, they are passed over unassembled.
    const candidate = part.pods.some(
      (i) =>
        CANDIDATE_VERBS.has(store.verbOf(i) ?? '') &&
        CANDIDATE_SUBRESOURCES.has(store.subresourceOf(i)) &&
        !operatorUsers.has(store.userOf(i) ?? ''),
    );
    if (!candidate) continue;
    const users = new Set(operatorUsers);
    const incarnations = assembleIncarnations(
      part.pods.map((j) => store.fact(j) as PodWriteFact),
      part.lines.map((j) => store.fact(j) as OperatorFact),
      users,
      configured.length === 0,
    );
    for (const inc of incarnations) {
      const found = podDrifts(inc, {
        operatorUsers: users,
        autoscalerUsers: opts.autoscalerUsers,
        envAllowlist: opts.envAllowlist,
      });
      judgedOnDeclared += found.judgedOnDeclared;
      withoutBodies += found.withoutBodies;
      for (const d of found.drifts) if (inScope(d, opts)) drifts.push(d);
    }
  }
  drifts.sort((a, b) => compareTimes(a.at, b.at));
  return {
    drifts,
    warnings: driftWarnings(withoutBodies),
    notes:
      judgedOnDeclared > 0
        ? [
            // Information, not a warning: the declared values are what koperator compares with too.
            `drift: ${judgedOnDeclared} drift(s) judged against koperator's declared values, as the data holds no state of the pod before the write`,
          ]
        : [],
  };
}

function driftWarnings(withoutBodies: number): string[] {
  const out: string[] = [];
  if (withoutBodies > 0)
    out.push(
      `drift detection was limited: ${withoutBodies} write(s) to broker pods by users other than the operator were logged at Metadata level (no bodies), so only ephemeral containers and resizes are reported from them; log pods at RequestResponse to see the rest`,
    );
  return out;
}

function inScope(d: Drift, opts: AnalysisOptions): boolean {
  if (opts.namespaces?.length && !opts.namespaces.includes(d.namespace)) return false;
  if (opts.kafkaClusters?.length && !opts.kafkaClusters.includes(d.kafkaCluster)) return false;
  if (opts.since && compareTimes(d.at, opts.since) < 0) return false;
  if (opts.until && compareTimes(d.at, opts.until) > 0) return false;
  return true;
}
