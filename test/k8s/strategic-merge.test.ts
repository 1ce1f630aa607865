import { load } from 'js-yaml';
import {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  isEmptyPatch,
} from '../../lib/k8s/strategic-merge';

const y = (s: string): unknown => load(s);

// CreateTwoWayMergePatch(original, modified) on the Pod schema, in apimachinery's wire format.
describe('createTwoWayMergePatch', () => {
  it.each<[string, string, string, string]>([
    [
      'identical pods',
      'spec: {containers: [{name: a, image: x}]}',
      'spec: {containers: [{name: a, image: x}]}',
      '{}',
    ],
    [
      'a map key added',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1", b: "2"}}',
      'metadata: {labels: {b: "2"}}',
    ],
    [
      'a map key removed is set to null',
      'metadata: {labels: {a: "1", b: "2"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {b: null}}',
    ],
    ['a whole map removed', 'spec: {nodeSelector: {a: b}}', 'spec: {}', 'spec: {nodeSelector: null}'],
    [
      'a changed field inside a merge-list element carries the merge key and the order',
      'spec: {containers: [{name: a, image: x}, {name: b, image: y}]}',
      'spec: {containers: [{name: a, image: x2}, {name: b, image: y}]}',
      'spec: {$setElementOrder/containers: [{name: a}, {name: b}], containers: [{name: a, image: x2}]}',
    ],
    [
      'an added element goes out whole',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{name: a}, {name: b, image: y}]}',
      'spec: {$setElementOrder/containers: [{name: a}, {name: b}], containers: [{name: b, image: y}]}',
    ],
    [
      'a removed element becomes $patch: delete',
      'spec: {containers: [{name: a}, {name: b}]}',
      'spec: {containers: [{name: a}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: b, $patch: delete}]}',
    ],
    [
      'a reorder alone is a $setElementOrder',
      'spec: {containers: [{name: a}, {name: b}]}',
      'spec: {containers: [{name: b}, {name: a}]}',
      'spec: {$setElementOrder/containers: [{name: b}, {name: a}]}',
    ],
    [
      'nested merge lists: env keyed by name',
      'spec: {containers: [{name: a, env: [{name: X, value: "1"}, {name: Y, value: "2"}]}]}',
      'spec: {containers: [{name: a, env: [{name: X, value: "1"}, {name: Y, value: "3"}]}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, $setElementOrder/env: [{name: X}, {name: Y}], env: [{name: Y, value: "3"}]}]}',
    ],
    [
      'ports keyed by containerPort (a number)',
      'spec: {containers: [{name: a, ports: [{containerPort: 80, name: http}, {containerPort: 443}]}]}',
      'spec: {containers: [{name: a, ports: [{containerPort: 80, name: web}, {containerPort: 443}]}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, $setElementOrder/ports: [{containerPort: 80}, {containerPort: 443}], ports: [{containerPort: 80, name: web}]}]}',
    ],
    [
      'volumeMounts keyed by mountPath',
      'spec: {containers: [{name: a, volumeMounts: [{mountPath: /d, name: d}]}]}',
      'spec: {containers: [{name: a, volumeMounts: [{mountPath: /d, name: d, readOnly: true}]}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, $setElementOrder/volumeMounts: [{mountPath: /d}], volumeMounts: [{mountPath: /d, readOnly: true}]}]}',
    ],
    [
      'an atomic list (tolerations) goes out whole',
      'spec: {tolerations: [{key: a}, {key: b}]}',
      'spec: {tolerations: [{key: a}]}',
      'spec: {tolerations: [{key: a}]}',
    ],
    [
      'an atomic list of scalars (command) goes out whole',
      'spec: {containers: [{name: a, command: [sh, -c, x]}]}',
      'spec: {containers: [{name: a, command: [sh, -c, y]}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, command: [sh, -c, y]}]}',
    ],
    [
      'finalizers are a set: additions, $deleteFromPrimitiveList and the order',
      'metadata: {finalizers: [a, b]}',
      'metadata: {finalizers: [b, c]}',
      'metadata: {$deleteFromPrimitiveList/finalizers: [a], $setElementOrder/finalizers: [b, c], finalizers: [c]}',
    ],
    [
      'an unchanged but unsorted primitive list still gets a $setElementOrder (upstream sorts in place)',
      'metadata: {finalizers: [b, a]}',
      'metadata: {finalizers: [b, a]}',
      'metadata: {$setElementOrder/finalizers: [b, a]}',
    ],
    [
      'volumes are retainKeys: switching the source clears the old one',
      'spec: {volumes: [{name: d, emptyDir: {}}]}',
      'spec: {volumes: [{name: d, configMap: {name: cm}}]}',
      'spec: {$setElementOrder/volumes: [{name: d}], volumes: [{$retainKeys: [configMap, name], configMap: {name: cm}, emptyDir: null, name: d}]}',
    ],
    [
      'an empty original list: the new list goes out whole, no order directive',
      'spec: {containers: []}',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{name: a}]}',
    ],
    ['a type change replaces', 'spec: {x: [1]}', 'spec: {x: {a: 1}}', 'spec: {x: {a: 1}}'],
    [
      'quantities compare as strings, as upstream: 2Gi and 2147483648 are different spellings',
      'spec: {containers: [{name: a, resources: {requests: {memory: 2Gi}}}], overhead: {cpu: 250m}}',
      'spec: {containers: [{name: a, resources: {requests: {memory: "2147483648"}}}], overhead: {cpu: 250m}}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, resources: {requests: {memory: "2147483648"}}}]}',
    ],
    [
      'a quantity of another value is a change',
      'spec: {containers: [{name: a, resources: {requests: {cpu: "1"}}}]}',
      'spec: {containers: [{name: a, resources: {requests: {cpu: 392m}}}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, resources: {requests: {cpu: 392m}}}]}',
    ],
    [
      'outside quantity paths spelling matters (a label is a string)',
      'metadata: {labels: {cpu: "1"}}',
      'metadata: {labels: {cpu: 1000m}}',
      'metadata: {labels: {cpu: 1000m}}',
    ],
  ])('%s', (_name, original, modified, patch) => {
    expect(createTwoWayMergePatch(y(original), y(modified))).toEqual(y(patch));
  });

  it('writes keys sorted, as Go marshals maps', () => {
    const p = createTwoWayMergePatch(
      y('spec: {containers: [{name: a}]}'),
      y('spec: {containers: [{name: a, image: x, args: [y]}]}'),
    );
    expect(JSON.stringify(p)).toBe(
      '{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"args":["y"],"image":"x","name":"a"}]}}',
    );
  });

  it('takes non-objects as empty documents', () => {
    expect(createTwoWayMergePatch(null, y('metadata: {name: p}'))).toEqual(y('metadata: {name: p}'));
    expect(createTwoWayMergePatch(y('metadata: {name: p}'), undefined)).toEqual({ metadata: null });
  });

  it.each<[string, string, string]>([
    [
      'a merge-list element without its key',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{image: x}]}',
    ],
    ['mixed element types', 'spec: {containers: [{name: a}]}', 'spec: {containers: [{name: a}, b]}'],
  ])('throws where apimachinery errors: %s', (_name, original, modified) => {
    expect(() => createTwoWayMergePatch(y(original), y(modified))).toThrow();
  });
});

// CreateThreeWayMergePatch(original, modified, current, overwrite=true): changes from current
// to modified (never deleting what only current has) plus deletions from original to modified.
describe('createThreeWayMergePatch', () => {
  it.each<[string, string, string, string, string]>([
    [
      'fields only in current are kept',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1", injected: "y"}}',
      '{}',
    ],
    [
      'a declared value changed in current is reverted',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "2"}}',
      'metadata: {labels: {a: "1"}}',
    ],
    [
      'a field dropped from modified is deleted',
      'metadata: {labels: {a: "1", b: "2"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1", b: "2"}}',
      'metadata: {labels: {b: null}}',
    ],
    [
      'a field dropped from modified and already gone from current: deleted anyway',
      'metadata: {labels: {a: "1", b: "2"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {a: "1"}}',
      'metadata: {labels: {b: null}}',
    ],
    [
      'an element only in current: its order is restated, nothing else',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{name: a}, {name: sidecar}]}',
      'spec: {$setElementOrder/containers: [{name: a}]}',
    ],
    [
      'an element dropped from modified: $patch: delete, plus the order',
      'spec: {containers: [{name: a}, {name: b}]}',
      'spec: {containers: [{name: a}]}',
      'spec: {containers: [{name: a}, {name: b}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: b, $patch: delete}]}',
    ],
    [
      'deletions and changes in one list combine, changes first',
      'spec: {containers: [{name: a, image: x}, {name: b}]}',
      'spec: {containers: [{name: a, image: x}]}',
      'spec: {containers: [{name: a, image: z}, {name: b}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, image: x}, {name: b, $patch: delete}]}',
    ],
    [
      'an atomic list appended to in current is restated whole',
      'spec: {tolerations: [{key: a}]}',
      'spec: {tolerations: [{key: a}]}',
      'spec: {tolerations: [{key: a}, {key: b}]}',
      'spec: {tolerations: [{key: a}]}',
    ],
    [
      'a set list: deletions of what modified dropped, additions of what current lacks',
      'metadata: {finalizers: [a, b]}',
      'metadata: {finalizers: [a, c]}',
      'metadata: {finalizers: [a, b, z]}',
      'metadata: {$deleteFromPrimitiveList/finalizers: [b], $setElementOrder/finalizers: [a, c], finalizers: [c]}',
    ],
    [
      'a quantity respelled in current is reverted (the patch compares strings)',
      'spec: {containers: [{name: a, resources: {limits: {memory: 1Gi}}}]}',
      'spec: {containers: [{name: a, resources: {limits: {memory: 1Gi}}}]}',
      'spec: {containers: [{name: a, resources: {limits: {memory: "1073741824"}}}]}',
      'spec: {$setElementOrder/containers: [{name: a}], containers: [{name: a, resources: {limits: {memory: 1Gi}}}]}',
    ],
    [
      'retainKeys travels with a changed volume',
      'spec: {volumes: [{name: d, emptyDir: {}}]}',
      'spec: {volumes: [{name: d, emptyDir: {sizeLimit: 1Gi}}]}',
      'spec: {volumes: [{name: d, emptyDir: {}}]}',
      'spec: {$setElementOrder/volumes: [{name: d}], volumes: [{$retainKeys: [emptyDir, name], emptyDir: {sizeLimit: 1Gi}, name: d}]}',
    ],
  ])('%s', (_name, original, modified, current, patch) => {
    expect(createThreeWayMergePatch(y(original), y(modified), y(current))).toEqual(y(patch));
  });

  it('does not mutate its inputs', () => {
    const o = y('{metadata: {finalizers: [b, a]}, spec: {containers: [{name: a}, {name: b}]}}');
    const m = y('{metadata: {finalizers: [b, a]}, spec: {containers: [{name: a, image: x}]}}');
    const c = y('{metadata: {finalizers: [z, b, a]}, spec: {containers: [{name: b}, {name: a}]}}');
    const before = JSON.stringify([o, m, c]);
    createThreeWayMergePatch(o, m, c);
    createTwoWayMergePatch(o, m);
    expect(JSON.stringify([o, m, c])).toBe(before);
  });
});

describe('isEmptyPatch', () => {
  it.each<[Record<string, unknown>, boolean]>([
    [{}, true],
    [{ spec: {} }, false],
    [{ metadata: { labels: { a: null } } }, false],
  ])('%j -> %p', (p, empty) => {
    expect(isEmptyPatch(p)).toBe(empty);
  });
});

// The diff skips parts it is handed twice as the same object when a walk shows their
// self-diff is empty (strategic-merge.ts selfDiffIsEmpty): it must answer exactly as it does
// for an equal copy, odd values included (they surface in a self-diff or make it fail).
describe('createTwoWayMergePatch of a pod with itself', () => {
  const outcome = (f: () => unknown): unknown => {
    try {
      return { patch: f() };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  it.each<[string, string]>([
    ['a plain pod', 'spec: {containers: [{name: a, ports: [{containerPort: 80}]}], nodeSelector: {a: b}}'],
    ['an unsorted set list (finalizers)', 'metadata: {finalizers: [b, a]}'],
    ['a sorted set list', 'metadata: {finalizers: [a, b]}'],
    ['a merge-list element without its key', 'spec: {containers: [{image: x}]}'],
    ['merge keys repeated', 'spec: {containers: [{name: a, image: x}, {name: a, image: y}]}'],
    ['a directive inside an element', 'spec: {containers: [{name: a, $patch: delete}]}'],
    ['a directive map key', 'spec: {$retainKeys: [a], nodeSelector: {a: b}}'],
    ['a null list element', 'spec: {volumes: [null]}'],
    ['a list of lists in a merge list', 'spec: {containers: [[a]]}'],
    [
      'an empty merge list and atomic lists',
      'spec: {containers: [], imagePullSecrets: [{name: b}, {name: a}]}',
    ],
    [
      'retainKeys list elements',
      'spec: {volumes: [{name: v, emptyDir: {}}, {name: w, hostPath: {path: /x}}]}',
    ],
  ])('%s', (_name, pod) => {
    const same = y(`{${pod}}`) as Record<string, unknown>;
    const copy = JSON.parse(JSON.stringify(same)) as unknown;
    // Parts handed as the same object at every level below the root.
    expect(outcome(() => createTwoWayMergePatch({ ...same }, { ...same }))).toEqual(
      outcome(() => createTwoWayMergePatch(same, copy)),
    );
  });
});
