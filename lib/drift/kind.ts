// A drift's kind and severity (drift.md, "The finding"): the first kind any of its fields
// falls under, and how much it should worry someone: `tamper` for what changes the code, the
// command or the privileges a broker runs with, `autoscaler` for an autoscaler's resize,
// `change` for the rest.
import type { DriftField, DriftKind, DriftSeverity } from '../model/findings';

const CONTAINER = String.raw`spec\.(?:containers|initContainers|ephemeralContainers)\[[^\]]*\]`;
const IMAGE = new RegExp(`^${CONTAINER}\\.image$`);
const RESOURCES = new RegExp(`^(?:${CONTAINER}\\.resources|spec\\.resources)(?:$|[.[])`);
const PRIVILEGED = new RegExp(
  `^(?:${CONTAINER}\\.(?:command|args|env|securityContext)|spec\\.securityContext)(?:$|[.[])`,
);

/** The subresource alone, where no body shows the fields (Metadata level). */
export function kindOf(fields: DriftField[], subresource: string): DriftKind {
  if (
    subresource === 'ephemeralcontainers' ||
    fields.some((f) => f.path.startsWith('spec.ephemeralContainers'))
  )
    return 'ephemeral-container';
  if (fields.some((f) => IMAGE.test(f.path))) return 'image';
  if (subresource === 'resize' || fields.some((f) => RESOURCES.test(f.path))) return 'resources';
  if (fields.some((f) => f.path === 'spec.tolerations')) return 'tolerations';
  if (fields.some((f) => f.path.startsWith('metadata.labels') || f.path.startsWith('metadata.annotations')))
    return 'metadata';
  return 'other';
}

export function severityOf(kind: DriftKind, fields: DriftField[], byAutoscaler: boolean): DriftSeverity {
  if (byAutoscaler) return kind === 'resources' ? 'autoscaler' : 'change';
  if (kind === 'ephemeral-container' || kind === 'image') return 'tamper';
  return fields.some((f) => PRIVILEGED.test(f.path)) ? 'tamper' : 'change';
}
