// What a koperator log line says about where it belongs (koperator-diff-semantics.md, "koperator
// log lines"): the KafkaCluster from the controller-runtime context (`KafkaCluster` {name,
// namespace}; `clusterName`/`clusterNamespace`; older versions' `Request.Name`/`Request.Namespace`),
// the pod (`pod`, a name or an object reference) and the broker (`brokerId`, a string or a number).
import { isObject, nonEmptyString as str, stringAt } from '../k8s/json-value';
import type { LogContext } from '../operators/profile';

/** Keys of koperator's own log calls the analysis reads; the rest stays behind. */
export const KEPT_LOG_KEYS: readonly string[] = [
  'patch',
  'current',
  'modified',
  'original',
  'containerName',
  'exitCode',
  'reason',
  'kind',
];

export function koperatorLogContext(_msg: string, f: Record<string, unknown>): LogContext {
  const cr = isObject(f.KafkaCluster) ? f.KafkaCluster : undefined;
  const marks: Record<string, unknown> = {};
  // The downscale path logs `brokerId` before `pod`; key order is the only tell.
  const keys = Object.keys(f);
  if (keys.includes('brokerId') && keys.includes('pod') && keys.indexOf('brokerId') < keys.indexOf('pod')) {
    marks.brokerIdFirst = true;
  }
  return {
    cluster:
      stringAt(cr, 'name') ?? str(f.clusterName) ?? str(f['Request.Name']) ?? (cr ? null : str(f.name)),
    namespace:
      stringAt(cr, 'namespace') ?? str(f.clusterNamespace) ?? str(f['Request.Namespace']) ?? str(f.namespace),
    pod: typeof f.pod === 'string' ? f.pod : stringAt(f.pod, 'name'),
    unit:
      typeof f.brokerId === 'string'
        ? f.brokerId
        : typeof f.brokerId === 'number'
          ? String(f.brokerId)
          : null,
    marks,
  };
}
