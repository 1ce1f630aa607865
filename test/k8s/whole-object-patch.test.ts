import { isWholeObjectPatch } from '../../lib/k8s/whole-object-patch';

const stored = {
  kind: 'StatefulSet',
  apiVersion: 'apps/v1',
  metadata: { name: 'db', namespace: 'data', generation: 7 },
  spec: {
    replicas: 3,
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: { spec: { containers: [{ name: 'db' }] } },
    podManagementPolicy: 'OrderedReady',
    revisionHistoryLimit: 10,
    updateStrategy: { type: 'RollingUpdate' },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
  },
};
const declared = {
  replicas: 3,
  serviceName: 'db',
  selector: { matchLabels: { app: 'db' } },
  template: { spec: { containers: [{ name: 'db' }] } },
};

describe('isWholeObjectPatch', () => {
  it.each<[string, unknown, boolean]>([
    ['an apply of the declared object', { kind: 'StatefulSet', apiVersion: 'apps/v1', spec: declared }, true],
    [
      'a merge patch of a marshalled typed object (no kind)',
      { metadata: { name: 'db' }, spec: declared, status: {} },
      true,
    ],
    [
      'a strategic-merge patch of the whole spec, a directive, no name',
      { spec: { ...declared, $retainKeys: ['replicas'] } },
      true,
    ],
    ['a patch of spec.replicas', { spec: { replicas: 5 } }, false],
    [
      'an apply of spec.replicas alone (kind named)',
      { kind: 'StatefulSet', apiVersion: 'apps/v1', spec: { replicas: 5 } },
      false,
    ],
    [
      'an image bump',
      { spec: { template: { spec: { containers: [{ name: 'db', image: 'db:2' }] } } } },
      false,
    ],
    [
      'directives only',
      {
        spec: {
          $patch: 'replace',
          '$setElementOrder/x': [],
          $retainKeys: [],
          '$deleteFromPrimitiveList/y': [],
        },
      },
      false,
    ],
    ['a metadata-only patch', { metadata: { annotations: { a: 'b' } } }, false],
    ['a JSON patch', [{ op: 'replace', path: '/spec', value: declared }], false],
  ])('%s', (_name, body, whole) => {
    expect(isWholeObjectPatch(body, stored)).toBe(whole);
  });

  it('an object without a spec, or with an empty one, is never judged whole', () => {
    expect(isWholeObjectPatch({ webhooks: [] }, { webhooks: [] })).toBe(false);
    expect(isWholeObjectPatch({ spec: {} }, { spec: {} })).toBe(false);
  });
});
