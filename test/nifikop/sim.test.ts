// The simulator's NiFiKop (sim/nifikop): a node under each injector, at the versions that decide
// differently; its recreations, log lines and audit requests.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { istioSidecar, linkerdProxy, registryMirror, zarfAgent, zarfImage } from '../../sim/nifikop/webhooks';
import { nifiClusterSpec, nifiNodePod } from '../../sim/nifikop/cluster';
import { renderNifikopLine } from '../../sim/nifikop/log';
import { NifikopOperator } from '../../sim/nifikop/operator';
import { MIN, SEC } from '../../sim/time';
import type { WebhookDef } from '../../sim/webhooks';
import { nifiWorld, SIM_START } from './fixtures';

const START = SIM_START;

function run(
  version: string,
  hooks: WebhookDef[],
  opts: { cluster?: Parameters<typeof nifiClusterSpec>[1] } = {},
) {
  const world = nifiWorld(hooks);
  const spec = nifiClusterSpec('search-nifi', { nodes: ['2'], ...opts.cluster });
  const op = new NifikopOperator(world, spec, { version, debug: true });
  const { readyAt } = op.createNode('2', START + 10 * SEC);
  op.run('2', readyAt + 5 * SEC, readyAt + 5 * MIN);
  return { world, op };
}

describe('the simulated NiFiKop', () => {
  it('builds node pods as pod.go does', () => {
    const pod = nifiNodePod(nifiClusterSpec('search-nifi'), '2');
    expect(pod.metadata?.generateName).toBe('search-nifi-2-node');
    expect(pod.metadata?.labels).toEqual({ app: 'nifi', nifi_cr: 'search-nifi', nodeId: '2' });
    expect(pod.spec?.volumes?.find((v) => v.name === 'node-config')?.secret?.secretName).toBe(
      'search-nifi-config-2',
    );
  });

  it('Zarf loops before 1.14: each recreation reverts the nifi image Zarf wrote', () => {
    const { op, world } = run('1.13.0', [zarfAgent()]);
    expect(op.recreations.length).toBeGreaterThanOrEqual(3);
    for (const r of op.recreations) {
      expect(r).toMatchObject({ operator: 'nifikop', nifiCluster: 'search-nifi', nodeId: '2' });
      expect(r.classification).toBe('external-mutation-revert');
      expect(r.fields.map((f) => [f.path, f.by])).toEqual([
        ['spec.containers[name=nifi].image', 'zarf/agent-pod.zarf.dev'],
      ]);
      expect(r.wouldRestart).toEqual({ '<1.12': true, '1.12-1.13': true, '1.14': false, '>=1.15': false });
      expect(r.deleted.pod.name).toMatch(/^search-nifi-2-node[a-z0-9]{5}$/);
    }
    const msgs = op.log.lines.map((l) => l.msg);
    expect(msgs).toContain('resource diffs');
    expect(msgs.filter((m) => m.startsWith('Deleting pod search-nifi-2-node')).length).toBe(
      op.recreations.length,
    );
    const deletes = world.audit.filter(
      (e) =>
        e.verb === 'delete' && e.stage === 'ResponseComplete' && (e.user.username ?? '').includes('nifikop'),
    );
    expect(deletes.length).toBe(op.recreations.length);
    expect(
      world.audit.some(
        (e) => e.objectRef?.resource === 'nificlusters' && e.objectRef?.subresource === 'status',
      ),
    ).toBe(true);
    expect(
      world.audit.some(
        (e) => e.objectRef?.resource === 'secrets' && e.objectRef?.name === 'search-nifi-config-2',
      ),
    ).toBe(true);
  });

  it.each([
    ['Zarf', '1.14.0', [zarfAgent()]],
    ['Istio (sidecar container)', '1.12.0', [istioSidecar()]],
    ['Istio (native sidecar)', '1.12.0', [istioSidecar({ native: true })]],
    ['Linkerd', '1.15.0', [linkerdProxy()]],
  ])('%s: in sync from NiFiKop %s', (_name, version, hooks) => {
    const { op } = run(version, hooks);
    expect(op.recreations).toEqual([]);
    expect(op.log.lines.some((l) => l.msg.startsWith('pod resource is in sync'))).toBe(true);
  });

  it('Linkerd loops in 1.12-1.14 on the containers order', () => {
    const { op } = run('1.14.0', [linkerdProxy()]);
    expect(op.recreations.length).toBeGreaterThanOrEqual(3);
    expect(op.recreations[0].wouldRestart).toEqual({
      '<1.12': false,
      '1.12-1.13': true,
      '1.14': true,
      '>=1.15': false,
    });
    expect(op.recreations[0].classification).toBe('external-mutation-revert');
    expect(op.recreations[0].fields).toEqual([
      {
        path: 'spec.containers',
        from: ['nifi', 'linkerd-proxy'],
        to: ['linkerd-proxy', 'nifi'],
        by: 'linkerd-proxy-injector-webhook-config/linkerd-proxy-injector.linkerd.io',
      },
    ]);
  });

  it('a registry mirror loops on every version', () => {
    const { op } = run('1.17.0', [registryMirror()]);
    expect(op.recreations.length).toBeGreaterThanOrEqual(3);
    expect(op.recreations[0].fields[0].by).toBe(
      'kyverno-resource-mutating-webhook-cfg/mutate.kyverno.svc-fail',
    );
  });

  const INIT = { initContainers: [{ name: 'init-perms', image: 'busybox:1.36', command: ['true'] }] };

  it.each([
    ['native sidecar', { native: true }],
    ['Istio CNI', { cni: true }],
  ])('Istio (%s) with a declared init container loops until 1.15 (order-only)', (_name, istio) => {
    expect(
      run('1.14.0', [istioSidecar(istio)], { cluster: INIT }).op.recreations.length,
    ).toBeGreaterThanOrEqual(3);
    expect(run('1.15.0', [istioSidecar(istio)], { cluster: INIT }).op.recreations).toEqual([]);
  });

  it('Istio (istio-init last) with a declared init container is in sync from 1.12', () => {
    expect(run('1.11.4', [istioSidecar()], { cluster: INIT }).op.recreations.length).toBeGreaterThanOrEqual(
      3,
    );
    expect(run('1.12.0', [istioSidecar()], { cluster: INIT }).op.recreations).toEqual([]);
  });

  it('renders NiFiKop lines with time, logger and caller', () => {
    const { op } = run('1.13.0', [zarfAgent()]);
    const line = JSON.parse(renderNifikopLine(op.log.lines.find((l) => l.msg.startsWith('Deleting pod'))!));
    expect(Object.keys(line).slice(0, 5)).toEqual(['level', 'time', 'logger', 'caller', 'msg']);
    expect(line.logger).toBe('controllers.NifiCluster');
  });

  it('Zarf image transform (ImageTransformHost)', () => {
    expect(zarfImage('apache/nifi:2.0.0')).toMatch(/^127\.0\.0\.1:31999\/apache\/nifi:2\.0\.0-zarf-\d+$/);
    expect(zarfImage('docker.io/apache/nifi:2.0.0')).toBe(zarfImage('apache/nifi:2.0.0'));
    expect(zarfImage('nifi')).toMatch(/^127\.0\.0\.1:31999\/library\/nifi:latest-zarf-\d+$/);
    expect(zarfImage('apache/nifi@sha256:abc')).toBe('127.0.0.1:31999/apache/nifi@sha256:abc');
    expect(zarfImage('127.0.0.1:31999/apache/nifi:2.0.0-zarf-1')).toBeNull();
  });

  it('beside koperator: the same options give the same logs, and koperator’s recreations are as without it', () => {
    const opts = {
      seed: 5,
      start: '2026-11-03T08:00:00Z',
      scenarios: ['scaleops-loop' as const],
      noiseRatio: 0.2,
    };
    const nifikop = { version: '1.13.0', scenarios: ['zarf' as const, 'config-change' as const] };
    const a = simulateCluster({ ...opts, nifikop });
    const b = simulateCluster({ ...opts, nifikop });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.truth.recreations).toEqual(simulateCluster(opts).truth.recreations);
    expect(a.truth.nifikop!.recreations.map((r) => r.classification)).toContain('config-change');
    // NiFiKop's own service account deletes its pods, and its lines are in the operator log.
    expect(new Set(a.truth.nifikop!.recreations.map((r) => r.deletedPod.deletedBy))).toEqual(
      new Set(['system:serviceaccount:nifikop:nifikop']),
    );
    expect(a.operator.some((l) => l.msg.startsWith('Deleting pod edge-'))).toBe(true);
    // The version is read from NiFiKop's Deployment (Helm's patch of its image); a flag wins.
    const evidence = (opts: Parameters<typeof analyzeFacts>[1]) =>
      analyzeFacts(simulatedFacts(a), opts).recreations.find((r) => r.operator === 'nifikop')!.evidence;
    expect(evidence(defaultAnalysisOptions())).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^NiFiKop 1\.13\.0 \(replayed as 1\.12-1\.13\), read from its image: deployments nifikop\/nifikop patch at /,
        ),
      ]),
    );
    const flagged = evidence({ ...defaultAnalysisOptions(), operatorVersions: { nifikop: '1.13.0' } });
    expect(flagged.some((e) => e.startsWith('NiFiKop '))).toBe(false);
  });
});
