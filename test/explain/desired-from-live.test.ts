// explain-pod --desired with a desired pod copied from `kubectl get pod -o yaml` and edited:
// what the API server filled in is said to be that, the live pod's values are the live pod's
// (named after a webhook only where its own record shows the field), and the user's own edit
// is the desired pod's change, blamed on no one.
import * as yaml from 'js-yaml';
import { explainPod } from '../../lib/explain/explain-pod';
import type { DiffCause } from '../../lib/explain/attribute';
import { livePodYaml } from '../../sim';

type Container = { name: string; resources: { limits: Record<string, string> } };
type Pod = { metadata: { annotations: Record<string, string> }; spec: { containers: Container[] } };
const VPA = 'Vertical Pod Autoscaler admission controller';

function copiedAndEdited(keepAnnotation: boolean): { live: Pod; desired: Pod } {
  const live = yaml.load(livePodYaml('vpa', 7, 0)) as Pod;
  const desired = JSON.parse(JSON.stringify(live)) as Pod;
  desired.spec.containers.find((c) => c.name === 'kafka')!.resources.limits.memory = '4Gi';
  if (!keepAnnotation) delete desired.metadata.annotations['banzaicloud.com/last-applied'];
  return { live, desired };
}

describe('--desired copied from the live pod', () => {
  it.each([{ keepAnnotation: true }, { keepAnnotation: false }])(
    'its last-applied kept: $keepAnnotation',
    ({ keepAnnotation }) => {
      const { live, desired } = copiedAndEdited(keepAnnotation);
      const e = explainPod(live as never, desired as never);
      // The copy's annotation is the live pod's own: it says nothing of what is desired.
      expect(e.desired).toBe('file');
      const cause = new Map(e.afterFix.fields.map((f) => [f.path, f]));
      const expected: Array<[string, DiffCause, string | undefined]> = [
        ['spec.containers[name=kafka].resources.limits.memory', 'desired-change', undefined],
        ['spec.nodeName', 'server-filled', undefined],
        ['spec.dnsPolicy', 'server-filled', undefined],
        ['spec.schedulerName', 'server-filled', undefined],
        ['spec.tolerations', 'server-filled', undefined],
        ['metadata.name', 'server-filled', undefined],
        ['spec.containers[name=kafka].terminationMessagePath', 'server-filled', undefined],
        ['spec.containers[name=kafka].resources.requests.cpu', 'live-mutation', VPA],
        ['spec.containers[name=kafka].resources.requests.memory', 'live-mutation', VPA],
      ];
      for (const [path, c, by] of expected) {
        expect([path, cause.get(path)?.cause, cause.get(path)?.by]).toEqual([path, c, by]);
      }
      expect(e.afterFix.fields.filter((f) => f.cause === 'desired-change')).toHaveLength(1);
      expect(e.verdict).toMatch(
        /^the desired pod changes 1 field\(s\) koperator last applied \(spec\.containers\[name=kafka\]\.resources\.limits\.memory\): both operators restart this broker once; \d+ difference\(s\) are fields the API server fills in/,
      );
      // The user's own edit is not the VPA's, and nothing is "an unidentified actor".
      const rec = e.recommendation ?? '';
      expect(rec).toMatch(
        /Applying this desired pod is a change of the KafkaCluster \(spec\.containers\[name=kafka\]\.resources\.limits\.memory\)/,
      );
      expect(rec).toMatch(/Leave out of --desired what the API server fills in/);
      expect(rec).not.toMatch(/Vertical Pod Autoscaler|unidentified actor|two controllers/);
    },
  );

  it('a desired pod stamped by koperator (another last-applied) is compared by its annotation', () => {
    const { live } = copiedAndEdited(true);
    const successor = yaml.load(livePodYaml('clean', 3, 0)) as Pod;
    const e = explainPod(live as never, successor as never);
    expect(e.desired).toBe('file-last-applied');
    expect(e.afterFix.fields.filter((f) => f.cause === 'server-filled')).toEqual([]);
  });
});
