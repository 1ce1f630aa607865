import { mergeTolerations } from '../../lib/koperator/tolerations';

const a = { key: 'dedicated', operator: 'Equal', value: 'kafka', effect: 'NoSchedule' };
const b = { key: 'spot', operator: 'Exists', effect: 'NoSchedule' };
const notReady = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const pod = (tolerations?: unknown[]) => ({
  spec: { containers: [{ name: 'kafka' }], ...(tolerations ? { tolerations } : {}) },
});

// handleRollingUpgrade: `if len(desired.Spec.Tolerations) > 0 { append current's; drop duplicates }`.
describe('mergeTolerations', () => {
  it.each<[string, unknown[] | undefined, unknown[] | undefined, unknown[] | undefined]>([
    ['desired declares none: untouched, live ones are not adopted', undefined, [a, notReady], undefined],
    ['an empty desired list declares nothing', [], [a], []],
    ['live ones appended after desired ones', [a], [a, b], [a, b]],
    ['desired first even when live has them in another order', [a], [b, a], [a, b]],
    ['duplicates within desired are dropped too', [a, a], [], [a]],
    ['live pod without tolerations', [a], undefined, [a]],
    [
      '"" and a missing field are the same Go zero value',
      [{ key: 'k', operator: 'Exists' }],
      [{ key: 'k', operator: 'Exists', value: '' }],
      [{ key: 'k', operator: 'Exists' }],
    ],
    // *int64 compared by address: tolerations with tolerationSeconds never match each other
    ['tolerationSeconds defeats deduplication', [notReady], [notReady], [notReady, notReady]],
    ['live default tolerations are appended once each', [a], [a, notReady], [a, notReady]],
  ])('%s', (_name, desired, current, expected) => {
    const merged = mergeTolerations(pod(desired), pod(current)) as { spec: { tolerations?: unknown[] } };
    expect(merged.spec.tolerations).toEqual(expected);
  });

  it('returns a new pod and leaves both inputs alone', () => {
    const desired = pod([a]);
    const current = pod([b]);
    const merged = mergeTolerations(desired, current);
    expect(merged).not.toBe(desired);
    expect(desired.spec.tolerations).toEqual([a]);
    expect(current.spec.tolerations).toEqual([b]);
  });

  it('passes non-pods through', () => {
    expect(mergeTolerations(null, pod([a]))).toBeNull();
    expect(mergeTolerations('x', undefined)).toBe('x');
  });
});
