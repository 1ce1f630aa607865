// The analysis contract (shared/spec/findings-contract.md), key for key.
import type { ValueChange } from '../k8s/value-change';

export type Classification =
  | 'intent-change'
  | 'external-mutation-revert'
  | 'config-change'
  | 'tainted-restart'
  | 'container-terminated'
  | 'external-deletion'
  | 'unknown';

export const CLASSIFICATIONS: readonly Classification[] = [
  'intent-change',
  'external-mutation-revert',
  'config-change',
  'tainted-restart',
  'container-terminated',
  'external-deletion',
  'unknown',
];

/**
 * How the writer named in `by` set a field's live value: a mutating webhook at admission, an
 * in-place resize through the pod's `resize` subresource, or a write (patch or update) of the
 * pod itself. Each has its own remedy, so the advice names it.
 */
export type WriteVia = 'admission' | 'resize' | 'write';

export const WRITE_VIAS: readonly WriteVia[] = ['admission', 'resize', 'write'];

export interface FieldChange {
  path: string;
  from: unknown;
  to: unknown;
  by: string | null;
  /** What changed, step by step (k8s/value-change.ts); set where from/to are cut short, as in a trimmed alert. */
  change?: ValueChange[];
  /** On an external-mutation-revert field whose writer is known (an extension of the contract). */
  via?: WriteVia;
}

export interface DeletedPod {
  name: string;
  uid: string | null;
  deletedAt: string;
  deletedBy: string | null;
}

export interface CreatedPod {
  name: string;
  uid: string | null;
  createdAt: string;
  /**
   * The successor's first Ready=True status write (requestReceivedTimestamp); null where the
   * logs show none (no pod status logged, or it never became ready in the data). An addition
   * to the contract's keys, which checks ignore; absent from findings made before it existed.
   */
  readyAt?: string | null;
}

export interface Recreation {
  namespace: string;
  /**
   * The operator, for one other than koperator (`nifikop`); absent: koperator's. The JSON
   * document then names its cluster and member in that operator's words (`nifiCluster`,
   * `nodeId`) in place of `kafkaCluster`/`brokerId`, which hold them here.
   */
  operator?: string;
  kafkaCluster: string;
  brokerId: string;
  deletedPod: DeletedPod;
  createdPod: CreatedPod | null;
  classification: Classification;
  fields: FieldChange[];
  wouldRestart: { threeWayMerge: boolean; intentDiff: boolean } | null;
  /**
   * For an operator replayed version by version (NiFiKop): whether each range of its versions
   * that decides differently would delete the pod; the document's `wouldRestart` for it. The
   * internal `wouldRestart` then holds the running (or assumed) version's answer and the newest's.
   */
  wouldRestartByVersion?: Record<string, boolean>;
  evidence: string[];
}

export interface Loop {
  namespace: string;
  /** As Recreation.operator. */
  operator?: string;
  kafkaCluster: string;
  brokerId: string;
  classification: Classification;
  count: number;
  firstAt: string;
  lastAt: string;
  periodSeconds: number;
  fields: string[];
  mutators: string[];
  active: boolean;
  /** Plain-words advice; an addition to the contract's keys, which checks ignore. */
  recommendation: string;
  /**
   * For an operator replayed version by version (NiFiKop): the first range of its versions from
   * which none of the loop's recreations would happen, or null when no version stops it.
   */
  stoppedByVersion?: string | null;
}

/** A controller other than koperator fighting a mutator or another writer (fights.md). */
export type FightKind = 'recreate-loop' | 'field-fight' | 'hot-loop';

export interface FightTarget {
  apiGroup: string;
  resource: string;
  name: string;
  /** recreate-loop only: the pod name, or its generateName without the trailing `-`. */
  slot?: string;
}

export interface Fight {
  kind: FightKind;
  namespace: string | null;
  target: FightTarget;
  writers: string[];
  mutators: string[];
  fields: string[];
  count: number;
  firstAt: string;
  lastAt: string;
  periodSeconds: number;
  active: boolean;
  recommendation: string;
  evidence: string[];
}

/** Live drift (drift.md): an out-of-band write to a running broker pod. */
export type DriftKind = 'ephemeral-container' | 'image' | 'resources' | 'tolerations' | 'metadata' | 'other';

export const DRIFT_KINDS: readonly DriftKind[] = [
  'ephemeral-container',
  'image',
  'resources',
  'tolerations',
  'metadata',
  'other',
];

export type DriftSeverity = 'tamper' | 'autoscaler' | 'change';

export const DRIFT_SEVERITIES: readonly DriftSeverity[] = ['tamper', 'autoscaler', 'change'];

export interface DriftField {
  path: string;
  /** The value koperator declares (last-applied); null where it declares none. */
  declared: unknown;
  /** The value stored at the path after the write; null where it was removed. */
  to: unknown;
}

export interface Drift {
  namespace: string;
  kafkaCluster: string;
  brokerId: string;
  pod: { name: string; uid: string | null };
  at: string;
  by: string;
  verb: string;
  subresource: string;
  kind: DriftKind;
  fields: DriftField[];
  severity: DriftSeverity;
  ended: { at: string; how: 'pod-deleted' | 'reverted' } | null;
  preFixWouldRevert: boolean;
  evidence: string[];
}

/** An input named on the command line (or configured) that could not be listed or opened. */
export interface InputError {
  input: string;
  reason: string;
}

export interface FindingsDocument {
  recreations: Recreation[];
  loops: Loop[];
  /** Always present in the JSON document; optional here until every producer fills it. */
  fights?: Fight[];
  /** Always present in the JSON document; optional here until every producer fills it. */
  drifts?: Drift[];
  summary: Record<string, unknown> & { inputErrors?: InputError[] };
}

/**
 * Recreations read in the document's order and counted without being held all at once:
 * an array, or the spool the CLI writes them to (lib/analyze/recreation-spool.ts).
 */
export interface RecreationList extends Iterable<Recreation> {
  readonly length: number;
}

/** A findings document whose recreations may be a spool, for the writers that stream. */
export interface StreamedFindings extends Omit<FindingsDocument, 'recreations'> {
  recreations: RecreationList;
}
