// The projection interns the parts every pod of a restart loop repeats: equal parts become one
// object, facts stay equal to what they were and serialise the same.
import { internText, projectRecord } from '../../lib/facts/project';
import type { AuditEvent } from '../../lib/model/audit';
import type { PodWriteFact } from '../../lib/model/facts';

function podCreate(
  name: string,
  nodeName: string,
  labels: Record<string, string> = { app: 'kafka' },
): AuditEvent {
  // Parsed from text, as ingest does: no objects shared between events.
  return JSON.parse(
    JSON.stringify({
      level: 'RequestResponse',
      auditID: `id-${name}`,
      stage: 'ResponseComplete',
      verb: 'create',
      user: { username: 'system:serviceaccount:kafka:kafka-operator' },
      requestReceivedTimestamp: '2026-11-02T10:00:00.000000Z',
      stageTimestamp: '2026-11-02T10:00:00.100000Z',
      objectRef: { resource: 'pods', namespace: 'kafka', name },
      annotations: {
        'patch.webhook.admission.k8s.io/round_0_index_0': JSON.stringify({
          configuration: 'sizer',
          webhook: 'pods.sizer',
          patch: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '2' }],
        }),
      },
      responseObject: {
        kind: 'Pod',
        metadata: { name, uid: `uid-${name}`, labels, managedFields: [{ manager: 'x' }] },
        spec: { nodeName, containers: [{ name: 'kafka', resources: { requests: { cpu: '2' } } }] },
        status: { phase: 'Pending' },
      },
    }),
  ) as AuditEvent;
}

const project = (e: AuditEvent) =>
  projectRecord({
    kind: 'audit',
    format: 'audit-jsonl',
    at: { source: 't', line: 1 },
    event: e,
  }) as PodWriteFact;

describe('interning in the projection', () => {
  it('keeps of a pod that cannot be koperator’s only what says whose it is', () => {
    const other = (name: string) => project(podCreate(name, 'node-1', { app: 'web' }));
    const a = other('web-7f9c4b-aaaaa');
    expect(a.response).toEqual({
      kind: 'Pod',
      metadata: { name: 'web-7f9c4b-aaaaa', uid: 'uid-web-7f9c4b-aaaaa', labels: { app: 'web' } },
    });
    // Its labels and owners repeat across its ReplicaSet's pods: one copy; its name is its own.
    const b = other('web-7f9c4b-bbbbb');
    const metaOf = (f: PodWriteFact) =>
      (f.response as { metadata: { labels: unknown; name: string } }).metadata;
    expect(metaOf(b).labels).toBe(metaOf(a).labels);
    expect(metaOf(b).name).toBe('web-7f9c4b-bbbbb');
  });

  it('shares equal parts between pods and keeps each pod’s own values', () => {
    const a = project(podCreate('c-1-aaaaa', 'node-1'));
    const b = project(podCreate('c-1-bbbbb', 'node-2'));
    const ra = a.response as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    const rb = b.response as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    expect(rb.spec.containers).toBe(ra.spec.containers);
    expect(rb.metadata.labels).toBe(ra.metadata.labels);
    expect(b.webhooks![0].patch).toBe(a.webhooks![0].patch);
    expect(ra.metadata.name).toBe('c-1-aaaaa');
    expect(rb.spec.nodeName).toBe('node-2');
    expect(ra.metadata.managedFields).toBeUndefined();
    expect(JSON.parse(JSON.stringify(b))).toEqual(b);
  });

  it('shares, within a member that differs between two pods, every part that does not', () => {
    const withCpu = (name: string, cpu: string) => {
      const e = podCreate(name, 'node-1');
      const spec = (e.responseObject as { spec: { containers: Record<string, unknown>[] } }).spec;
      spec.containers = [
        { name: 'kafka', ports: [{ containerPort: 9092 }], resources: { requests: { cpu } } },
        { name: 'jmx', image: 'jmx:1', ports: [{ containerPort: 9020 }] },
      ];
      return project(e).response as { spec: { containers: Record<string, unknown>[] } };
    };
    const a = withCpu('c-1-aaaaa', '990m');
    const b = withCpu('c-1-bbbbb', '680m');
    expect(b.spec.containers).not.toBe(a.spec.containers);
    expect(b.spec.containers[1]).toBe(a.spec.containers[1]);
    expect(b.spec.containers[0].ports).toBe(a.spec.containers[0].ports);
    expect(b.spec.containers[0].resources).toEqual({ requests: { cpu: '680m' } });
  });

  it('leaves a body too deep to serialise as it is, without a throw', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const e = podCreate('c-1-ccccc', 'node-1');
    (e.responseObject as { spec: Record<string, unknown> }).spec.deep = deep;
    const f = project(e);
    expect((f.response as { spec: Record<string, unknown> }).spec.deep).toBe(deep);
  });
});

describe('internText', () => {
  test.each([
    ['equal strings', 'kafka', 'kafka', true],
    ['different strings', 'kafka', 'kafka2', false],
    ['case', 'Kafka', 'kafka', false],
    ['empty and a space', '', ' ', false],
  ])('%s', (_what, a, b, same) => {
    const first = internText([a].join(''));
    const second = internText([b].join(''));
    expect(first).toBe(a);
    expect(second).toBe(b);
    expect(first === second).toBe(same);
  });

  test.each([[null], [undefined], [7]])('%p passes through', (v) => {
    expect(internText(v)).toBe(v);
  });

  test('facts of one pod keep their own values', () => {
    const a = project(podCreate('kafka-0-a', 'node-1')) as PodWriteFact;
    const b = project(podCreate('kafka-0-b', 'node-1')) as PodWriteFact;
    expect([a.name, b.name]).toEqual(['kafka-0-a', 'kafka-0-b']);
    expect([a.verb, a.user, a.namespace, a.stage]).toEqual([b.verb, b.user, b.namespace, b.stage]);
  });
});
