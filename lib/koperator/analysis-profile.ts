// koperator's replay as an operator profile (lib/operators/profile.ts): the steps around
// objectmatcher's diff in each version that decides differently, and its advice.
//   - before 0.30.0-rc1 (still master): handleRollingUpgrade merges tolerations, then
//     Calculate(current, desired) diffs the live pod three ways (pod-diff.ts threeWayDecision);
//   - 0.30.0-rc1 and later: podSpecIntentChanged, a two-way diff from last-applied to desired;
//     the live pod is never consulted (pod-diff.ts intentDecision).
import type { OperatorAnalysis } from '../operators/profile';
import { intentDecision, lastAppliedConfiguration, threeWayDecision } from './pod-diff';
import { FIXED_OPERATOR_VERSION, loopRecommendation } from './recommendation';
import { twinsKept } from './tolerations';

export const KOPERATOR_ANALYSIS: OperatorAnalysis = {
  id: 'koperator',
  // handleRollingUpgrade's order: tainted labels first, then the diff; a removed broker (the
  // downscale path) is told before the diff; then a dead container, then a ConfigOutOfSync.
  reconcileSteps: ['taintedLabels', 'unitRemoved', 'podDiff', 'terminatedContainer', 'unitConfigChanged'],
  diffVersions: [
    {
      since: null,
      steps: 'tolerations merged, then objectmatcher Calculate(live, desired): three-way',
      decide: threeWayDecision,
      tolerationTwins: twinsKept,
    },
    {
      since: FIXED_OPERATOR_VERSION,
      steps: 'podSpecIntentChanged: two-way, last-applied to desired; the live pod never read',
      decide: (original, modified) => intentDecision(original, modified),
    },
  ],
  fixedVersion: FIXED_OPERATOR_VERSION,
  intent: intentDecision,
  lastAppliedOf: lastAppliedConfiguration,
  loopRecommendation,
};
