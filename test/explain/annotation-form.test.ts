import { annotationForm, describeForm } from '../../lib/explain/annotation-form';
import { recordedChanges } from '../../lib/explain/webhook-markers';

describe('annotationForm', () => {
  const marshalled = {
    metadata: { labels: { app: 'kafka' } },
    spec: { containers: [{ name: 'kafka', resources: { limits: { cpu: '1500m' } } }] },
    status: {},
  };
  it.each<[string, unknown, { lacks: string[]; extra: string[]; rewritten: string[] }]>([
    ['koperator’s own', marshalled, { lacks: [], extra: [], rewritten: [] }],
    [
      'without status',
      { ...marshalled, status: undefined },
      { lacks: ['status: {}'], extra: [], rewritten: [] },
    ],
    [
      'with a field Go does not know, a quantity in another spelling',
      {
        ...marshalled,
        metadata: { labels: { app: 'kafka' }, note: 'mine' },
        spec: { containers: [{ name: 'kafka', resources: { limits: { cpu: '1.5' } } }] },
      },
      {
        lacks: [],
        extra: ['metadata.note'],
        rewritten: ['spec.containers[name=kafka].resources.limits.cpu: "1.5" → "1500m"'],
      },
    ],
  ])('%s', (_name, written, expected) => {
    const w = JSON.parse(JSON.stringify(written));
    const form = annotationForm(w, marshalled);
    expect(form).toEqual({
      handWritten: expected.lacks.length + expected.extra.length + expected.rewritten.length > 0,
      ...expected,
    });
  });

  it('describes at most a few differences', () => {
    const form = {
      handWritten: true,
      lacks: ['a: 1', 'b: 2', 'c: 3'],
      extra: ['d'],
      rewritten: ['e: 1 → 2'],
    };
    expect(describeForm(form, 3)).toBe('a: 1, b: 2, c: 3 and 2 more');
  });
});

describe('recordedChanges', () => {
  const pod = (vpaUpdates: string) => ({
    metadata: { annotations: { vpaUpdates, vpaObservedContainers: 'kafka, sidecar' } },
    spec: { containers: [{ name: 'kafka' }, { name: 'sidecar' }] },
  });
  const VPA = 'Vertical Pod Autoscaler admission controller';
  it.each<[string, string[]]>([
    [
      'Pod resources updated by kafka-vpa: container 0: cpu request, memory request',
      [
        'spec.containers[name=kafka].resources.requests.cpu',
        'spec.containers[name=kafka].resources.requests.memory',
      ],
    ],
    [
      'Pod resources updated by kafka-vpa: container 0: memory limit; container 1: cpu request',
      [
        'spec.containers[name=kafka].resources.limits.memory',
        'spec.containers[name=sidecar].resources.requests.cpu',
      ],
    ],
    ['Pod resources updated by kafka-vpa: container 7: cpu request', []],
    ['something else entirely', []],
  ])('%s', (annotation, paths) => {
    const got = recordedChanges(pod(annotation));
    // The marks themselves are the VPA's own writes.
    expect(got.filter((c) => c.path.startsWith('metadata.')).map((c) => c.path)).toEqual([
      'metadata.annotations.vpaUpdates',
      'metadata.annotations.vpaObservedContainers',
    ]);
    const fields = got.filter((c) => c.path.startsWith('spec.'));
    expect(fields.map((c) => c.path)).toEqual(paths);
    expect(fields.every((c) => c.webhook === VPA)).toBe(true);
  });
});
