// threeWayDecision is memoised on (last-applied, desired, the part of the live pod the diff can
// see). Each row decides a live pod first through the memo (primed with another pod of the
// same loop) and then on fresh copies of the same three states, which no memo can know: the
// two answers must be equal. The rows are the ways a left-out part of a live pod could matter.
import type { Pod } from 'kubernetes-types/core/v1';
import fc from 'fast-check';
import { KEYING_TRIAL, threeWayDecision } from '../../lib/koperator/pod-diff';
import { DESIRED, edit, live } from './fixtures';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const WEBHOOKED = edit(live(DESIRED), (p) => {
  p.spec!.containers[0].resources = { requests: { cpu: '630m', memory: '2Gi' }, limits: { memory: '3Gi' } };
});

/** The same live pod as another incarnation of the loop would show it. */
function sibling(p: Pod, n: number, change: (p: Pod) => void = () => {}): Pod {
  return edit(p, (q) => {
    Object.assign(q.metadata!, {
      name: `pipeline-kafka-4-sib${n}`,
      uid: `uid-${n}`,
      resourceVersion: String(1000 + n),
    });
    q.spec!.nodeName = `node-${n}`;
    change(q);
  });
}

function decidedBothWays(original: Pod, modified: Pod, current: Pod) {
  threeWayDecision(original, modified, sibling(current, 0)); // primes the memo for this loop
  const memoised = threeWayDecision(original, modified, current);
  const fresh = threeWayDecision(clone(original), clone(modified), clone(current));
  return { memoised, fresh };
}

describe('threeWayDecision memo', () => {
  it('gives every incarnation of a loop the first one’s decision', () => {
    const a = threeWayDecision(DESIRED, DESIRED, sibling(WEBHOOKED, 1));
    const b = threeWayDecision(DESIRED, DESIRED, sibling(WEBHOOKED, 2));
    expect(a.changed).toBe(true);
    expect(b).toBe(a);
    expect(b).toEqual(threeWayDecision(clone(DESIRED), clone(DESIRED), sibling(WEBHOOKED, 2)));
  });

  const odd: Array<[string, (p: Pod) => void]> = [
    ['unsorted finalizers (a $setElementOrder on re-check)', (p) => (p.metadata!.finalizers = ['z', 'a'])],
    [
      'a status condition without its merge key (the re-check fails)',
      (p) => Object.assign(p, { status: { conditions: [{ status: 'True' }] } }),
    ],
    [
      'a status list holding a null (the re-check fails)',
      (p) => Object.assign(p, { status: { podIPs: [null] } }),
    ],
    [
      'an own __proto__ key in metadata',
      (p) => Object.defineProperty(p.metadata, '__proto__', { value: { x: 1 }, enumerable: true }),
    ],
    ['a $patch key in metadata', (p) => ((p.metadata as Record<string, unknown>).$patch = 'replace')],
    ['a different node', (p) => (p.spec!.nodeName = 'elsewhere')],
  ];
  it.each(odd)('decides a live pod with %s as if alone', (_name, change) => {
    for (const current of [WEBHOOKED, live(DESIRED)]) {
      const { memoised, fresh } = decidedBothWays(DESIRED, DESIRED, sibling(current, 3, change));
      expect(memoised).toEqual(fresh);
    }
  });

  it('does not key on a desired pod that carries a map-level $patch', () => {
    const replacing = edit(DESIRED, (p) => {
      (p.metadata as Record<string, unknown>).$patch = 'replace';
    });
    const { memoised, fresh } = decidedBothWays(DESIRED, replacing, WEBHOOKED);
    expect(memoised).toEqual(fresh);
  });

  it('keys on the live tolerations when the desired pod declares tolerations', () => {
    const tolerating = edit(DESIRED, (p) => {
      p.spec!.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' }];
    });
    const withSpot = sibling(WEBHOOKED, 4, (p) => {
      p.spec!.tolerations = [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }];
    });
    const { memoised, fresh } = decidedBothWays(tolerating, tolerating, withSpot);
    expect(memoised).toEqual(fresh);
  });
});

// Every live pod carries a projected token volume (and its mount) with a random name, which
// neither last-applied nor desired names: the memo key stands it in by position.
describe('threeWayDecision memo across the token volume’s random name', () => {
  const withToken = (p: Pod, token: string): Pod =>
    edit(p, (q) => {
      for (const v of q.spec!.volumes ?? [])
        if (String(v.name).startsWith('kube-api-access-')) v.name = token;
      for (const c of q.spec!.containers)
        for (const m of c.volumeMounts ?? []) if (m.name.startsWith('kube-api-access-')) m.name = token;
    });

  it('shares one decision between pods whose token volumes are named differently', () => {
    const a = threeWayDecision(DESIRED, DESIRED, withToken(sibling(WEBHOOKED, 5), 'kube-api-access-aaaaa'));
    const b = threeWayDecision(DESIRED, DESIRED, withToken(sibling(WEBHOOKED, 6), 'kube-api-access-bbbbb'));
    expect(a.changed).toBe(true);
    expect(b).toBe(a);
  });

  const reversedVolumes = edit(DESIRED, (p) => void p.spec!.volumes!.reverse());
  const reversedMounts = edit(DESIRED, (p) => void p.spec!.containers[0].volumeMounts!.reverse());
  const rows: Array<[string, Pod, (p: Pod) => void]> = [
    // The re-check's $setElementOrder spells every volume's name, the token's included.
    ['desired volumes in another order', reversedVolumes, () => {}],
    // Mounts are keyed by path, which is the same in every pod: the name never shows.
    ['desired mounts in another order', reversedMounts, () => {}],
    [
      'a second server-only volume',
      DESIRED,
      (p) => void p.spec!.volumes!.unshift({ name: 'injected-cache', emptyDir: {} }),
    ],
    [
      'two server-only volumes with one name',
      DESIRED,
      (p) => void p.spec!.volumes!.push({ name: 'dup', emptyDir: {} }, { name: 'dup', emptyDir: {} }),
    ],
    [
      'a server-only volume keyed by a number',
      DESIRED,
      (p) => void p.spec!.volumes!.push({ name: 7 as unknown as string, emptyDir: {} }),
    ],
    [
      'a server-only mount holding an unsorted set list',
      DESIRED,
      (p) =>
        void p.spec!.containers[0].volumeMounts!.push({
          name: 'x',
          mountPath: '/x',
          ...({ $deleteFromPrimitiveList: ['b', 'a'] } as object),
        }),
    ],
  ];
  it.each(rows)('with %s, decides each pod as if alone', (_name, modified, change) => {
    threeWayDecision(DESIRED, modified, withToken(sibling(WEBHOOKED, 7, change), 'kube-api-access-ccccc'));
    for (const token of ['kube-api-access-ccccc', 'kube-api-access-ddddd']) {
      const current = withToken(sibling(WEBHOOKED, 8, change), token);
      const memoised = threeWayDecision(DESIRED, modified, current);
      expect(memoised).toEqual(threeWayDecision(clone(DESIRED), clone(modified), clone(current)));
    }
  });

  it('names the token volume in a re-check that reorders volumes, so that decision is not shared', () => {
    const a = threeWayDecision(DESIRED, reversedVolumes, withToken(WEBHOOKED, 'kube-api-access-eeeee'));
    const b = threeWayDecision(DESIRED, reversedVolumes, withToken(WEBHOOKED, 'kube-api-access-fffff'));
    expect(JSON.stringify(a.patch)).toContain('kube-api-access-eeeee');
    expect(JSON.stringify(b.patch)).toContain('kube-api-access-fffff');
  });

  it('agrees with a fresh decision for random loops of live pods', () => {
    const tokens = ['kube-api-access-11111', 'kube-api-access-22222', 'kube-api-access-33333'];
    const arb = fc.record({
      token: fc.constantFrom(...tokens),
      cpu: fc.constantFrom('1', '630m', '1000m'),
      extraAt: fc.option(fc.nat(3), { nil: undefined }),
      extraName: fc.constantFrom('cache', 'kube-api-access-11111', 'broker-config'),
      reverseVolumes: fc.boolean(),
      reverseLive: fc.boolean(),
      mountExtra: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arb, { minLength: 2, maxLength: 6 }), (pods) => {
        for (const [i, p] of pods.entries()) {
          const modified = p.reverseVolumes ? reversedVolumes : DESIRED;
          const current = withToken(
            sibling(WEBHOOKED, i, (q) => {
              q.spec!.containers[0].resources!.requests!.cpu = p.cpu;
              if (p.reverseLive) q.spec!.volumes!.reverse();
              if (p.extraAt !== undefined)
                q.spec!.volumes!.splice(p.extraAt, 0, { name: p.extraName, emptyDir: {} });
              if (p.mountExtra)
                q.spec!.containers[0].volumeMounts!.unshift({ name: p.extraName, mountPath: '/extra' });
            }),
            p.token,
          );
          const memoised = threeWayDecision(DESIRED, modified, current);
          expect(memoised).toEqual(threeWayDecision(clone(DESIRED), clone(modified), clone(current)));
        }
      }),
      { seed: 20261130, numRuns: 300 },
    );
  });
});

// Keying costs about as much as deciding, so a loop whose pods never share a decision stops
// being keyed after a trial; one that has shared keeps its memo.
describe('threeWayDecision memo: which loops are keyed', () => {
  const withCpu = (cpu: string, n: number): Pod =>
    sibling(WEBHOOKED, n, (p) => void (p.spec!.containers[0].resources!.requests!.cpu = cpu));
  const distinct = (loop: Pod, from: number) =>
    Array.from({ length: KEYING_TRIAL }, (_, i) => threeWayDecision(loop, loop, withCpu(`${from + i}m`, i)));

  it('stops keying a loop whose first KEYING_TRIAL pods all differ: a repeat is decided afresh', () => {
    const loop = clone(DESIRED);
    const [first] = distinct(loop, 100);
    const repeat = threeWayDecision(loop, loop, withCpu('100m', 99));
    expect(repeat).not.toBe(first);
    expect(repeat).toEqual(first);
  });

  it('keeps keying a loop that shared a decision during the trial', () => {
    const loop = clone(DESIRED);
    const first = threeWayDecision(loop, loop, withCpu('100m', 0));
    expect(threeWayDecision(loop, loop, withCpu('100m', 1))).toBe(first);
    distinct(loop, 200);
    expect(threeWayDecision(loop, loop, withCpu('100m', 99))).toBe(first);
  });
});
