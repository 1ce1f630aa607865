// Which audit events the fight detectors read (fights.md). Everything a fight can be fought
// over is a write to an object; what is never a fight (fights.md, "Not fights") is left to
// the byte pre-filter to reject unparsed: leases, events, endpoints, token and access
// reviews, node traffic, status subresources. Pods are the recreate detector's and reach
// the facts by koperator's own rules, widened to other operators' deletes.

import { OWN_GROUPS, OWN_RESOURCES } from '../operators/registry';

/** Resources whose writes are never a fight, or never one this analysis may look into. */
export const IGNORED_RESOURCES: ReadonlySet<string> = new Set([
  'leases',
  'events',
  'endpoints',
  'endpointslices',
  'tokenreviews',
  'subjectaccessreviews',
  'selfsubjectaccessreviews',
  'localsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'selfsubjectreviews',
  'certificatesigningrequests',
  'nodes',
  'csinodes',
  'volumeattachments',
  'controllerrevisions',
  'bindings',
  // Their bodies are secrets or configuration that may hold them: never projected.
  'secrets',
  'configmaps',
  // Service accounts' only frequent writes are token requests.
  'serviceaccounts',
  'namespaces',
  // The operators' own resources have their exact replay (findings-contract.md); koperator's:
  // kafkaclusters, kafkatopics, kafkausers, cruisecontroloperations.
  ...OWN_RESOURCES,
]);

/** API groups whose objects belong to an operator's replay, never to fights. */
export const IGNORED_GROUPS: ReadonlySet<string> = new Set(OWN_GROUPS);

const READ_VERBS = new Set(['get', 'list', 'watch']);

/** A write to an object (not a pod) that a field fight or hot loop may rest on. */
export function isFightObjectWrite(
  verb: string,
  resource: string,
  subresource: string | undefined | null,
  apiGroup: string | undefined | null,
): boolean {
  if (READ_VERBS.has(verb) || resource === 'pods' || IGNORED_RESOURCES.has(resource)) return false;
  if (apiGroup && IGNORED_GROUPS.has(apiGroup)) return false;
  // `scale` writes spec.replicas of its parent; every other subresource (status first) is not
  // what a controller declares.
  return !subresource || subresource === 'scale';
}

/**
 * Users of Kubernetes' own controllers and nodes. None of them compares a pod with a pod it
 * wants (a ReplicaSet counts pods, a StatefulSet checks a revision label, the kubelet's
 * delete is the last step of every deletion), so their pod deletes are never a recreate
 * loop's cycle and need not be read at all.
 */
const BUILTIN_POD_DELETERS = new Set(
  [
    'replicaset-controller',
    'statefulset-controller',
    'daemon-set-controller',
    'job-controller',
    'cronjob-controller',
    'deployment-controller',
    'generic-garbage-collector',
    'pod-garbage-collector',
    'node-controller',
    'namespace-controller',
    'ttl-after-finished-controller',
    'disruption-controller',
    'endpointslice-controller',
  ].map((c) => `system:serviceaccount:kube-system:${c}`),
);

export function isBuiltinPodController(user: string): boolean {
  return (
    BUILTIN_POD_DELETERS.has(user) || user.startsWith('system:node:') || user === 'system:kube-scheduler'
  );
}
