// Same seed, same bytes: tests, examples and benchmarks all rely on it.
import { noiseEvents, simulateCluster, type SimOptions } from '../../sim';

const OPTS: SimOptions = { seed: 20261102, start: '2026-11-02T09:00:00Z', noiseRatio: 0.6 };

describe('determinism', () => {
  test('the same options give identical logs and truth', () => {
    const a = simulateCluster(OPTS);
    const b = simulateCluster(OPTS);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  test('another seed gives other names, ids and timings', () => {
    const a = simulateCluster(OPTS);
    const b = simulateCluster({ ...OPTS, seed: OPTS.seed + 1 });
    expect(b.truth.recreations.map((r) => r.deletedPod.name)).not.toEqual(
      a.truth.recreations.map((r) => r.deletedPod.name),
    );
    expect(b.audit[0].auditID).not.toBe(a.audit[0].auditID);
    // The scenarios' shape does not depend on the seed.
    expect(
      b.truth.recreations
        .map((r) => r.classification)
        .filter((c) => c !== 'external-mutation-revert' && c !== 'unknown'),
    ).toEqual(
      a.truth.recreations
        .map((r) => r.classification)
        .filter((c) => c !== 'external-mutation-revert' && c !== 'unknown'),
    );
  });

  test('a scenario plays the same whatever the noise around it', () => {
    const quiet = simulateCluster({ ...OPTS, noiseRatio: 0 });
    const noisy = simulateCluster({ ...OPTS, noiseRatio: 0.9 });
    expect(noisy.truth.recreations).toEqual(quiet.truth.recreations);
    expect(noisy.operator).toEqual(quiet.operator);
    expect(noisy.audit.length).toBeGreaterThan(5 * quiet.audit.length);
  });

  test('noiseEvents repeats for a seed', () => {
    const take = (seed: number): string =>
      JSON.stringify([...noiseEvents(seed, '2026-11-02T09:00:00Z', 500)]);
    expect(take(3)).toBe(take(3));
    expect(take(4)).not.toBe(take(3));
  });
});
