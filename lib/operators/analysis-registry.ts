// The operators replayed exactly, by their replay (lib/operators/profile.ts OperatorAnalysis):
// loaded by the analysis only, never by the ingest.
import { KOPERATOR_ANALYSIS } from '../koperator/analysis-profile';
import { NIFIKOP_ANALYSIS } from '../nifikop/analysis-profile';
import { stepsAt, stepsBefore, type DiffVersion, type OperatorAnalysis } from './profile';

export const ANALYSES: ReadonlyMap<string, OperatorAnalysis> = new Map([
  [KOPERATOR_ANALYSIS.id, KOPERATOR_ANALYSIS],
  [NIFIKOP_ANALYSIS.id, NIFIKOP_ANALYSIS],
]);

/** The analysis of the operator `id` (koperator when none is named: a finding without `operator`). */
export function analysisOf(id = 'koperator'): OperatorAnalysis {
  const a = ANALYSES.get(id);
  if (!a) throw new Error(`no operator profile named ${id}`);
  return a;
}

/** The steps of the versions before the fix, and of the fix: the two `wouldRestart` compares. */
export function beforeAndAfterFix(a: OperatorAnalysis): { before: DiffVersion; fixed: DiffVersion } {
  return { before: stepsBefore(a, a.fixedVersion), fixed: stepsAt(a, a.fixedVersion) };
}

/**
 * The steps the running operator is replayed with: those of `version` when it is known (a flag);
 * else, for an operator whose profile says so (NiFiKop), the newest, `assumed` (the finding says
 * so); else those before the fix (koperator: the version its loops are found in).
 */
export function runningSteps(
  a: OperatorAnalysis,
  version?: string,
): { steps: DiffVersion; assumed: boolean } {
  if (version !== undefined) return { steps: stepsAt(a, version), assumed: false };
  if (a.assumeNewest) return { steps: a.diffVersions[a.diffVersions.length - 1], assumed: true };
  return { steps: stepsBefore(a, a.fixedVersion), assumed: false };
}

/** For each of the operator's version ranges, whether it would delete the pod (keyed by label). */
export function restartByVersion(
  a: OperatorAnalysis,
  original: unknown,
  modified: unknown,
  current: unknown,
): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const v of a.diffVersions)
    out[v.label ?? v.since ?? 'oldest'] = v.decide(original, modified, current).changed;
  return out;
}

/** The first version range from which none restarts, given each recreation's answers; null if none. */
export function firstStoppingRange(
  a: OperatorAnalysis,
  answers: ReadonlyArray<Record<string, boolean>>,
): string | null {
  const labels = a.diffVersions.map((v) => v.label ?? v.since ?? 'oldest');
  for (let i = 0; i < labels.length; i++)
    if (labels.slice(i).every((l) => answers.every((ans) => ans[l] === false))) return labels[i];
  return null;
}
