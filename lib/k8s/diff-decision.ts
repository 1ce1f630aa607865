// What an objectmatcher-based operator's diff decides about a pod: shared by every operator
// profile (lib/operators/profile.ts), whatever steps it takes around the diff.
import type { Patch } from './strategic-merge';

export interface FieldDiff {
  path: string;
  from: unknown;
  to: unknown;
}

export interface DiffDecision {
  changed: boolean;
  patch: Patch;
  fields: FieldDiff[];
  /**
   * Set when the patch could not be computed (a malformed pod). The operator logs such an
   * error and carries on into the rolling upgrade, so `changed` is then true with an empty patch.
   */
  error?: string;
}
