// `explain-pod` on a NiFi node pod: told NiFiKop's by its labels, explained per range of NiFiKop
// versions (the ranges of test/nifikop/steps.test.ts), named in NiFiKop's words, and through
// the CLI as text, JSON and --exit-code. A Kafka broker pod is still explained as koperator's.
import type { Pod } from 'kubernetes-types/core/v1';
import { PassThrough, Readable } from 'stream';
import { explainAnyPod, isUnitExplanation, operatorOfPod } from '../../lib/explain/explain-unit-pod';
import { main } from '../../lib/cli/main';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import { lastAppliedConfiguration } from '../../lib/koperator/pod-diff';
import { DESIRED, edit, istio, live, mirror, zarf } from '../nifikop/fixtures';

/** The live pod as the API server keeps it: NiFiKop stamped its last-applied annotation at create. */
function stamped(livePod: Pod): Record<string, unknown> {
  return edit(livePod, (p) => {
    p.metadata!.annotations = {
      ...p.metadata!.annotations,
      [LAST_APPLIED_ANNOTATION]: encodeLastApplied(lastAppliedConfiguration(DESIRED)),
    };
  }) as unknown as Record<string, unknown>;
}

const LIVE = live(DESIRED);
const LABEL = 'NiFiKop (NifiCluster nifi/search-nifi, node 2)';

describe('explain-pod on a NiFi node pod', () => {
  it.each([
    ['no webhook', LIVE, [false, false, false, false], '<1.12'],
    ['Istio proxy + istio-init', istio(LIVE), [true, false, false, false], '1.12-1.13'],
    ['Zarf rewrites the nifi image', zarf(LIVE), [true, true, false, false], '1.14'],
    ['a registry mirror rewrites the image', mirror(LIVE), [true, true, true, true], null],
  ] as const)(
    '%s: each range answered, the version that keeps it named',
    (_name, pod, restarts, keptFrom) => {
      const e = explainAnyPod(stamped(pod));
      if (!isUnitExplanation(e)) throw new Error('explained as koperator’s');
      expect(e.operator).toBe('nifikop');
      expect(e.label).toBe(LABEL);
      expect(e.pod).toMatchObject({ namespace: 'nifi', nifiCluster: 'search-nifi', nodeId: '2' });
      expect(e.byVersion.map((a) => [a.range, a.restarts])).toEqual(
        ['<1.12', '1.12-1.13', '1.14', '>=1.15'].map((r, i) => [r, restarts[i]]),
      );
      expect(e.keptFrom).toBe(keptFrom);
      expect(e.recommendation === null).toBe(!(restarts as readonly boolean[]).includes(true));
      if (keptFrom === null) expect(e.recommendation).toContain('No NiFiKop version keeps this pod');
      else if (restarts[0]) expect(e.recommendation).toContain(`NiFiKop ${keptFrom} and later keep this pod`);
    },
  );

  it('the fields a version reverts are named, with their declared and live values', () => {
    const e = explainAnyPod(stamped(mirror(LIVE)));
    if (!isUnitExplanation(e)) throw new Error('explained as koperator’s');
    expect(e.byVersion[3].fields.map((f) => f.path)).toEqual(['spec.containers[name=nifi].image']);
  });

  it('a pod without the last-applied annotation is said not to be NiFiKop’s own', () => {
    const e = explainAnyPod(LIVE as unknown as Record<string, unknown>);
    expect(e.verdict).toContain('was not created by NiFiKop');
  });

  it('a Kafka broker pod stays koperator’s', () => {
    const broker = { metadata: { labels: { app: 'kafka', kafka_cr: 'orders', brokerId: '1' } }, spec: {} };
    expect(operatorOfPod(broker).id).toBe('koperator');
    expect(operatorOfPod(stamped(LIVE)).id).toBe('nifikop');
  });

  it('the CLI prints NiFiKop’s words, its JSON keys, and --exit-code follows the newest version', async () => {
    const run = async (pod: Record<string, unknown>, args: string[]) => {
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d) => (out += d));
      const code = await main(['explain-pod', '-', ...args], {
        stdout,
        stderr: new PassThrough(),
        stdin: Readable.from([JSON.stringify(pod)]),
      });
      return { code, out };
    };
    const text = await run(stamped(zarf(LIVE)), ['--exit-code']);
    expect(text.out).toContain(`pod nifi/search-nifi-2-nodeq7x2k: ${LABEL}`);
    expect(text.out).toMatch(/NiFiKop <1\.12 \(.*\): RESTARTS the pod/);
    expect(text.out).toMatch(/NiFiKop >=1\.15 \(.*\): leaves it alone/);
    expect(text.code).toBe(0);
    expect((await run(stamped(mirror(LIVE)), ['--exit-code'])).code).toBe(1);
    const json = JSON.parse((await run(stamped(zarf(LIVE)), ['-o', 'json'])).out);
    expect(json).toMatchObject({
      operator: 'nifikop',
      pod: { nifiCluster: 'search-nifi', nodeId: '2' },
      keptFrom: '1.14',
    });
  });
});
