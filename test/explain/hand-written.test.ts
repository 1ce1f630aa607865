// explain-pod on a pod whose last-applied annotation a person wrote: plain JSON without the
// `status: {}` koperator's annotator always writes. With no --desired the KafkaCluster is
// assumed unchanged, so the only difference is the annotation's form: named as such, and no
// recommendation blames an actor for it.
import * as yaml from 'js-yaml';
import { explainPod, renderExplanation } from '../../lib/explain/explain-pod';
import { decodeLastApplied, encodeLastApplied, type LastAppliedEncoding } from '../../lib/k8s/last-applied';
import { WEBHOOK_MARKERS } from '../../lib/explain/webhook-markers';
import { livePodYaml, type LivePodKind } from '../../sim';

type Pod = { metadata: { annotations: Record<string, string> } } & Record<string, unknown>;
const ANN = 'banzaicloud.com/last-applied';

/** The simulator's live pod with its annotation rewritten as a person would: `status` left out. */
function handWritten(kind: LivePodKind, encoding: LastAppliedEncoding): Pod {
  const pod = yaml.load(livePodYaml(kind, 11)) as Pod;
  const decoded = decodeLastApplied(pod.metadata.annotations[ANN]);
  if (!decoded.ok) throw new Error(decoded.reason);
  const { status, ...declared } = decoded.value;
  expect(status).toEqual({});
  pod.metadata.annotations[ANN] = encodeLastApplied(declared, encoding);
  return pod;
}

const WEBHOOK_NAMES = WEBHOOK_MARKERS.map((m) => m.name);

describe('a hand-written last-applied annotation (no --desired)', () => {
  it.each<{ kind: LivePodKind; encoding: LastAppliedEncoding; reverts: boolean }>([
    { kind: 'clean', encoding: 'json', reverts: false },
    { kind: 'clean', encoding: 'base64-json', reverts: false },
    { kind: 'istio', encoding: 'json', reverts: false },
    { kind: 'vpa', encoding: 'json', reverts: true },
  ])('$kind pod, $encoding: the form is named, no actor is blamed for it', ({ kind, encoding, reverts }) => {
    const e = explainPod(handWritten(kind, encoding));
    expect(e.desired).toBe('unchanged-kafkacluster');
    expect(e.lastApplied.handWritten?.lacks).toEqual(['status: {}']);
    // Real koperator with the fix diffs the annotation as written against its own marshalling.
    expect(e.afterFix.restarts).toBe(true);
    expect(e.afterFix.fields.every((f) => f.cause === 'annotation-form')).toBe(true);
    expect(e.beforeFix.restarts).toBe(reverts);
    expect(e.verdict).toMatch(
      /the annotation looks hand-written: it lacks what koperator's annotator always writes \(status: \{\}\); real koperator would restart once for that alone/,
    );
    expect(e.verdict).not.toMatch(/both operators restart/);
    expect(e.recommendation ?? '').not.toMatch(/two controllers|KafkaCluster keeps changing/);
    const text = renderExplanation(e);
    expect(text).toMatch(/^last-applied: found \(\S+, looks hand-written: status: \{\}\)$/m);
    expect(text).toMatch(/^desired pod: assumed: the KafkaCluster did not change/m);
    expect(text).toMatch(
      /^koperator with the fix \(intent diff\): RESTARTS the broker once, for the annotation's form alone\n {2}no field of the pod changed; the annotation: status: \{\}$/m,
    );
    if (!reverts) {
      // Nothing a field shows was changed by anyone: no webhook is named in what to do.
      for (const name of WEBHOOK_NAMES) expect(e.recommendation ?? '').not.toContain(name);
    } else {
      // The VPA is named for the requests its own annotation records, and for nothing else.
      expect(e.wouldRevert.map((f) => [f.path, f.by])).toEqual([
        [
          'spec.containers[name=kafka].resources.requests.cpu',
          'Vertical Pod Autoscaler admission controller',
        ],
        [
          'spec.containers[name=kafka].resources.requests.memory',
          'Vertical Pod Autoscaler admission controller',
        ],
      ]);
      expect(e.recommendation).toMatch(
        /^Vertical Pod Autoscaler admission controller rewrites spec\.containers\[name=kafka\]\.resources\.requests\.cpu, spec\.containers\[name=kafka\]\.resources\.requests\.memory at admission, at every pod create/,
      );
    }
  });

  it('koperator’s own annotation is not hand-written, and a clean pod is in sync', () => {
    const e = explainPod(yaml.load(livePodYaml('clean', 11)) as Pod);
    expect(e.lastApplied.handWritten).toBeUndefined();
    expect(e.afterFix.restarts).toBe(false);
    expect(e.verdict).toBe('in sync: neither operator would restart this pod for its spec');
  });

  it('an annotation with quantities in another spelling names what the annotator would rewrite', () => {
    const pod = handWritten('clean', 'json');
    const declared = decodeLastApplied(pod.metadata.annotations[ANN]);
    if (!declared.ok) throw new Error(declared.reason);
    const value = { ...declared.value, status: {} } as unknown as {
      spec: { containers: Array<{ name: string; resources: { limits: Record<string, string> } }> };
    };
    const kafka = value.spec.containers.find((c) => c.name === 'kafka')!;
    kafka.resources.limits.cpu = '1.5';
    pod.metadata.annotations[ANN] = encodeLastApplied(value, 'json');
    const e = explainPod(pod);
    expect(e.lastApplied.handWritten).toEqual({
      lacks: [],
      extra: [],
      rewritten: ['spec.containers[name=kafka].resources.limits.cpu: "1.5" → "1500m"'],
    });
    expect(e.afterFix.restarts).toBe(true);
    expect(e.verdict).toMatch(
      /the annotation looks hand-written: it is not written the way koperator's annotator writes it \(spec\.containers\[name=kafka\]\.resources\.limits\.cpu: "1\.5" → "1500m"\); real koperator would restart once for that alone/,
    );
  });
});
