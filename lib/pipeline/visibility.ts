// Whether the logs read could show a broker pod recreation at all. A run that read no
// audit event, or only events that never name a pod, or pod writes without their bodies,
// finds nothing because it cannot see, not because nothing happened: a monitor pointed at
// the wrong object must not stay green. A window in which no broker pod was written, on a
// cluster whose pods the logs do show, is quiet, and that is an all-clear.
import type { FactStore } from '../facts/store';
import type { IngestStats } from '../ingest/stats';
import { formatCount, plural } from '../report/format';

export type Blindness =
  /** Not one audit event could be read from any input: the run saw nothing. */
  | 'no-audit-events'
  /** Audit events were read, none about pods (any verb). */
  | 'no-pod-events'
  /** Pod writes were read, every one at Metadata level: no body shows what changed. */
  | 'metadata-only';

export interface Sight {
  blind: Blindness | null;
  /** One line: what was seen, and the likely cause. */
  message: string | null;
}

/** `summary.blind` when the run could not see: the reports' banner and `--fail-on blind` read it. */
export function judgeSight(stats: Pick<IngestStats, 'audit' | 'files'>, store: FactStore): Sight {
  const read = stats.audit.read;
  // Nothing opened: the input errors say why, and nothing read can be blamed on its content.
  if (read === 0 && stats.files.read === 0 && stats.files.errors > 0)
    return { blind: 'no-audit-events', message: null };
  if (read === 0) {
    return {
      blind: 'no-audit-events',
      message:
        `no audit event could be read from any input (${plural(stats.files.read, 'file')} read, ` +
        `${formatCount(stats.files.foreign)} not logs, ${formatCount(stats.files.empty)} empty): ` +
        'this is not an all-clear; check that the inputs are Kubernetes audit logs',
    };
  }
  let podWrites = 0;
  for (let i = 0; i < store.size; i++) {
    if (store.type(i) !== 'pod') continue;
    podWrites++;
    if (store.levelOf(i) !== 'Metadata') return { blind: null, message: null };
  }
  if (podWrites > 0) {
    return {
      blind: 'metadata-only',
      message:
        `blind: every pod write is logged at Metadata level (${plural(podWrites, 'pod write')}), so no ` +
        'change to a broker pod can be seen; likely cause: the audit policy logs pods at Metadata ' +
        'level (log pods at RequestResponse level)',
    };
  }
  if (stats.audit.aboutPods === 0) {
    return {
      blind: 'no-pod-events',
      message:
        `blind: ${plural(read, 'audit event')} read, none about pods, so no broker pod recreation can ` +
        "be seen; likely cause: the wrong log stream (not kube-apiserver's audit log, or another " +
        "cluster's) or an audit policy that leaves pods out",
    };
  }
  return { blind: null, message: null };
}
