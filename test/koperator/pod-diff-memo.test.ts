// threeWayDecision is memoised on (last-applied, desired, the part of the live pod the diff can
// see). Each row decides a live pod first through the memo (primed with another pod of the
// same loop) and then on fresh copies of the same three states, which no memo can know: the
// two answers must be equal. The rows are the ways a left-out part of a live pod could matter.
import type { Pod } from 'kubernetes-types/core/v1';
import { threeWayDecision } from '../../lib/koperator/pod-diff';
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
