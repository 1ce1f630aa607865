import fc from 'fast-check';
import { applyOperation, applyPatch } from 'fast-json-patch';
import { load } from 'js-yaml';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../../lib/k8s/apply-patch';

const y = (s: string): unknown => load(s);

/** Frozen all the way down: a patch that wrote into the document would throw (strict mode). */
function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const e of Object.values(v)) deepFreeze(e);
    Object.freeze(v);
  }
  return v;
}

const POD = deepFreeze(
  y(`
metadata:
  labels: {app: kafka}
  annotations: {a: "1"}
  finalizers: [x.io/a, x.io/b]
spec:
  containers:
    - {name: kafka, image: k:1, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}
    - {name: fluent-bit, image: f:1}
  tolerations: [{key: t1}]
  volumes:
    - {name: data, emptyDir: {}}
status:
  conditions:
    - {type: PodScheduled, status: "True"}
    - {type: Ready, status: "False"}
`),
);

// StrategicMergePatch as the API server runs it for a PATCH with the strategic merge type.
describe('applyStrategicMergePatch', () => {
  it.each<[string, string, string]>([
    [
      'merges list elements by key, keeping the others',
      'spec: {containers: [{name: kafka, image: k:2}]}',
      'spec.containers: [{name: kafka, image: k:2, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}, {name: fluent-bit, image: f:1}]',
    ],
    [
      'without $setElementOrder a new element goes first (items unknown to the live list win ties)',
      'spec: {containers: [{name: istio-proxy}]}',
      'spec.containers: [{name: istio-proxy}, {name: kafka, image: k:1, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}, {name: fluent-bit, image: f:1}]',
    ],
    [
      'with $setElementOrder it goes where the order says',
      'spec: {$setElementOrder/containers: [{name: kafka}, {name: fluent-bit}, {name: istio-proxy}], containers: [{name: istio-proxy}]}',
      'spec.containers: [{name: kafka, image: k:1, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}, {name: fluent-bit, image: f:1}, {name: istio-proxy}]',
    ],
    [
      '$patch: delete removes an element',
      'spec: {containers: [{name: fluent-bit, $patch: delete}]}',
      'spec.containers: [{name: kafka, image: k:1, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}]',
    ],
    [
      '$patch: replace in a list makes the patch elements the whole list',
      'spec: {containers: [{name: only}, {$patch: replace}]}',
      'spec.containers: [{name: only}]',
    ],
    [
      '$patch: replace on a map',
      'metadata: {labels: {b: "2", $patch: replace}}',
      'metadata.labels: {b: "2"}',
    ],
    ['$patch: delete on a map empties it', 'metadata: {labels: {$patch: delete}}', 'metadata.labels: {}'],
    ['null deletes a key', 'metadata: {annotations: {a: null}}', 'metadata.annotations: {}'],
    [
      'nulls that match nothing are dropped from new maps',
      'spec: {nodeSelector: {a: b, c: null}}',
      'spec.nodeSelector: {a: b}',
    ],
    ['an atomic list is replaced', 'spec: {tolerations: [{key: t2}]}', 'spec.tolerations: [{key: t2}]'],
    [
      '$setElementOrder reorders; elements it does not name keep their place relative to the live list',
      'spec: {$setElementOrder/containers: [{name: fluent-bit}, {name: kafka}]}',
      'spec.containers: [{name: fluent-bit, image: f:1}, {name: kafka, image: k:1, resources: {requests: {cpu: "1"}}, env: [{name: A, value: "1"}]}]',
    ],
    [
      '$deleteFromPrimitiveList removes from a set, additions merge in (first, with no order given)',
      'metadata: {$deleteFromPrimitiveList/finalizers: [x.io/a], finalizers: [x.io/c]}',
      'metadata.finalizers: [x.io/c, x.io/b]',
    ],
    [
      'a set patch with its $setElementOrder',
      'metadata: {$deleteFromPrimitiveList/finalizers: [x.io/a], $setElementOrder/finalizers: [x.io/b, x.io/c], finalizers: [x.io/c]}',
      'metadata.finalizers: [x.io/b, x.io/c]',
    ],
    [
      '$retainKeys clears the fields it does not name (switching a volume source)',
      'spec: {volumes: [{name: data, $retainKeys: [configMap, name], configMap: {name: cm}}]}',
      'spec.volumes: [{name: data, configMap: {name: cm}}]',
    ],
    [
      'a kubelet status patch: conditions merged by type, in $setElementOrder order',
      'status: {$setElementOrder/conditions: [{type: PodScheduled}, {type: Ready}], conditions: [{type: Ready, status: "True"}], phase: Running}',
      'status: {conditions: [{type: PodScheduled, status: "True"}, {type: Ready, status: "True"}], phase: Running}',
    ],
    [
      'directive keys left in a wholly added map are dropped like typed decoding drops them',
      'spec: {affinity: {$retainKeys: [x], podAntiAffinity: {}}}',
      'spec.affinity: {podAntiAffinity: {}}',
    ],
  ])('%s', (_name, patch, expectedPart) => {
    const r = applyStrategicMergePatch(POD, y(patch));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [path, value] = splitExpectation(expectedPart);
    expect(pick(r.value, path)).toEqual(value);
  });

  it.each<[string, unknown, unknown, RegExp]>([
    ['a patch that is not an object', POD, [1, 2], /not a JSON object/],
    ['a document that is not an object', 'pod', {}, /not a JSON object/],
    [
      '$patch: merge on a list element',
      POD,
      y('spec: {containers: [{name: kafka, $patch: merge}]}'),
      /cannot yet be specified/,
    ],
    ['an unknown $patch on a map', POD, y('metadata: {labels: {$patch: squash}}'), /invalid \$patch/],
    ['a merge-list element without its key', POD, y('spec: {containers: [{image: x}]}'), /merge key name/],
    [
      'a patch list out of $setElementOrder order',
      POD,
      y(
        'spec: {$setElementOrder/containers: [{name: kafka}, {name: fluent-bit}], containers: [{name: fluent-bit, image: f:2}, {name: kafka, image: k:2}]}',
      ),
      /does not match/,
    ],
    [
      'a field missing from $retainKeys',
      POD,
      y('spec: {volumes: [{name: data, $retainKeys: [name], configMap: {name: cm}}]}'),
      /retainKeys/,
    ],
    ['a malformed directive key', POD, y('spec: {$setElementOrder: [{name: kafka}]}'), /not of the form/],
  ])('refuses %s', (_name, doc, patch, reason) => {
    const r = applyStrategicMergePatch(doc, patch);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('takes a missing document as {}', () => {
    expect(applyStrategicMergePatch(undefined, { metadata: { name: 'p' } })).toEqual({
      ok: true,
      value: { metadata: { name: 'p' } },
    });
  });

  it('never mutates its inputs', () => {
    const before = JSON.stringify(POD);
    const patch = y(
      'spec: {$setElementOrder/containers: [{name: fluent-bit}, {name: kafka}], containers: [{name: kafka, image: k:9}]}',
    );
    const patchBefore = JSON.stringify(patch);
    applyStrategicMergePatch(POD, patch);
    expect(JSON.stringify(POD)).toBe(before);
    expect(JSON.stringify(patch)).toBe(patchBefore);
  });
});

// RFC 6902, all-or-nothing.
describe('applyJsonPatch', () => {
  it.each<[string, unknown, string, unknown]>([
    [
      'a webhook lowering requests',
      [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '392m' }],
      'spec.containers.0.resources.requests.cpu',
      '392m',
    ],
    [
      'an annotation with an escaped slash',
      [{ op: 'add', path: '/metadata/annotations/scaleops.sh~1applied-policy', value: 'production' }],
      'metadata.annotations',
      { a: '1', 'scaleops.sh/applied-policy': 'production' },
    ],
    [
      'a sidecar appended',
      [{ op: 'add', path: '/spec/containers/-', value: { name: 'istio-proxy' } }],
      'spec.containers.2',
      { name: 'istio-proxy' },
    ],
    [
      'a passing test then a change',
      [
        { op: 'test', path: '/spec/tolerations/0/key', value: 't1' },
        { op: 'add', path: '/spec/tolerations/0', value: { key: 't0' } },
      ],
      'spec.tolerations',
      [{ key: 't0' }, { key: 't1' }],
    ],
    ['remove', [{ op: 'remove', path: '/metadata/labels/app' }], 'metadata.labels', {}],
  ])('%s', (_name, ops, path, value) => {
    const r = applyJsonPatch(POD, ops);
    expect(r.ok).toBe(true);
    if (r.ok) expect(pick(r.value, path)).toEqual(value);
  });

  it.each<[string, unknown]>([
    ['a failing test op', [{ op: 'test', path: '/spec/containers/0/image', value: 'k:2' }]],
    ['removing a path that does not exist', [{ op: 'remove', path: '/spec/nodeSelector/x' }]],
    ['replacing a path that does not exist', [{ op: 'replace', path: '/spec/nodeName', value: 'n' }]],
    ['adding under a missing parent', [{ op: 'add', path: '/spec/nodeSelector/x', value: 'y' }]],
    ['an index past the end', [{ op: 'add', path: '/spec/containers/9', value: {} }]],
    ['an unknown op', [{ op: 'merge', path: '/spec', value: {} }]],
    ['an op without a path', [{ op: 'add', value: 1 }]],
    ['ops that are not a list', { op: 'add', path: '/a', value: 1 }],
    ['a prototype-polluting path', [{ op: 'add', path: '/__proto__/polluted', value: true }]],
  ])('refuses %s', (_name, ops) => {
    const r = applyJsonPatch(POD, ops);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason.length).toBeGreaterThan(0);
  });

  it('applies all or nothing and never mutates the document', () => {
    const before = JSON.stringify(POD);
    const r = applyJsonPatch(POD, [
      { op: 'replace', path: '/spec/containers/0/image', value: 'k:2' },
      { op: 'test', path: '/spec/containers/0/image', value: 'k:1' },
    ]);
    expect(r.ok).toBe(false);
    expect(JSON.stringify(POD)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('applyJsonPatch: path copying', () => {
  it('shares with the document every part the patch does not reach', () => {
    const pod = POD as { spec: { containers: object[]; volumes: object[] }; metadata: object };
    const r = applyJsonPatch(POD, [
      { op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '392m' },
      { op: 'add', path: '/spec/containers/0/env/-', value: { name: 'B', value: '2' } },
    ]);
    expect(r.ok).toBe(true);
    const out = (r as { value: typeof pod }).value;
    expect(out).not.toBe(pod);
    expect(out.spec.containers).not.toBe(pod.spec.containers);
    expect(out.spec.containers[0]).not.toBe(pod.spec.containers[0]);
    expect(out.spec.containers[1]).toBe(pod.spec.containers[1]);
    expect(out.spec.volumes).toBe(pod.spec.volumes);
    expect(out.metadata).toBe(pod.metadata);
  });

  it('leaves the patch as it was, though its values enter the result', () => {
    const value = deepFreeze({ name: 'istio-proxy', ports: [{ containerPort: 15090 }] });
    const ops = deepFreeze([
      { op: 'add', path: '/spec/containers/-', value },
      { op: 'add', path: '/spec/containers/2/ports/-', value: { containerPort: 15021 } },
    ]);
    const r = applyJsonPatch(POD, ops);
    expect(r.ok).toBe(true);
    expect(pick((r as { value: unknown }).value, 'spec.containers.2.ports')).toEqual([
      { containerPort: 15090 },
      { containerPort: 15021 },
    ]);
    expect(value.ports).toEqual([{ containerPort: 15090 }]);
  });

  it('refuses a path through a property only the prototype has, and writes nothing there', () => {
    for (const path of ['/constructor/polluted', '/metadata/toString/polluted', '/spec/hasOwnProperty/x']) {
      const r = applyJsonPatch(POD, [{ op: 'add', path, value: true }]);
      expect(r.ok).toBe(false);
    }
    expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype.toString as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  // fast-json-patch reads any run of digits as an index, even "01" and "": so does the copy.
  it.each<[string, string]>([
    ['a leading zero', '/spec/containers/01/image'],
    ['an empty index', '/spec/containers//image'],
    ['an escaped key', '/metadata/annotations/a~1b'],
  ])('writes only into copies for %s', (_what, path) => {
    const before = JSON.stringify(POD);
    const r = applyJsonPatch(POD, [{ op: 'add', path, value: 'x' }]);
    expect(JSON.stringify(POD)).toBe(before);
    const reference = (() => {
      try {
        return applyOperation(JSON.parse(before), { op: 'add', path, value: 'x' }, true, true, true)
          .newDocument;
      } catch {
        return undefined;
      }
    })();
    expect(r.ok ? r.value : undefined).toEqual(reference);
  });

  it('gives what fast-json-patch gives on a copy, for any patch of a pod, without mutating either', () => {
    const paths = [
      '/metadata/labels/app',
      '/metadata/labels/new',
      '/metadata/finalizers/0',
      '/metadata/finalizers/-',
      '/spec/containers/0/resources/requests/cpu',
      '/spec/containers/0/env/0',
      '/spec/containers/1',
      '/spec/containers/-',
      '/spec/tolerations/0/key',
      '/spec/volumes/0/emptyDir',
      '/status/conditions/1/status',
      '/spec/nodeName',
      '/missing/x',
      '',
    ];
    const op = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
      path: fc.constantFrom(...paths),
      from: fc.constantFrom(...paths),
      value: fc.oneof(fc.string(), fc.integer(), fc.constant({ k: 'v' }), fc.constant([1, 2])),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 6 }), (ops) => {
        const before = JSON.stringify(POD);
        const patchText = JSON.stringify(ops);
        const got = applyJsonPatch(POD, JSON.parse(patchText));
        let want: unknown;
        // RFC 6902 4.4, which fast-json-patch does not check: no move into its own child.
        const intoItself = ops.some(
          (o) => o.op === 'move' && o.path !== o.from && (o.from === '' || o.path.startsWith(`${o.from}/`)),
        );
        try {
          if (intoItself) throw new Error('refused');
          want = JSON.parse(
            JSON.stringify(
              applyPatch(JSON.parse(before), JSON.parse(patchText), true, true, true).newDocument,
            ),
          );
        } catch {
          want = undefined;
        }
        expect(JSON.stringify(POD)).toBe(before);
        expect(got.ok ? JSON.stringify(got.value) : undefined).toBe(
          want === undefined ? undefined : JSON.stringify(want),
        );
      }),
      { numRuns: 500 },
    );
  });
});

// RFC 7386.
describe('applyMergePatch', () => {
  it.each<[string, unknown, unknown, unknown]>([
    ['replaces a scalar', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['adds a key', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['null deletes', { a: 'b' }, { a: null }, {}],
    ['lists are replaced whole', { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ['nested maps merge', { a: { b: 1, c: 2 } }, { a: { c: null, d: 3 } }, { a: { b: 1, d: 3 } }],
    ['nulls inside new maps vanish', {}, { a: { b: null, c: 1 } }, { a: { c: 1 } }],
    ['a non-object patch replaces the document', { a: 1 }, ['x'], ['x']],
    ['a non-object document is replaced by an object', 'x', { a: 1 }, { a: 1 }],
  ])('%s', (_name, doc, patch, expected) => {
    expect(applyMergePatch(doc, patch)).toEqual({ ok: true, value: expected });
  });

  it('never mutates its inputs', () => {
    const doc = { a: { b: 1 } };
    const patch = { a: { c: 2 } };
    const r = applyMergePatch(doc, patch);
    expect(doc).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: 2 } });
    if (r.ok) (r.value as { a: { b: number } }).a.b = 9;
    expect(doc.a.b).toBe(1);
  });
});

function splitExpectation(s: string): [string, unknown] {
  const colon = s.indexOf(': ');
  return [s.slice(0, colon), y(s.slice(colon + 2))];
}

function pick(v: unknown, dotted: string): unknown {
  let cur = v;
  for (const k of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}
