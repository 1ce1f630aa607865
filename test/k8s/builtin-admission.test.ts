// What the built-in admission plugins (ServiceAccount, DefaultTolerationSeconds, Priority)
// added before the webhooks ran, read back from the stored pod.
import { beforeWebhooks } from '../../lib/k8s/builtin-admission';

const NOT_READY = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const UNREACHABLE = { ...NOT_READY, key: 'node.kubernetes.io/unreachable', tolerationSeconds: 60 };
const SPOT = { key: 'spot', operator: 'Exists', effect: 'NoSchedule' };
const TOKEN = {
  name: 'kube-api-access-x7k2p',
  projected: { sources: [{ serviceAccountToken: { path: 'token' } }] },
};
const MOUNT = {
  name: 'kube-api-access-x7k2p',
  mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
  readOnly: true,
};

type Spec = Record<string, unknown>;
const pod = (spec: Spec) => ({ metadata: { name: 'p' }, spec });
const kafka = (mounts: unknown[] = []) => ({ name: 'kafka', volumeMounts: mounts });

describe('beforeWebhooks', () => {
  it.each<[string, Spec, Spec, Spec]>([
    [
      'appends the default tolerations the stored pod shows, with its seconds',
      { containers: [] },
      { containers: [], tolerations: [NOT_READY, UNREACHABLE, SPOT] },
      { containers: [], tolerations: [NOT_READY, UNREACHABLE] },
    ],
    [
      'keeps a request toleration that already tolerates a taint (no key, no effect)',
      { containers: [], tolerations: [{ operator: 'Exists' }] },
      { containers: [], tolerations: [{ operator: 'Exists' }, NOT_READY, UNREACHABLE] },
      { containers: [], tolerations: [{ operator: 'Exists' }] },
    ],
    [
      'adds only the one not yet tolerated',
      { containers: [], tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }] },
      {
        containers: [],
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, UNREACHABLE],
      },
      {
        containers: [],
        tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, UNREACHABLE],
      },
    ],
    [
      'adds nothing the stored pod does not show (plugin disabled)',
      { containers: [] },
      { containers: [], tolerations: [SPOT] },
      { containers: [] },
    ],
    [
      'appends the token volume and each container’s mount',
      { containers: [kafka()], volumes: [{ name: 'data', emptyDir: {} }] },
      { containers: [kafka([MOUNT])], volumes: [{ name: 'data', emptyDir: {} }, TOKEN] },
      { containers: [kafka([MOUNT])], volumes: [{ name: 'data', emptyDir: {} }, TOKEN] },
    ],
    [
      'leaves a request that already names the token volume as it is',
      { containers: [kafka([MOUNT])], volumes: [TOKEN] },
      { containers: [kafka([MOUNT])], volumes: [TOKEN] },
      { containers: [kafka([MOUNT])], volumes: [TOKEN] },
    ],
    [
      'takes the priority the Priority plugin set',
      { containers: [], priorityClassName: 'kafka-high' },
      {
        containers: [],
        priorityClassName: 'kafka-high',
        priority: 1000000,
        preemptionPolicy: 'PreemptLowerPriority',
      },
      {
        containers: [],
        priorityClassName: 'kafka-high',
        priority: 1000000,
        preemptionPolicy: 'PreemptLowerPriority',
      },
    ],
  ])('%s', (_name, request, stored, expected) => {
    const r = pod(request);
    const before = JSON.stringify(r);
    expect((beforeWebhooks(r, pod(stored)).pod as { spec: Spec }).spec).toEqual(expected);
    expect(JSON.stringify(r)).toBe(before);
  });

  it('keys the additions with the token volume’s random name left out', () => {
    const seen = (token: string) =>
      beforeWebhooks(
        pod({ containers: [kafka()] }),
        pod({ containers: [kafka([{ ...MOUNT, name: token }])], volumes: [{ ...TOKEN, name: token }] }),
      );
    const a = seen('kube-api-access-aaaaa');
    const b = seen('kube-api-access-bbbbb');
    expect(a.tokenVolume).toBe('kube-api-access-aaaaa');
    expect(a.additionsKey).toBe(b.additionsKey);
    expect(a.additionsKey).not.toContain('aaaaa');
  });

  it('returns the request itself when there is no stored pod or nothing was added', () => {
    const r = pod({ containers: [] });
    expect(beforeWebhooks(r, undefined).pod).toBe(r);
    expect(beforeWebhooks(r, pod({ containers: [] })).pod).toBe(r);
    expect(beforeWebhooks('x', pod({})).pod).toBe('x');
  });
});
