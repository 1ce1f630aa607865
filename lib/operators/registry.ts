// The operators replayed exactly, by identity (lib/operators/profile.ts), and what the ingest
// and the fact store ask of all of them at once. Light: no diff code (see analysis-registry.ts).
import { KOPERATOR } from '../koperator/profile';
import { NIFIKOP } from '../nifikop/profile';
import { getIn } from '../k8s/json-value';
import type { LogRole, OperatorIdentity } from './profile';

export const OPERATORS: readonly OperatorIdentity[] = [KOPERATOR, NIFIKOP];

/** The identity of the operator `id`: koperator when none is named (a finding without `operator`). */
export function identityOf(id = 'koperator'): OperatorIdentity {
  const op = OPERATORS.find((o) => o.id === id);
  if (!op) throw new Error(`no operator profile named ${id}`);
  return op;
}

/** Whether a pod could be any replayed operator's, by anything it shows. */
export function mayBeOperatorPod(pod: unknown): boolean {
  for (const op of OPERATORS) if (op.pods.mayBeOperatorPod(pod)) return true;
  return false;
}

/** Whether a pod name is one an operator gives its members' pods. */
export function isOperatorPodName(name: string): boolean {
  for (const op of OPERATORS) if (op.pods.unitOfPodName(name) !== null) return true;
  return false;
}

/** Every operator's cluster CR, by the audit objectRef's `resource`. */
export const CR_RESOURCES: ReadonlySet<string> = new Set(OPERATORS.map((op) => op.cr.resource));

/** The CRs whose `status` writes are kept (NiFiKop's: each node's ConfigurationState). */
export const CR_STATUS_KEPT: ReadonlySet<string> = new Set(
  OPERATORS.filter((op) => op.cr.keepStatus).map((op) => op.cr.resource),
);

/** Whether a write to an operator's CR (`resource`, `subresource`) is kept: the CR itself, or a status it keeps. */
export function isKeptCrWrite(resource: string, subresource: string | null | undefined): boolean {
  return !subresource || (subresource === 'status' && CR_STATUS_KEPT.has(resource));
}

/** Every resource of the operators' own APIs (never a fight's). */
export const OWN_RESOURCES: readonly string[] = OPERATORS.flatMap((op) => op.ownResources);

/** The subscription-filter folds of the operators' own resources (`kafka*`). */
export const OWN_RESOURCE_FOLDS: readonly string[] = OPERATORS.flatMap((op) => op.ownResourceFolds);

/** The operators' API groups (their objects are never a fight's). */
export const OWN_GROUPS: readonly string[] = OPERATORS.map((op) => op.cr.group);

/** The pieces of the CR resources searched in raw text before parsing. */
export const CR_TEXT_PIECES: readonly string[] = OPERATORS.map((op) => op.cr.textPiece);

/** Whether a write to `resource` named `name` is to a member's configuration object. */
export function isUnitConfigWrite(resource: string, name: string): boolean {
  for (const op of OPERATORS)
    if (op.unitConfig.resource === resource && op.unitConfig.namePattern.test(name)) return true;
  return false;
}

/** The resources that hold members' configuration (`configmaps`...). */
export const UNIT_CONFIG_RESOURCES: ReadonlySet<string> = new Set(
  OPERATORS.map((op) => op.unitConfig.resource),
);

/** Pieces of every operator's container image names (OperatorIdentity.logs.imagePieces). */
export const OPERATOR_IMAGE_PIECES: readonly string[] = [
  ...new Set(OPERATORS.flatMap((op) => op.logs.imagePieces)),
];

/** The texts every operator's pod markers spell (OperatorIdentity.pods.markerTexts). */
export const MARKER_TEXTS: readonly string[] = [...new Set(OPERATORS.flatMap((op) => op.pods.markerTexts))];

/** Whether `text` holds any operator's pod marker. */
export function hasMarkerText(text: string): boolean {
  for (const t of MARKER_TEXTS) if (text.includes(t)) return true;
  return false;
}

/** The operator whose analysis reads a log line with this message, if any. */
export function operatorOfLogMessage(msg: string): OperatorIdentity | null {
  for (const op of OPERATORS) if (op.logs.roleOf(msg) !== null) return op;
  return null;
}

/** Whether any operator's analysis reads a log line with this message. */
export function isUsedLogMessage(msg: string): boolean {
  for (const op of OPERATORS) if (op.logs.roleOf(msg) !== null) return true;
  return false;
}

/** What a log line means to the analysis, by the first operator that reads it. */
export function logRoleOf(msg: string): LogRole | null {
  for (const op of OPERATORS) {
    const role = op.logs.roleOf(msg);
    if (role !== null) return role;
  }
  return null;
}

/**
 * The replayed operators' versions a Deployment body shows in its containers' images
 * (`spec.template.spec.containers[].image`): the operator's own Deployment, written by its
 * installer. Empty for every other body.
 */
export function operatorVersionsOfDeployment(body: unknown): Array<{ operator: string; version: string }> {
  const out: Array<{ operator: string; version: string }> = [];
  const containers = getIn(body, ['spec', 'template', 'spec', 'containers']);
  if (!Array.isArray(containers)) return out;
  for (const c of containers) {
    const image = getIn(c, ['image']);
    if (typeof image !== 'string') continue;
    for (const op of OPERATORS) {
      const version = op.versionOfImage?.(image) ?? null;
      if (version !== null) out.push({ operator: op.id, version });
    }
  }
  return out;
}
