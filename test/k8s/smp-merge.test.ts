// strategicMerge copies on write: the result shares with the document every part the patch
// does not reach, and the document itself is never written to.
import { load } from 'js-yaml';
import { strategicMerge } from '../../lib/k8s/smp-merge';

type Doc = { spec: Record<string, unknown>; metadata: Record<string, unknown> };

const doc = (): Doc =>
  load(`
metadata: {labels: {app: kafka}, annotations: {a: "1"}}
spec:
  containers:
    - {name: kafka, image: k:1, env: [{name: A, value: "1"}]}
    - {name: fluent-bit, image: f:1}
  volumes: [{name: data, emptyDir: {}}]
  affinity: {nodeAffinity: {x: 1}}
`) as Doc;

describe('strategicMerge copy on write', () => {
  it('shares untouched parts and copies the maps and lists it changes', () => {
    const d = doc();
    const before = JSON.stringify(d);
    const out = strategicMerge(d, load('spec: {containers: [{name: kafka, image: k:2}]}')) as Doc;
    expect(JSON.stringify(d)).toBe(before);
    expect(out).not.toBe(d);
    expect(out.spec).not.toBe(d.spec);
    expect(out.metadata).toBe(d.metadata);
    expect(out.spec.volumes).toBe(d.spec.volumes);
    expect(out.spec.affinity).toBe(d.spec.affinity);
    const [kafka, fluent] = out.spec.containers as Array<Record<string, unknown>>;
    const [kafkaBefore, fluentBefore] = d.spec.containers as Array<Record<string, unknown>>;
    expect(kafka).not.toBe(kafkaBefore);
    expect(kafka.image).toBe('k:2');
    expect(kafka.env).toBe(kafkaBefore.env);
    expect(fluent).toBe(fluentBefore);
  });

  it.each([
    ['a null deleting a key', 'metadata: {annotations: {a: null}}'],
    ['a map-level $patch: replace', 'metadata: {labels: {b: "2", $patch: replace}}'],
    [
      '$retainKeys on a volume',
      'spec: {volumes: [{name: data, $retainKeys: [name, configMap], configMap: {name: c}}]}',
    ],
    ['a $setElementOrder', 'spec: {$setElementOrder/containers: [{name: fluent-bit}, {name: kafka}]}'],
    ['an element $patch: delete', 'spec: {containers: [{name: fluent-bit, $patch: delete}]}'],
  ])('leaves the document as it was after %s', (_name, patch) => {
    const d = doc();
    const before = JSON.stringify(d);
    strategicMerge(d, load(patch));
    expect(JSON.stringify(d)).toBe(before);
  });

  it('keeps an own __proto__ key as a key', () => {
    const d = JSON.parse('{"metadata": {"__proto__": {"x": 1}, "labels": {}}}') as Doc;
    const out = strategicMerge(d, { metadata: { labels: { a: 'b' } } }) as Doc;
    expect(Object.prototype.hasOwnProperty.call(out.metadata, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out.metadata)).toBe(Object.prototype);
  });
});
