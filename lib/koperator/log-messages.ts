// koperator's log messages the analysis reads (koperator-diff-semantics.md, log-line table).
export const MSG = {
  resourceDiffs: 'kafka pod resource diffs',
  brokerPodDeleted: 'broker pod deleted',
  taintedDeleting: 'pod has tainted labels, attempting to delete',
  taintedDeletingOld: 'pod has tainted labels, deleting it',
  terminatedContainer: 'terminated container for broker pod',
  specChanged: 'kafka pod spec changed',
  resourceUpdated: 'resource updated',
  resourceCreated: 'resource created',
} as const;

export const USED_MESSAGES: ReadonlySet<string> = new Set(Object.values(MSG));

export function isTaintMessage(msg: string): boolean {
  return msg === MSG.taintedDeleting || msg === MSG.taintedDeletingOld;
}
