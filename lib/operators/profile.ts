// An operator the analyzer replays exactly, as a profile the core calls: what is the
// operator's own (its custom resource, how it labels and names its pods, its per-member
// configuration, its log lines, the steps it takes around objectmatcher's diff in each of its
// versions, its advice) behind one small interface; what every objectmatcher-based operator
// shares (strategic merge, the typed round trip, Calculate, the pod states) stays in the core
// (lib/k8s, lib/analyze). A new operator is a sibling of lib/koperator/ with these two objects
// and a table of its versions' steps, added to lib/operators/registry.ts (identity, which the
// ingest reads), lib/operators/analysis-registry.ts (the replay, which only the analysis
// loads) and lib/operators/words-registry.ts (its words, for reports and alerts), so that the
// ingest's bundles stay small.
//
// Checked against NiFiKop (konpyutaika/nifikop, pkg/resources/nifi/nifi.go) as well as
// koperator: pods listed by the labels `nifi_cr`/`nodeId`, its configuration in a Secret
// `<cluster>-config-<id>`, log messages that carry the pod's name (`Deleting pod <name>`), and
// steps around the diff that change from one version to the next.
import type { FixImpact } from '../analyze/fix-impact';
import type { Classification, FieldChange, Loop, Recreation } from '../model/findings';
import type { DiffDecision } from '../k8s/diff-decision';

/**
 * One member of an operator's cluster: koperator's broker (`kafka_cr`, `brokerId`), NiFiKop's
 * node (`nifi_cr`, `nodeId`). Findings name them in the operator's own words
 * (findings-contract.md: `kafkaCluster`/`brokerId`, `nifiCluster`/`nodeId`).
 */
export interface UnitIdentity {
  /** The cluster CR's name. */
  cluster: string;
  /** The member's id, as its label writes it. */
  unit: string;
}

/**
 * What the ingest and the fact store must know of an operator to keep its records: light,
 * no diff code (the ingest Lambda and its worker bundle it).
 */
export interface OperatorIdentity {
  /** Short name: `koperator`, `nifikop`; findings of another than koperator carry it as `operator`. */
  readonly id: string;
  /** The keys findings name its cluster and member by (findings-contract.md). */
  readonly findingKeys: { readonly cluster: string; readonly unit: string };
  /** The operator's cluster custom resource. */
  readonly cr: {
    readonly group: string;
    readonly kind: string;
    /** The audit objectRef's `resource` (plural, lower case). */
    readonly resource: string;
    /**
     * A piece of `resource` searched for in a record's raw text before it is parsed (every
     * wrapping keeps it: escaped JSON, GKE method names); shorter pieces scan faster.
     */
    readonly textPiece: string;
    /**
     * Whether the CR's `status` writes are kept: NiFiKop's carry each node's
     * `configurationState` (a config restart's cause); koperator's are never read.
     */
    readonly keepStatus?: boolean;
  };
  /**
   * Every resource of the operator's own API (its CR first): their writes belong to its exact
   * replay, never to a fight (findings-contract.md).
   */
  readonly ownResources: readonly string[];
  /**
   * CloudWatch patterns (a trailing `*`) that stand for several of ownResources in the
   * subscription filter, whose pattern must stay under 1,024 characters: koperator's `kafka*`.
   */
  readonly ownResourceFolds: readonly string[];
  /** The per-member configuration object the member restarts for (a ConfigMap, a Secret). */
  readonly unitConfig: {
    /** The audit objectRef's `resource`: `configmaps`, `secrets`. */
    readonly resource: string;
    /** The object's name, for any cluster and member. */
    readonly namePattern: RegExp;
    nameOf(cluster: string, unit: string): string;
  };
  readonly pods: {
    /** The member a pod belongs to, from its labels or owner reference (authoritative). */
    unitOfPod(pod: unknown): UnitIdentity | null;
    /** The member a pod name points at, by the operator's naming (read only when nothing else is). */
    unitOfPodName(name: string): UnitIdentity | null;
    /** The cluster CR named by the pod's owner references. */
    crOwner(pod: unknown): string | null;
    /** Whether a pod could be the operator's by anything it shows; not an identification. */
    mayBeOperatorPod(pod: unknown): boolean;
    /**
     * Every label, owner kind and API group mayBeOperatorPod looks for spells one of these
     * (barring a JSON `\u00XX` escape of an ASCII letter): a record whose text holds none of
     * them shows no pod of the operator's.
     */
    readonly markerTexts: readonly string[];
  };
  /**
   * The operator's version from the image of its own Deployment (NiFiKop's
   * `…/nifikop:v1.17.0-release`), null for any other image; absent where the version is not read
   * this way (koperator: its fix is asked of by version, not replayed by it).
   */
  versionOfImage?(image: string): string | null;
  readonly logs: {
    /** What a log line means to the analysis, from its `msg`; null: a line the analysis never reads. */
    roleOf(msg: string): LogRole | null;
    /** The message of a role that the analysis compares with directly (the messages logged). */
    readonly messages: Readonly<Record<LogRole, readonly string[]>>;
    /**
     * Where a line the analysis reads belongs, from its message and zap fields (the
     * controller-runtime context); NiFiKop's `Deleting pod <name>` names its pod in the message.
     */
    context(msg: string, fields: Record<string, unknown>): LogContext;
    /** The keys of the operator's own log calls kept in the fact (patch, current...); the rest stays behind. */
    readonly keptKeys: readonly string[];
    /**
     * Pieces of the operator's container image names: a log shipper's record of the
     * operator's container names its image (Container Insights' Fluent Bit:
     * `kubernetes.container_image`), by which the subscription filter keeps only its lines.
     */
    readonly imagePieces: readonly string[];
  };
}

/** How an operator's findings are said to people (notifications, reports). */
export interface OperatorWords {
  /** The operator's name as written in prose: `koperator`, `NiFiKop`. */
  readonly operator: string;
  /** One member, in prose: `broker`, `node`. */
  readonly unit: string;
  /** One member counted beside other operators' (a report's headline): `broker`, `NiFi node`. */
  readonly unitNoun: string;
  /** A member named in full: `kafka/events broker 2`. */
  unitOf(namespace: string, cluster: string, unit: string): string;
  /**
   * What a report loses when none of the operator's log lines was read, as a clause after
   * "recreations are classified from the audit log alone, so": the lines its analysis reads.
   */
  readonly missingLogs: string;
  /** Plain-words advice for one recreation of this class (a loop carries the analysis' own). */
  recreationAdvice(c: Classification): string;
  /**
   * Advice for one revert of fields whose writers the logs name: each writer's own remedy for
   * how it wrote (at admission, in place, by a patch), as a loop's advice gives it.
   */
  revertAdvice(written: readonly WrittenField[]): string;
  /** The fix impact (summary.fixImpact) in the words a team lead forwards to decide the upgrade. */
  readonly fixImpact: {
    headline(fi: FixImpact): string;
    /** How the downtime was measured, and what the sums leave out. */
    basis(fi: FixImpact): string;
    /** The reverts of people's writes the fix gives up, or null when there are none. */
    tampers(fi: FixImpact): string | null;
    /** A loop's reason to upgrade, for its alerts; null for loops the fix does not change. */
    loopUpgradeReason(
      loop: Pick<Loop, 'classification' | 'mutators'>,
      latest: Recreation | null,
      totalCount: number,
      autoscalerUsers?: readonly string[],
    ): string | null;
  };
}

/** Where one operator log line belongs. */
export interface LogContext {
  /** The cluster CR's name. */
  cluster: string | null;
  namespace: string | null;
  /** The pod the line is about, by name. */
  pod: string | null;
  /** The member (koperator: broker id), as a string. */
  unit: string | null;
  /** Facts of the line only its key order or shape tells (koperator: `brokerIdFirst`), kept among its fields. */
  marks: Record<string, unknown>;
}

/** The log lines the analysis reads, by what they mean rather than how an operator spells them. */
export type LogRole =
  /** The diff that triggered a restart (patch, current, modified, original). */
  | 'resourceDiffs'
  /** The operator deleted a member's pod. */
  | 'unitPodDeleted'
  /** A pod deleted for labels matching the tainted selector. */
  | 'taintedDeleting'
  /** A pod replaced for a terminated container. */
  | 'terminatedContainer'
  /** The fixed operator's intent diff. */
  | 'specChanged'
  | 'resourceUpdated'
  | 'resourceCreated'
  /** A patch of re-orderings only, taken as in sync (NiFiKop 1.15 and later: a tell of its version). */
  | 'orderOnlyInSync';

/** One version range's steps around the diff, and the decision they lead to. */
export interface DiffVersion {
  /** The first version with these steps; null for the oldest replayed. */
  readonly since: string | null;
  /** The range's name in findings' `wouldRestart` by version (NiFiKop: `<1.12`, `>=1.15`). */
  readonly label?: string;
  /** The steps, in a few words (README, tests). */
  readonly steps: string;
  /** Whether the operator at these versions deletes the pod, from its three states. */
  decide(original: unknown, modified: unknown, current: unknown): DiffDecision;
  /**
   * Declared tolerations these steps' merge keeps beside their live twin (koperator's and
   * NiFiKop's toleration merge: one with tolerationSeconds), a difference the operator restarts
   * the pod for at every reconcile; absent when the steps merge no tolerations.
   */
  tolerationTwins?(desired: unknown, live: unknown): unknown[];
}

/** A field behind a loop and who wrote it, how (`via`) where known. */
export type WrittenField = Pick<FieldChange, 'path' | 'by' | 'via'>;

/**
 * The checks an operator makes of a member's pod before it deletes it, each a class of
 * recreation when it explains the deletion (findings-contract.md, "Classes"):
 * - taintedLabels: the live labels match the tainted selector, or the operator logged so;
 * - unitRemoved: the member itself was removed (a downscale: no successor);
 * - podDiff: the diff of the version's steps around it (DiffVersion) is not empty;
 * - terminatedContainer: a container terminated, or the pod was evicted or shut down;
 * - unitConfigChanged: the member's configuration object was rewritten.
 */
export type ReconcileStep =
  'taintedLabels' | 'unitRemoved' | 'podDiff' | 'terminatedContainer' | 'unitConfigChanged';

/** What the analysis must know of an operator to replay it: its versions' steps and its words. */
export interface OperatorAnalysis {
  readonly id: string;
  /** Its checks before deleting a member's pod, in its order (a deletion by anyone else comes first). */
  readonly reconcileSteps: readonly ReconcileStep[];
  /** Versions whose steps around the diff decide differently, oldest first. */
  readonly diffVersions: readonly DiffVersion[];
  /** The version `wouldRestart` is asked of (the first that stops external-mutation loops). */
  readonly fixedVersion: string;
  /**
   * Whether an operator of unknown version is replayed with its newest steps (NiFiKop: findings
   * then say the version was assumed, and answer `wouldRestart` for every range) rather than
   * with those before the fix (koperator).
   */
  readonly assumeNewest?: boolean;
  /** The diff of the operator's intent alone (last-applied to desired): a change of its CR. */
  intent(original: unknown, modified: unknown): DiffDecision;
  /**
   * What the operator's annotator writes into the last-applied annotation for a desired pod
   * (objectmatcher's SetLastAppliedAnnotation, as the operator marshals the pod).
   */
  lastAppliedOf(desired: unknown): unknown;
  /** Plain-words advice for a loop of this classification, written by these writers. */
  loopRecommendation(classification: Classification, written: readonly WrittenField[]): string;
}

/** The steps in force at `version` (null: the oldest replayed). */
export function stepsAt(analysis: OperatorAnalysis, version: string | null): DiffVersion {
  const all = analysis.diffVersions;
  if (version === null) return all[0];
  let found = all[0];
  for (const v of all) if (v.since !== null && compareVersions(v.since, version) <= 0) found = v;
  return found;
}

/** The steps of the last version before `version`. */
export function stepsBefore(analysis: OperatorAnalysis, version: string): DiffVersion {
  const all = analysis.diffVersions;
  let found = all[0];
  for (const v of all) if (v.since !== null && compareVersions(v.since, version) < 0) found = v;
  return found;
}

/**
 * Semantic versions compared: numbers by value, a pre-release (`-rc1`) before its release.
 * Enough for operators' tags (`v1.15.0`, `0.30.0-rc1`).
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.replace(/^v/, '').split('-', 2);
    return { nums: core.split('.').map((n) => Number(n) || 0), pre: pre ?? null };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}
