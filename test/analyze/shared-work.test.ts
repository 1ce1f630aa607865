// The caches that let a restart loop's pods share work must never let one pod's answer leak
// into another's: what is shared is keyed by everything the answer depends on.
import { attributeField } from '../../lib/analyze/attribution';
import { BoundedCache } from '../../lib/k8s/bounded-cache';
import { lastAppliedOf } from '../../lib/analyze/states';
import type { Incarnation } from '../../lib/analyze/timeline';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import type { PodWriteFact, WebhookMutation } from '../../lib/model/facts';

const OP = 'system:serviceaccount:kafka:kafka-operator';

function pod(name: string, cpu: string): Record<string, unknown> {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, uid: `uid-${name}`, namespace: 'kafka', labels: { app: 'kafka' } },
    spec: { containers: [{ name: 'kafka', image: 'kafka:3', resources: { requests: { cpu } } }] },
  };
}

function incarnation(name: string, webhooks: WebhookMutation[], cpu = '1'): Incarnation {
  const create: PodWriteFact = {
    type: 'pod',
    at: '2026-11-02T10:00:00Z',
    doneAt: '2026-11-02T10:00:00Z',
    src: { source: 't', line: 1 },
    auditID: `a-${name}`,
    stage: 'ResponseComplete',
    level: 'RequestResponse',
    verb: 'create',
    user: OP,
    namespace: 'kafka',
    name,
    uid: `uid-${name}`,
    subresource: null,
    code: 201,
    request: pod(name, cpu),
    webhooks,
  };
  return {
    namespace: 'kafka',
    name,
    uid: create.uid,
    broker: { kafkaCluster: 'c', brokerId: '1' },
    brokerFromName: false,
    create,
    createdAt: create.at,
    writes: [],
    deletion: null,
    refusedEvictions: [],
    operatorLines: [],
  };
}

const CPU = 'spec.containers[name=kafka].resources.requests.cpu';
const hook = (patch: WebhookMutation['patch']): WebhookMutation => ({
  round: 0,
  index: 0,
  configuration: 'sizer',
  webhook: 'pods.sizer',
  mutated: true,
  patch,
});

describe('webhook attribution shared across identical admissions', () => {
  it('answers for each pod when a patch tests the pod name (the admission is not shared)', () => {
    const patch = hook([
      { op: 'test', path: '/metadata/name', value: 'c-1-aaaaa' },
      { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '2' },
    ]);
    expect(attributeField(incarnation('c-1-aaaaa', [patch]), CPU, new Set([OP])).by).toBe('sizer/pods.sizer');
    // Same pod and patch but another name: the test op fails, so the webhook changed nothing.
    expect(attributeField(incarnation('c-1-bbbbb', [patch]), CPU, new Set([OP])).by).toBeNull();
  });

  it('shares an admission between pods that differ only in name and uid', () => {
    const patch = hook([{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '2' }]);
    for (const name of ['c-1-ccccc', 'c-1-ddddd'])
      expect(attributeField(incarnation(name, [patch]), CPU, new Set([OP])).by).toBe('sizer/pods.sizer');
    // A pod whose request differs elsewhere is not given the shared answer.
    expect(attributeField(incarnation('c-1-eeeee', [patch], '2'), CPU, new Set([OP])).by).toBeNull();
  });

  it('replays alone a path that reaches the identity', () => {
    const patch = hook([{ op: 'add', path: '/metadata/labels/x', value: 'y' }]);
    expect(attributeField(incarnation('c-1-fffff', [patch]), 'metadata.labels.x', new Set([OP])).by).toBe(
      'sizer/pods.sizer',
    );
    expect(attributeField(incarnation('c-1-ggggg', [patch]), 'metadata.name', new Set([OP])).by).toBeNull();
  });

  it('treats malformed patch operations as unshareable without throwing', () => {
    const bad = hook([{ op: 'add' } as never, 42 as never]);
    expect(attributeField(incarnation('c-1-hhhhh', [bad]), CPU, new Set([OP])).by).toBeNull();
  });
});

// A webhook writing a new value into every pod (a rightsizer) makes each admission unlike
// the others, but the webhooks before it answer alike: their steps are shared, and each pod
// is replayed from its own patches on.
describe('webhook attribution shared up to the first webhook that differs', () => {
  const mesh: WebhookMutation = {
    ...hook([{ op: 'add', path: '/metadata/labels/x', value: 'y' }]),
    configuration: 'mesh',
    webhook: 'inject',
  };
  const sizer = (cpu: string): WebhookMutation => ({
    ...hook([{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: cpu }]),
    index: 1,
  });

  it.each<[string, string | null]>([
    ['2', 'sizer/pods.sizer'],
    // The request's own value: the rightsizer changed nothing.
    ['1', null],
    ['3', 'sizer/pods.sizer'],
    ['1', null],
  ])('a pod the rightsizer gives %s is answered from its own patch', (cpu, by) => {
    const inc = incarnation(`c-1-r${cpu}`, [mesh, sizer(cpu)]);
    expect(attributeField(inc, CPU, new Set([OP])).by).toBe(by);
    expect(attributeField(inc, 'metadata.labels.x', new Set([OP])).by).toBe('mesh/inject');
  });
});

// Webhooks patch the pod the built-in admission plugins left, not the audit requestObject:
// an appended toleration leans on DefaultTolerationSeconds' two, and a patch that fails on
// the bare request would lose every change the webhook made.
describe('webhook attribution on the pod the webhooks saw', () => {
  const notReady = {
    key: 'node.kubernetes.io/not-ready',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  };
  const unreachable = { ...notReady, key: 'node.kubernetes.io/unreachable' };
  const spot = { key: 'spot', operator: 'Exists', effect: 'NoSchedule' };
  const injector: WebhookMutation = {
    round: 0,
    index: 0,
    configuration: 'spot-injector',
    webhook: 'pods.spot',
    mutated: true,
    patch: [
      { op: 'add', path: '/spec/tolerations/-', value: spot },
      { op: 'add', path: '/spec/nodeSelector', value: { pool: 'spot' } },
    ],
  };

  function admitted(name: string): Incarnation {
    const inc = incarnation(name, [injector]);
    const request = inc.create!.request as { spec: Record<string, unknown> };
    inc.create!.response = {
      ...request,
      spec: { ...request.spec, tolerations: [notReady, unreachable, spot], nodeSelector: { pool: 'spot' } },
    };
    return inc;
  }

  it('names the webhook for a field it set alongside an appended toleration', () => {
    expect(attributeField(admitted('c-1-iiiii'), 'spec.nodeSelector.pool', new Set([OP])).by).toBe(
      'spot-injector/pods.spot',
    );
  });

  it('credits the webhook with the list it appended to, and nobody where no webhook ran', () => {
    const by = attributeField(admitted('c-1-jjjjj'), 'spec.tolerations', new Set([OP])).by;
    expect(by).toBe('spot-injector/pods.spot');
    const inc = incarnation('c-1-kkkkk', []);
    expect(attributeField(inc, 'spec.tolerations', new Set([OP])).by).toBeNull();
  });
});

describe('last-applied decoded once per annotation', () => {
  it('gives bodies with the same annotation one shared object, and others their own', () => {
    const withAnn = (value: unknown) => ({
      metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: encodeLastApplied(value) } },
    });
    const a = lastAppliedOf(withAnn({ spec: { x: 1 } }));
    const b = lastAppliedOf(withAnn({ spec: { x: 1 } }));
    const c = lastAppliedOf(withAnn({ spec: { x: 2 } }));
    expect(a).toEqual({ spec: { x: 1 } });
    expect(b).toBe(a);
    expect(c).toEqual({ spec: { x: 2 } });
  });
});

describe('BoundedCache', () => {
  it('starts over when the entry or key-size bound is reached, and refuses oversized keys', () => {
    const c = new BoundedCache<number>(2, 10);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect(c.size).toBe(1);
    expect(c.get('a')).toBeUndefined();
    c.set('d'.repeat(10), 4);
    expect(c.get('c')).toBeUndefined();
    expect(c.get('d'.repeat(10))).toBe(4);
    c.set('x'.repeat(11), 5);
    expect(c.get('x'.repeat(11))).toBeUndefined();
  });
});
