// NiFiKop replayed by the analysis: the simulator's NiFiKop (sim/nifikop) writes its audit
// requests and log lines; the analysis, from their facts alone, must find each recreation with
// its class, fields and writers, its answer for each version range, and each loop with the
// version that would stop it, named `operator: nifikop`, `nifiCluster`, `nodeId`.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { projectRecord } from '../../lib/facts/project';
import type { Fact } from '../../lib/model/facts';
import { renderJson } from '../../lib/report/json';
import { linkerdProxy, registryMirror, zarfAgent } from '../../sim/nifikop/webhooks';
import { nifiClusterSpec } from '../../sim/nifikop/cluster';
import { NifikopOperator } from '../../sim/nifikop/operator';
import { MIN, SEC } from '../../sim/time';
import type { WebhookDef } from '../../sim/webhooks';
import { nifiWorld, SIM_START } from './fixtures';

const START = SIM_START;
const src = { source: 'sim', line: 0 };

function simulate(version: string, hooks: WebhookDef[]) {
  const world = nifiWorld(hooks);
  const op = new NifikopOperator(world, nifiClusterSpec('search-nifi', { nodes: ['2'] }), {
    version,
    debug: true,
  });
  const { readyAt } = op.createNode('2', START + 10 * SEC);
  op.run('2', readyAt + 5 * SEC, readyAt + 5 * MIN);
  const facts: Fact[] = [];
  for (const event of world.audit) {
    const f = projectRecord({ kind: 'audit', event, format: 'audit-jsonl', at: src });
    if (f) facts.push(f);
  }
  for (const line of op.log.lines) {
    const f = projectRecord({ kind: 'operator', line, format: 'zap-json', at: src });
    if (f) facts.push(f);
  }
  return { op, facts };
}

describe('NiFiKop replayed by the analysis', () => {
  it.each([
    ['Zarf', '1.13.0', [zarfAgent()], '1.14'],
    ['Linkerd', '1.14.0', [linkerdProxy()], '>=1.15'],
    ['a registry mirror', '1.17.0', [registryMirror()], null],
  ])('%s at NiFiKop %s: every recreation as the simulator made it, one loop', (_n, version, hooks, stops) => {
    const { op, facts } = simulate(version, hooks);
    const opts = { ...defaultAnalysisOptions(), operatorVersions: { nifikop: version } };
    const { recreations, loops } = analyzeFacts(facts, opts);
    expect(op.recreations.length).toBeGreaterThanOrEqual(3);
    const seen = recreations.map((r) => ({
      operator: r.operator,
      cluster: r.kafkaCluster,
      node: r.brokerId,
      pod: r.deletedPod.name,
      classification: r.classification,
      fields: r.fields.map((f) => [f.path, f.by]),
      byVersion: r.wouldRestartByVersion,
    }));
    const truth = op.recreations.map((r) => ({
      operator: r.operator,
      cluster: r.nifiCluster,
      node: r.nodeId,
      pod: r.deleted.pod.name,
      classification: r.classification,
      fields: r.fields.map((f) => [f.path, f.by]),
      byVersion: r.wouldRestart,
    }));
    expect(seen).toEqual(truth);
    expect(loops).toHaveLength(1);
    expect(loops[0]).toMatchObject({
      operator: 'nifikop',
      kafkaCluster: 'search-nifi',
      brokerId: '2',
      count: op.recreations.length,
      stoppedByVersion: stops,
    });
    const doc = JSON.parse(renderJson({ recreations, loops, summary: {} }));
    expect(doc.recreations[0]).toMatchObject({
      operator: 'nifikop',
      nifiCluster: 'search-nifi',
      nodeId: '2',
    });
    expect(doc.recreations[0]).not.toHaveProperty('kafkaCluster');
    expect(doc.recreations[0].wouldRestart).toEqual(op.recreations[0].wouldRestart);
    expect(doc.loops[0]).toMatchObject({
      operator: 'nifikop',
      nifiCluster: 'search-nifi',
      stoppedByVersion: stops,
    });
  });

  it('says the version was assumed when it is not given', () => {
    const { facts } = simulate('1.13.0', [zarfAgent()]);
    const { recreations } = analyzeFacts(facts, defaultAnalysisOptions());
    expect(recreations.length).toBeGreaterThan(0);
    for (const r of recreations)
      expect(r.evidence).toContain(
        'NiFiKop version unknown (no --nifikop-version): replayed as >=1.15, its newest',
      );
  });
});
