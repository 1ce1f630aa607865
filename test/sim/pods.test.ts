// The simulator's broker pods: what koperator declares, what objectmatcher stores, what the API
// server adds, and the stand-alone live pods other tests explain.
import yaml from 'js-yaml';
import type { Pod } from 'kubernetes-types/core/v1';
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import {
  brokerPod,
  getPath,
  kafkaClusterSpec,
  lastAppliedOf,
  livePodYaml,
  stampLastApplied,
} from '../../sim';
import { threeWayDelta, withLiveTolerations } from '../../sim/diff';
import { toJson, type JsonObject } from '../../sim/json';
import { apiDefaults, builtinAdmission, qosClass } from '../../sim/admission';

describe('brokerPod', () => {
  const pod = brokerPod('orders-kafka', 3);

  test('is named, labelled and owned the way koperator does it', () => {
    expect(pod.metadata?.generateName).toBe('orders-kafka-3-');
    expect(pod.metadata?.labels).toEqual({
      app: 'kafka',
      brokerId: '3',
      isBrokerNode: 'true',
      isControllerNode: 'false',
      kafka_cr: 'orders-kafka',
    });
    expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'KafkaCluster',
      name: 'orders-kafka',
      controller: true,
    });
    expect(pod.spec?.restartPolicy).toBe('Never');
    expect(pod.spec?.volumes?.find((v) => v.name === 'broker-config')?.configMap?.name).toBe(
      'orders-kafka-config-3',
    );
  });

  test('uses koperator’s default resources and a preferred anti-affinity term unless one broker per node', () => {
    const kafka = pod.spec?.containers.find((c) => c.name === 'kafka');
    expect(kafka?.resources).toEqual({
      limits: { cpu: '1500m', memory: '3Gi' },
      requests: { cpu: '1', memory: '2Gi' },
    });
    expect(
      pod.spec?.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0].weight,
    ).toBe(100);
    const strict = brokerPod('orders-kafka', 3, { oneBrokerPerNode: true });
    expect(
      strict.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0].topologyKey,
    ).toBe('kubernetes.io/hostname');
  });

  test('sorts volumes, mounts and init containers by name, as pod.go does', () => {
    const names = (pod.spec?.volumes ?? []).map((v) => v.name);
    expect(names).toEqual([...names].sort());
    expect((pod.spec?.initContainers ?? []).map((c) => c.name)).toEqual([
      'cruise-control-reporter',
      'jmx-exporter',
    ]);
  });
});

describe('last-applied', () => {
  test('decodes to the desired pod without the annotation, nulls or empty strings', () => {
    const desired = brokerPod(kafkaClusterSpec('orders-kafka', { priorityClassName: '' }), 0);
    const stamped = stampLastApplied(desired);
    const annotation = stamped.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] ?? '';
    const decoded = decodeLastApplied(annotation);
    expect(decoded.ok && decoded.encoding).toBe('zip');
    if (!decoded.ok) return;
    expect(decoded.value).toEqual(lastAppliedOf(desired));
    expect(decoded.value).toEqual(lastAppliedOf(stamped));
    expect(JSON.stringify(decoded.value)).not.toContain(LAST_APPLIED_ANNOTATION);
    expect(decoded.value.status).toEqual({});
    expect(Object.keys(decoded.value)).toEqual(['metadata', 'spec', 'status']);
    expect(getPath(decoded.value, 'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value')).toBe(
      '-Xmx2G -Xms2G',
    );
  });
});

describe('what the API server adds', () => {
  const desired = stampLastApplied(brokerPod('orders-kafka', 1));

  test('defaulting fills only fields koperator does not declare', () => {
    const req = apiDefaults(desired);
    const kafka = req.spec?.containers[0];
    expect(kafka?.terminationMessagePath).toBe('/dev/termination-log');
    expect(kafka?.imagePullPolicy).toBe('IfNotPresent');
    expect(req.spec?.dnsPolicy).toBe('ClusterFirst');
    expect(threeWayDelta(lastAppliedOf(desired), toJson(req))).toEqual([]);
  });

  test('built-in admission adds the token volume, default tolerations and priority, which koperator ignores', () => {
    const admitted = builtinAdmission(apiDefaults(desired), 'x7k2q');
    expect(admitted.spec?.volumes?.map((v) => v.name)).toContain('kube-api-access-x7k2q');
    expect(admitted.spec?.tolerations?.map((t) => t.key)).toEqual([
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
    ]);
    expect(admitted.spec?.priority).toBe(0);
    expect(threeWayDelta(lastAppliedOf(desired), toJson(admitted))).toEqual([]);
    expect(qosClass(admitted)).toBe('Burstable');
  });

  test('declared tolerations: koperator merges the live ones in, so appended tolerations are no diff', () => {
    const spec = kafkaClusterSpec('geo', {
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' }],
    });
    const declared = lastAppliedOf(brokerPod(spec, 0));
    const live = toJson(builtinAdmission(apiDefaults(stampLastApplied(brokerPod(spec, 0))), 'abcde'));
    expect(threeWayDelta(declared, live).map((d) => d.path)).toEqual(['spec.tolerations']);
    expect(threeWayDelta(withLiveTolerations(declared, live), live)).toEqual([]);
  });
});

describe('livePodYaml', () => {
  const load = (kind: 'scaleops' | 'clean' | 'istio'): Pod => yaml.load(livePodYaml(kind)) as Pod;
  const declared = (pod: Pod): Record<string, unknown> => {
    const d = decodeLastApplied(pod.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] ?? '');
    if (!d.ok) throw new Error(d.reason);
    return d.value;
  };

  test('prints a kubectl-style pod, keys sorted, no managed fields', () => {
    const text = livePodYaml('clean');
    expect(text.startsWith('apiVersion: v1\nkind: Pod\nmetadata:\n')).toBe(true);
    expect(text).not.toContain('managedFields');
    const pod = load('clean');
    expect(pod.status?.phase).toBe('Running');
    expect(pod.spec?.nodeName).toBeTruthy();
    expect(livePodYaml('clean', 3)).not.toBe(text);
    expect(livePodYaml('clean')).toBe(text);
  });

  test('clean: the live pod holds every declared value', () => {
    const pod = load('clean');
    expect(threeWayDelta(declared(pod) as JsonObject, toJson(pod))).toEqual([]);
  });

  test('istio: a sidecar only adds, nothing declared differs', () => {
    const pod = load('istio');
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['kafka', 'istio-proxy']);
    expect(threeWayDelta(declared(pod) as JsonObject, toJson(pod))).toEqual([]);
  });

  test('scaleops: the rightsizer changed the kafka container’s requests', () => {
    const pod = load('scaleops');
    const paths = threeWayDelta(declared(pod) as JsonObject, toJson(pod)).map((d) => d.path);
    expect(paths).toEqual([
      'spec.containers[name=kafka].resources.requests.cpu',
      'spec.containers[name=kafka].resources.requests.memory',
    ]);
    expect(pod.metadata?.annotations?.['rightsizer.dev/applied-policy']).toBe('production');
  });
});
