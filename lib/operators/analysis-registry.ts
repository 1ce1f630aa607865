// The operators replayed exactly, by their replay (lib/operators/profile.ts OperatorAnalysis):
// loaded by the analysis only, never by the ingest.
import { KOPERATOR_ANALYSIS } from '../koperator/analysis-profile';
import { stepsAt, stepsBefore, type DiffVersion, type OperatorAnalysis } from './profile';

export const ANALYSES: ReadonlyMap<string, OperatorAnalysis> = new Map([
  [KOPERATOR_ANALYSIS.id, KOPERATOR_ANALYSIS],
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
