import { isServerFilledPodPath, onlyDefaultTolerationsAdded } from '../../lib/k8s/server-filled';

describe('isServerFilledPodPath', () => {
  it.each<[string, boolean]>([
    ['spec.nodeName', true],
    ['spec.dnsPolicy', true],
    ['spec.restartPolicy', true],
    ['spec.enableServiceLinks', true],
    ['metadata.name', true],
    ['metadata.uid', true],
    ['status.phase', true],
    ['kind', true],
    ['spec.containers[name=kafka].imagePullPolicy', true],
    ['spec.initContainers[name=init].terminationMessagePath', true],
    ['spec.containers[name=kafka].ports[containerPort=9092].protocol', true],
    ['spec.containers[name=kafka].readinessProbe.periodSeconds', true],
    [
      'spec.containers[name=kafka].volumeMounts[mountPath=/var/run/secrets/kubernetes.io/serviceaccount]',
      true,
    ],
    ['spec.volumes[name=kube-api-access-x7k2p]', true],
    ['spec.volumes[name=broker-config].configMap.defaultMode', true],
    // What a pod's author (koperator) declares.
    ['spec.containers[name=kafka].resources.requests.cpu', false],
    ['spec.containers[name=kafka].image', false],
    ['spec.containers[name=kafka].readinessProbe.tcpSocket.port', false],
    ['spec.volumes[name=broker-config]', false],
    ['spec.tolerations', false],
    ['metadata.labels.brokerId', false],
    ['metadata.generateName', false],
    ['spec.nodeNameOverride', false],
  ])('%s: %s', (path, filled) => {
    expect(isServerFilledPodPath(path)).toBe(filled);
  });
});

describe('onlyDefaultTolerationsAdded', () => {
  const notReady = {
    key: 'node.kubernetes.io/not-ready',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  };
  const unreachable = { ...notReady, key: 'node.kubernetes.io/unreachable' };
  const spot = { key: 'spot', operator: 'Exists', effect: 'NoSchedule' };
  it.each<[string, unknown, unknown, boolean]>([
    ['added to none', null, [notReady, unreachable], true],
    ['added after the declared ones', [spot], [spot, notReady, unreachable], true],
    ['another toleration added', [spot], [spot, { ...spot, key: 'gpu' }], false],
    ['a declared one removed', [spot], [notReady], false],
    ['nothing added', [spot], [spot], false],
  ])('%s', (_name, from, to, only) => {
    expect(onlyDefaultTolerationsAdded(from, to)).toBe(only);
  });
});
