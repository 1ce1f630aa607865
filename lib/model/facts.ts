// Facts: the small, versioned, serialisable projection of the logs that the analysis
// reads. The local CLI keeps them in memory; the Lambda ingest writes them to S3 as
// JSON lines; the same analysis code reads both. Secrets never reach a fact: ConfigMap
// and KafkaCluster writes keep metadata only, users keep their name only.
import type { Operation } from 'fast-json-patch';
import type { SourceRef } from './record';

/**
 * The version facts are written in. Readers accept every version from
 * MIN_FACTS_VERSION (lib/facts/upgrade.ts) to this one, upgrading older facts step by step.
 * 2: status bodies keep the pod's Ready condition (`status.conditions: [{type: 'Ready', status}]`).
 * 3: the header names the newest event read from the source object (`newestEventAt`), kept or not.
 */
export const FACTS_VERSION = 3;

/** One mutating webhook's admission of a pod create (from the audit annotations). */
export interface WebhookMutation {
  round: number;
  index: number;
  configuration: string;
  webhook: string;
  mutated: boolean;
  /** The webhook's own RFC 6902 patch, present at Request level and above. */
  patch?: Operation[];
  /**
   * For pods koperator does not own (fights.md): the contract paths this webhook's patch
   * changed, computed when projected so that the patch itself need not be kept.
   */
  paths?: string[];
}

interface FactBase {
  /** requestReceivedTimestamp for audit facts, `ts` for operator lines (RFC 3339). */
  at: string;
  src: SourceRef;
}

interface AuditFactBase extends FactBase {
  auditID: string;
  stage: string;
  level: string;
  verb: string;
  user: string;
  /** stageTimestamp: the order writes took effect in. */
  doneAt: string;
  namespace: string;
  name: string | null;
  uid: string | null;
  subresource: string | null;
  code: number | null;
  /**
   * `impersonatedUser.username` when the request was impersonated (`kubectl --as`): findings
   * name that user (findings-contract.md, "Users"); `user` stays the one who authenticated.
   * Optional, so facts stored before it existed still read.
   */
  impersonated?: string;
}

/**
 * A write to a pod or one of its subresources (binding, eviction, resize, status...).
 * Bodies are kept only as far as the analysis needs them: pods without managedFields,
 * patch bodies as sent, status reduced to phase/reason and container terminations.
 */
export interface PodWriteFact extends AuditFactBase {
  type: 'pod';
  /** The pod as received (create/update) or the patch body (patch). */
  request?: unknown;
  /** The pod as stored after admission. */
  response?: unknown;
  /** For patches: 'json' | 'merge' | 'strategic-merge' | 'apply', from the body's shape or requestURI. */
  patchType?: 'json' | 'merge' | 'strategic-merge' | 'apply';
  webhooks?: WebhookMutation[];
  /** The audit event was truncated by the API server or CloudWatch: bodies lost. */
  truncated?: boolean;
  /** Delete options' preconditions uid / gracePeriodSeconds, to recognise the kubelet's final delete. */
  gracePeriodSeconds?: number;
  /** The request was a dry run (`dryRun=` in its requestURI): the API server stored nothing. */
  dryRun?: true;
  /**
   * A write to `pods/ephemeralcontainers` whose bodies are of kind `EphemeralContainers`
   * (Kubernetes before 1.22), not `Pod`: the list as stored after it. Such a body is never
   * kept as `response`, which every reader takes for the whole pod.
   */
  ephemeralContainers?: unknown[];
}

/** A write to a KafkaCluster custom resource (usually logged at Metadata level). */
export interface KafkaClusterWriteFact extends AuditFactBase {
  type: 'kafkacluster';
  /**
   * On a kept `status` write (NiFiKop's NifiCluster): the members its body sets to
   * `ConfigOutOfSync` (`status.nodesState.<id>.configurationState`), the cause of a config
   * restart; nothing else of the body is kept. Absent where the level shows no body.
   */
  configOutOfSync?: string[];
}

/** A write to a ConfigMap (metadata only; never its data). */
export interface ConfigMapWriteFact extends AuditFactBase {
  type: 'configmap';
}

/** A koperator log line the analysis uses. */
export interface OperatorFact extends FactBase {
  type: 'operator';
  msg: string;
  level: string;
  /** KafkaCluster name and namespace from the controller-runtime context. */
  kafkaCluster: string | null;
  namespace: string | null;
  pod: string | null;
  brokerId: string | null;
  /** The call's own keys the analysis reads (patch/original/modified/current, containerName, exitCode, reason, status). */
  fields: Record<string, unknown>;
}

/**
 * A write to an object other than a pod that a fight detector reads (lib/fights/): a
 * Deployment and its `scale`, a StatefulSet, a webhook configuration, a custom resource...
 * No body is kept: only, per path the write set, a token of its value (numbers and booleans
 * as JSON, anything else as a hash), so that no secret can reach a fact.
 */
export interface ObjectWriteFact extends AuditFactBase {
  type: 'object';
  apiGroup: string;
  resource: string;
  /** Path (contract syntax, from the parent's root for `scale`) → value token, where the level shows bodies. */
  values?: Record<string, string>;
  /** The body was the whole object (an update): paths it lacks were removed. */
  whole?: boolean;
  /** Top-most paths the response has and a whole-object patch lacked (outside metadata and status). */
  defaulted?: string[];
  /** metadata.generation of the object after the write. */
  generation?: number;
  /** spec.replicas after the write (or as the body set it), for owners that scale their pods. */
  replicas?: number;
  /**
   * A replayed operator's version, from the image its own Deployment's body names (NiFiKop's
   * `…/nifikop:v1.17.0-release`); absent on every other write.
   */
  operatorVersion?: { operator: string; version: string };
}

export type Fact = PodWriteFact | KafkaClusterWriteFact | ConfigMapWriteFact | OperatorFact | ObjectWriteFact;
