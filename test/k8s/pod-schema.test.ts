import { hasRetainKeys, listStrategy, type ListStrategy } from '../../lib/k8s/pod-schema';

// The patchStrategy/patchMergeKey tags of core/v1 Pod and meta/v1 ObjectMeta.
describe('listStrategy', () => {
  it.each<[string, ListStrategy]>([
    ['spec.containers', { kind: 'merge', key: 'name' }],
    ['spec.initContainers', { kind: 'merge', key: 'name' }],
    ['spec.ephemeralContainers', { kind: 'merge', key: 'name' }],
    ['spec.volumes', { kind: 'merge', key: 'name' }],
    ['spec.imagePullSecrets', { kind: 'merge', key: 'name' }],
    ['spec.hostAliases', { kind: 'merge', key: 'ip' }],
    ['spec.topologySpreadConstraints', { kind: 'merge', key: 'topologyKey' }],
    ['spec.schedulingGates', { kind: 'merge', key: 'name' }],
    ['spec.resourceClaims', { kind: 'merge', key: 'name' }],
    ['spec.containers.ports', { kind: 'merge', key: 'containerPort' }],
    ['spec.initContainers.env', { kind: 'merge', key: 'name' }],
    ['spec.containers.volumeMounts', { kind: 'merge', key: 'mountPath' }],
    ['spec.containers.volumeDevices', { kind: 'merge', key: 'devicePath' }],
    ['metadata.ownerReferences', { kind: 'merge', key: 'uid' }],
    ['metadata.finalizers', { kind: 'set' }],
    ['status.conditions', { kind: 'merge', key: 'type' }],
    ['status.podIPs', { kind: 'merge', key: 'ip' }],
    ['spec.tolerations', { kind: 'atomic' }],
    ['spec.readinessGates', { kind: 'atomic' }],
    ['spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution', { kind: 'atomic' }],
    [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
      { kind: 'atomic' },
    ],
    ['spec.containers.command', { kind: 'atomic' }],
    ['spec.containers.args', { kind: 'atomic' }],
    ['spec.containers.envFrom', { kind: 'atomic' }],
    ['spec.containers.securityContext.capabilities.add', { kind: 'atomic' }],
    ['spec.securityContext.supplementalGroups', { kind: 'atomic' }],
    ['spec.securityContext.sysctls', { kind: 'atomic' }],
    ['status.containerStatuses', { kind: 'atomic' }],
    ['spec.containers.env.valueFrom', { kind: 'atomic' }],
  ])('%s is %p', (path, strategy) => {
    expect(listStrategy(path.split('.'))).toEqual(strategy);
  });

  it('marks volumes and resourceClaims as retainKeys lists, nothing else', () => {
    expect(hasRetainKeys(['spec', 'volumes'])).toBe(true);
    expect(hasRetainKeys(['spec', 'resourceClaims'])).toBe(true);
    expect(hasRetainKeys(['spec', 'containers'])).toBe(false);
  });
});
