// NiFiKop's decision about a node pod, version by version (lib/nifikop): the steps
// reconcileNifiPod runs around objectmatcher's Calculate, written from its source (see
// lib/nifikop/README.md), on hand-made pods with each injector as it really writes the pod.
import type { Pod } from 'kubernetes-types/core/v1';
import { threeWayDecision } from '../../lib/koperator/pod-diff';
import {
  firstVersionInSync,
  isOrderOnlyPatch,
  nifikopDecision,
  wouldRestartByVersion,
  type NifikopPods,
} from '../../lib/nifikop/steps';
import {
  NIFIKOP_VERSION_RANGES,
  nifikopImageVersion,
  nifikopVersionRange,
  parseNifikopVersion,
} from '../../lib/nifikop/versions';
import { DESIRED, edit, istio, linkerd, live, mirror, states, zarf } from './fixtures';

const LIVE = live(DESIRED);
const WITH_USER_INIT = edit(DESIRED, (p) => {
  p.spec!.initContainers = [
    { name: 'init-perms', image: 'busybox:1.36', command: ['sh', '-c', 'chown -R 1000 /data'] },
  ];
});
const HTTP_READINESS = edit(DESIRED, (p) => {
  p.spec!.containers[0].readinessProbe = {
    httpGet: { path: '/nifi-api', port: 8080 },
    initialDelaySeconds: 60,
    periodSeconds: 20,
  };
});
const REGISTRY_IMAGE = edit(DESIRED, (p) => {
  p.spec!.containers[0].image = 'docker.io/apache/nifi:2.0.0';
});
const TWO_INITS = edit(DESIRED, (p) => {
  p.spec!.initContainers = [
    { name: 'init-a', image: 'busybox:1.36', command: ['true'] },
    { name: 'init-b', image: 'busybox:1.36', command: ['true'] },
  ];
});
/** A webhook that only reverses the init containers' order. */
function reorderInits(pod: Pod): Pod {
  return edit(pod, (p) => {
    p.spec!.initContainers = [...(p.spec!.initContainers ?? [])].reverse();
  });
}
const NEW_IMAGE = edit(DESIRED, (p) => {
  p.spec!.containers[0].image = 'apache/nifi:2.1.0';
});

type Row = [name: string, pods: NifikopPods, expected: [boolean, boolean, boolean, boolean]];

// Expected deletions for <1.12, 1.12-1.13, 1.14, >=1.15 (true: NiFiKop deletes the pod).
const TABLE: Row[] = [
  ['no webhook', states(DESIRED, LIVE), [false, false, false, false]],
  [
    'a real change: the NifiCluster sets a new image',
    states(DESIRED, LIVE, NEW_IMAGE),
    [true, true, true, true],
  ],
  // Istio: proxy appended, istio-init first, TCP liveness rewritten, prometheus.io/port 15020.
  ['Istio sidecar (container) + istio-init', states(DESIRED, istio(LIVE)), [true, false, false, false]],
  [
    'Istio native sidecar (init container, restartPolicy Always)',
    states(DESIRED, istio(LIVE, { native: true })),
    [true, false, false, false],
  ],
  // Native sidecar (and Istio CNI's istio-validation) go first, the declared init container
  // after: the merged desired list (desired first, then the live extras) is in another order, so
  // the patch is order-only. Without CNI, istio-init goes last: the same order as the merge.
  [
    'Istio native sidecar before a declared init container',
    states(WITH_USER_INIT, istio(live(WITH_USER_INIT), { native: true })),
    [true, true, true, false],
  ],
  [
    'Istio sidecar container, istio-init after a declared init container',
    states(WITH_USER_INIT, istio(live(WITH_USER_INIT))),
    [true, false, false, false],
  ],
  [
    'Istio CNI: istio-validation before a declared init container',
    states(WITH_USER_INIT, istio(live(WITH_USER_INIT), { cni: true })),
    [true, true, true, false],
  ],
  // PR #476 undoes only the liveness rewrite: an HTTP readiness probe stays rewritten.
  [
    'Istio rewrites an HTTP readiness probe',
    states(HTTP_READINESS, istio(live(HTTP_READINESS))),
    [true, true, true, true],
  ],
  // Linkerd puts linkerd-proxy first: once the live containers are merged into the desired
  // ones (1.12), their order differs, an order-only patch PR #607 accepts.
  [
    'Linkerd proxy, init container, annotations and volumes',
    states(DESIRED, linkerd(LIVE)),
    [false, true, true, false],
  ],
  ['Zarf rewrites the nifi image', states(DESIRED, zarf(LIVE)), [true, true, false, false]],
  [
    'Zarf, desired image written with its registry',
    states(REGISTRY_IMAGE, zarf(live(REGISTRY_IMAGE))),
    [true, true, true, true],
  ],
  [
    'Zarf also rewrites a declared init container',
    states(WITH_USER_INIT, zarf(live(WITH_USER_INIT))),
    [true, true, true, true],
  ],
  ['another image rewriter (registry mirror)', states(DESIRED, mirror(LIVE)), [true, true, true, true]],
  [
    'order-only initContainers change',
    states(TWO_INITS, reorderInits(live(TWO_INITS))),
    [true, true, true, false],
  ],
  [
    'order-only change and a real change',
    states(
      TWO_INITS,
      reorderInits(live(TWO_INITS)),
      edit(TWO_INITS, (p) => {
        p.spec!.containers[0].image = 'apache/nifi:2.1.0';
      }),
    ),
    [true, true, true, true],
  ],
];

describe('NiFiKop decisions per version', () => {
  it.each(TABLE)('%s', (_name, pods, expected) => {
    const rows = wouldRestartByVersion(pods);
    expect(rows.map((r) => r.range)).toEqual(['<1.12', '1.12-1.13', '1.14', '>=1.15']);
    expect(rows.map((r) => r.restart)).toEqual(expected);
  });

  it('names a representative version per range and the version that stops a loop', () => {
    expect(firstVersionInSync(states(DESIRED, zarf(LIVE)))).toBe('1.14.0');
    expect(firstVersionInSync(states(DESIRED, istio(LIVE)))).toBe('1.12.0');
    expect(firstVersionInSync(states(DESIRED, linkerd(LIVE)))).toBe('1.15.0');
    expect(firstVersionInSync(states(DESIRED, mirror(LIVE)))).toBeNull();
  });
});

describe('what each step did', () => {
  it('Istio: containers merged, port dropped, liveness copied; the patch is empty from 1.12', () => {
    const pods = states(DESIRED, istio(LIVE));
    const before = nifikopDecision('1.11.4', pods);
    expect(before.steps).toEqual([]);
    expect(before.fields.map((f) => f.path).sort()).toEqual([
      'metadata.annotations["prometheus.io/port"]',
      // live-only httpGet is left alone by the three-way patch: the TCP handler is put back
      'spec.containers[name=nifi].livenessProbe.tcpSocket.port',
    ]);
    const after = nifikopDecision('1.12.0', pods);
    expect(after.changed).toBe(false);
    expect(after.patch).toEqual({});
    expect(after.steps).toEqual([
      'initContainers: live pod has 1, desired 0: merged by name (+istio-init)',
      'containers: live pod has 2, desired 1: merged by name (+istio-proxy)',
      'istio.io/rev: prometheus.io/port removed from both pods, desired nifi liveness probe copied onto the live one',
      'Calculate options: status ignored (no other effect on a Pod)',
    ]);
  });

  it('Istio readiness rewrite: the readiness probe is what still differs', () => {
    const d = nifikopDecision('1.15.0', states(HTTP_READINESS, istio(live(HTTP_READINESS))));
    expect(d.changed).toBe(true);
    expect(d.fields.map((f) => f.path)).toEqual([
      'spec.containers[name=nifi].readinessProbe.httpGet.path',
      'spec.containers[name=nifi].readinessProbe.httpGet.port',
    ]);
  });

  it('order-only: the patch is $setElementOrder under spec only', () => {
    const d = nifikopDecision(
      '1.14.0',
      states(WITH_USER_INIT, istio(live(WITH_USER_INIT), { native: true })),
    );
    expect(d.changed).toBe(true);
    expect(d.orderOnly).toBe(true);
    expect(Object.keys(d.patch)).toEqual(['spec']);
    expect(Object.keys(d.patch.spec as object)).toEqual(['$setElementOrder/initContainers']);
    expect(d.fields).toEqual([
      {
        path: 'spec.initContainers',
        from: ['init-perms', 'istio-init', 'istio-proxy'],
        to: ['istio-init', 'istio-proxy', 'init-perms'],
      },
    ]);
    const after = nifikopDecision(
      '1.15.0',
      states(WITH_USER_INIT, istio(live(WITH_USER_INIT), { native: true })),
    );
    expect(after.changed).toBe(false);
    expect(after.steps[after.steps.length - 1]).toBe('patch is order-only ($setElementOrder): in sync');
  });

  it('order-only is in sync only with the empty patch gates', () => {
    const pods = states(TWO_INITS, reorderInits(live(TWO_INITS)));
    expect(nifikopDecision('1.15.0', pods).changed).toBe(false);
    expect(nifikopDecision('1.15.0', pods, { configInSync: false }).changed).toBe(true);
    expect(nifikopDecision('1.15.0', pods, { terminatedOrShutdown: true }).changed).toBe(true);
    expect(nifikopDecision('1.11.4', states(DESIRED, LIVE), { configInSync: false }).changed).toBe(true);
  });

  it('isOrderOnlyPatch reads the patch as PR #607 does', () => {
    expect(isOrderOnlyPatch({ spec: { '$setElementOrder/initContainers': [{ name: 'a' }] } })).toBe(true);
    expect(
      isOrderOnlyPatch({ spec: { '$setElementOrder/containers': [], '$setElementOrder/volumes': [] } }),
    ).toBe(true);
    expect(isOrderOnlyPatch({ spec: {} })).toBe(false);
    expect(
      isOrderOnlyPatch({ metadata: { labels: { a: 'b' } }, spec: { '$setElementOrder/volumes': [] } }),
    ).toBe(false);
    expect(
      isOrderOnlyPatch({
        spec: { '$setElementOrder/initContainers': [], initContainers: [{ name: 'a', image: 'x' }] },
      }),
    ).toBe(false);
  });

  it('Zarf: the desired nifi image is taken as the live one; a host-qualified one is not', () => {
    const d = nifikopDecision('1.14.0', states(DESIRED, zarf(LIVE)));
    expect(d.steps).toContain(
      'zarf-agent: desired nifi image apache/nifi:2.0.0 taken as the live 127.0.0.1:31999/apache/nifi:2.0.0-zarf-2823281104',
    );
    const q = nifikopDecision('1.14.0', states(REGISTRY_IMAGE, zarf(live(REGISTRY_IMAGE))));
    expect(q.fields.map((f) => f.path)).toEqual(['spec.containers[name=nifi].image']);
  });

  it('Zarf on a nifi image with no "/" panics in NiFiKop: no delete', () => {
    const bare = edit(DESIRED, (p) => {
      p.spec!.containers[0].image = 'nifi';
    });
    const liveBare = edit(live(bare), (p) => {
      p.metadata!.labels!['zarf-agent'] = 'patched';
    });
    const d = nifikopDecision('1.14.0', states(bare, liveBare));
    expect(d.changed).toBe(false);
    expect(d.error).toMatch(/slice bounds out of range/);
  });

  it('Linkerd: annotations, volumes and mounts merged from 1.15', () => {
    const d = nifikopDecision('1.15.0', states(DESIRED, linkerd(LIVE)));
    expect(d.steps).toContain(
      'linkerd: 4 annotations, 4 volumes, 1 volume mounts merged into the desired pod',
    );
    const older = nifikopDecision('1.14.0', states(DESIRED, linkerd(LIVE)));
    expect(older.orderOnly).toBe(true);
    expect(Object.keys(older.patch.spec as object)).toEqual(['$setElementOrder/containers']);
  });

  it('a Calculate error deletes the pod before 1.15 and is returned from 1.15 (assumed boundary)', () => {
    const bad = edit(DESIRED, (p) => {
      (p.spec!.containers[0] as unknown as Record<string, unknown>).env = [{ value: 'no name' }];
    });
    const pods = states(
      DESIRED,
      edit(LIVE, (p) => {
        p.spec!.containers[0].env = [{ name: 'A', value: 'b' }];
      }),
      bad,
    );
    const old = nifikopDecision('1.13.0', pods);
    const now = nifikopDecision('1.15.0', pods);
    expect(old.error).toBeDefined();
    expect(old.changed).toBe(true);
    expect(now.changed).toBe(false);
  });
});

describe('before 1.12 NiFiKop decides as koperator before its fix', () => {
  it.each(TABLE)('%s', (_name, pods) => {
    const nifi = nifikopDecision('1.11.4', pods);
    const kop = threeWayDecision(pods.lastApplied, pods.desired, pods.live);
    expect(nifi.changed).toBe(kop.changed);
    expect(nifi.patch).toEqual(kop.patch);
  });
});

describe('versions', () => {
  it('reads versions and image tags', () => {
    expect(parseNifikopVersion('v1.16.0-release')).toEqual([1, 16, 0]);
    expect(parseNifikopVersion('1.17')).toEqual([1, 17, 0]);
    expect(parseNifikopVersion('latest')).toBeNull();
    expect(nifikopImageVersion('ghcr.io/konpyutaika/docker-images/nifikop:v1.17.0-release')).toBe('1.17.0');
    expect(nifikopImageVersion('registry.corp/mirror/nifikop:1.13@sha256:abc')).toBe('1.13.0');
    expect(nifikopImageVersion('ghcr.io/konpyutaika/docker-images/nifikop:latest')).toBeNull();
    expect(nifikopImageVersion('apache/nifi:1.23.2')).toBeNull();
    expect(nifikopImageVersion('ghcr.io/x/not-nifikop:v1.17.0')).toBeNull();
  });

  it.each([
    ['0.16.0', '<1.12'],
    ['1.11.4', '<1.12'],
    ['v1.12.0-release', '1.12-1.13'],
    ['1.13.0', '1.12-1.13'],
    ['1.14.2', '1.14'],
    ['1.15.0', '>=1.15'],
    ['v1.17.0-release', '>=1.15'],
  ])('%s is in %s', (v, label) => {
    expect(nifikopVersionRange(v).label).toBe(label);
  });

  it('has one range per boundary', () => {
    expect(NIFIKOP_VERSION_RANGES.map((r) => r.from)).toEqual(['0.0.0', '1.12.0', '1.14.0', '1.15.0']);
    expect(() => nifikopVersionRange('latest')).toThrow(/not a NiFiKop version/);
  });
});
