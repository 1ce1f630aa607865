// The default timeline exercises the whole contract: every class, loops active and not, uids the
// logs never show, a successor-less recreation, and options that change the logs' shape.
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { DEFAULT_SCENARIO_ORDER, simulateCluster, type ScenarioName } from '../../sim';
import { parseTime, SEC } from '../../sim/time';

describe('scenario coverage', () => {
  const sim = simulateCluster({ seed: 5, start: '2026-07-01T12:00:00Z', noiseRatio: 0.3 });

  test('every class of the contract is produced', () => {
    const produced = new Set(sim.truth.recreations.map((r) => r.classification));
    expect([...produced].sort()).toEqual([...CLASSIFICATIONS].sort());
  });

  test('the contract edge cases are there', () => {
    expect(
      sim.truth.recreations.some(
        (r) => r.createdPod === null && r.classification === 'intent-change' && r.fields.length === 0,
      ),
    ).toBe(true);
    expect(sim.truth.recreations.some((r) => r.deletedPod.uid === null)).toBe(true);
    expect(sim.truth.recreations.some((r) => r.wouldRestart === null)).toBe(true);
    expect(
      sim.truth.recreations.some((r) => r.fields.some((f) => f.path.includes('[name=KAFKA_HEAP_OPTS]'))),
    ).toBe(true);
    expect(sim.truth.loops.some((l) => l.active)).toBe(true);
    expect(sim.truth.loops.some((l) => !l.active)).toBe(true);
  });

  test.each(DEFAULT_SCENARIO_ORDER.map((s) => [s]))('%s plays alone', (name: ScenarioName) => {
    const one = simulateCluster({
      seed: 9,
      start: '2026-07-01T12:00:00Z',
      noiseRatio: 0.2,
      scenarios: [name],
    });
    const classes = new Set(one.truth.recreations.map((r) => r.classification));
    const expected: Record<ScenarioName, string[]> = {
      'scaleops-loop': ['external-mutation-revert'],
      'affinity-loop': ['external-deletion', 'external-mutation-revert'],
      'benign-webhooks': [],
      'intent-change': ['intent-change'],
      'manual-delete': ['external-deletion'],
      eviction: ['external-deletion'],
      tainted: ['tainted-restart'],
      'config-change': ['config-change'],
      oom: ['container-terminated'],
      downscale: ['intent-change'],
      'metadata-verbose-loop': ['external-deletion', 'external-mutation-revert', 'unknown'],
      'inplace-resize': ['external-mutation-revert'],
      'live-drift': ['external-mutation-revert'],
      'resize-loop': ['external-mutation-revert'],
    };
    expect([...classes].sort()).toEqual(expected[name].sort());
    const loops = one.truth.loops;
    if (['scaleops-loop', 'affinity-loop', 'metadata-verbose-loop'].includes(name)) {
      // Alone, a loop scenario is the last one: still running when the data ends.
      expect(loops.length).toBe(1);
      expect(loops[0].active).toBe(true);
      const newest = parseTime(one.audit[one.audit.length - 1].stageTimestamp);
      expect(newest - parseTime(loops[0].lastAt)).toBeLessThanOrEqual(2 * loops[0].periodSeconds * SEC);
    } else {
      expect(loops).toEqual([]);
    }
  });

  test('a finished loop is inactive when asked not to end with one running', () => {
    const one = simulateCluster({
      seed: 9,
      start: '2026-07-01T12:00:00Z',
      noiseRatio: 0,
      scenarios: ['scaleops-loop'],
      endWithActiveLoop: false,
    });
    expect(one.truth.loops).toHaveLength(1);
    expect(one.truth.loops[0].active).toBe(false);
  });

  test('options: namespace, operator user and the legacy log encoder', () => {
    const sim2 = simulateCluster({
      seed: 2,
      start: '2026-07-01T12:00:00Z',
      noiseRatio: 0,
      namespace: 'streams',
      operatorUser: 'system:serviceaccount:ops:koperator',
      operatorLogStyle: 'legacy',
      scenarios: ['tainted', 'oom'],
    });
    for (const r of sim2.truth.recreations) {
      expect(r.namespace).toBe('streams');
      expect(r.deletedPod.deletedBy).toBe('system:serviceaccount:ops:koperator');
    }
    const line = sim2.operator.find((l) => l.msg.startsWith('pod has tainted labels'));
    expect(line?.msg).toBe('pod has tainted labels, deleting it');
    expect(Object.keys(line?.fields ?? {}).slice(0, 3)).toEqual([
      'logger',
      'Request.Namespace',
      'Request.Name',
    ]);
  });
});
