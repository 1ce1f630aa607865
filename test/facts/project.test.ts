import { projectRecord, webhookMutations } from '../../lib/facts/project';
import type { AuditEvent } from '../../lib/model/audit';
import type { LogRecord } from '../../lib/model/record';

const at = { source: 'test', line: 1 };

function audit(partial: Partial<AuditEvent>): LogRecord {
  return {
    kind: 'audit',
    format: 'audit-jsonl',
    at,
    event: {
      level: 'RequestResponse',
      auditID: 'id-1',
      stage: 'ResponseComplete',
      verb: 'create',
      user: { username: 'u', extra: { accessKeyId: ['AKIASECRET'] } },
      requestReceivedTimestamp: '2026-11-02T10:00:00.000000Z',
      stageTimestamp: '2026-11-02T10:00:00.100000Z',
      ...partial,
    },
  };
}

describe('projectRecord', () => {
  it.each([
    [
      'a lease update',
      { verb: 'update', objectRef: { resource: 'leases', namespace: 'kube-node-lease', name: 'n' } },
    ],
    ['a pod get', { verb: 'get', objectRef: { resource: 'pods', namespace: 'kafka', name: 'p' } }],
    ['a cluster-scoped write', { verb: 'create', objectRef: { resource: 'pods' } }],
  ])('drops %s', (_label, partial) => {
    expect(projectRecord(audit(partial as Partial<AuditEvent>))).toBeNull();
  });

  it('keeps a ConfigMap write without its data', () => {
    const fact = projectRecord(
      audit({
        verb: 'update',
        objectRef: { resource: 'configmaps', namespace: 'kafka', name: 'c-config-1' },
        requestObject: { data: { password: 'hunter2' } },
      }),
    );
    expect(fact).toMatchObject({ type: 'configmap', name: 'c-config-1', user: 'u', verb: 'update' });
    expect(JSON.stringify(fact)).not.toContain('hunter2');
    expect(JSON.stringify(fact)).not.toContain('AKIASECRET');
  });

  it('keeps a pod create with its bodies and webhook patches, without managedFields', () => {
    const fact = projectRecord(
      audit({
        objectRef: { resource: 'pods', namespace: 'kafka' },
        requestObject: { kind: 'Pod', metadata: { generateName: 'c-1-' } },
        responseObject: {
          kind: 'Pod',
          metadata: { name: 'c-1-abcde', uid: 'u-1', managedFields: [{ manager: 'x' }] },
          status: { phase: 'Pending', conditions: [{ type: 'PodScheduled' }] },
        },
        annotations: {
          'mutation.webhook.admission.k8s.io/round_0_index_1':
            '{"configuration":"b","webhook":"w.b","mutated":true}',
          'mutation.webhook.admission.k8s.io/round_0_index_0':
            '{"configuration":"a","webhook":"w.a","mutated":false}',
          'patch.webhook.admission.k8s.io/round_0_index_1':
            '{"configuration":"b","webhook":"w.b","patch":[{"op":"add","path":"/metadata/labels/x","value":"y"}],"patchType":"JSONPatch"}',
        },
      }),
    );
    expect(fact).toMatchObject({ type: 'pod', name: 'c-1-abcde', uid: 'u-1', verb: 'create' });
    if (fact?.type !== 'pod') throw new Error('not a pod fact');
    expect(JSON.stringify(fact.response)).not.toContain('managedFields');
    expect(fact.response).toMatchObject({ status: { phase: 'Pending' } });
    expect(fact.webhooks?.map((w) => [w.configuration, w.mutated, w.patch?.length])).toEqual([
      ['a', false, undefined],
      ['b', true, 1],
    ]);
  });

  it.each([
    {
      what: 'another team’s pod created by Kubernetes’ own controller (bodies with none of koperator’s marks)',
      bodies: {
        user: { username: 'system:serviceaccount:kube-system:replicaset-controller' },
        requestObject: { kind: 'Pod', metadata: { generateName: 'web-7d9f8c6b5-', labels: { app: 'web' } } },
        responseObject: { kind: 'Pod', metadata: { name: 'web-7d9f8c6b5-x2x4z', labels: { app: 'web' } } },
      },
      kept: false,
    },
    {
      what: 'another operator’s pod (a recreate loop may rest on its admission, fights.md)',
      bodies: {
        user: { username: 'system:serviceaccount:cnpg-system:cnpg-manager' },
        requestObject: {
          kind: 'Pod',
          metadata: { name: 'pg-main-2', labels: { 'cnpg.io/cluster': 'pg-main' } },
        },
        responseObject: {
          kind: 'Pod',
          metadata: { name: 'pg-main-2', labels: { 'cnpg.io/cluster': 'pg-main' } },
        },
      },
      kept: true,
    },
    {
      what: 'a broker pod',
      bodies: {
        requestObject: { kind: 'Pod', metadata: { generateName: 'orders-1-', labels: { app: 'kafka' } } },
      },
      kept: true,
    },
    {
      what: 'a create logged at Metadata level (no body to tell by)',
      bodies: { level: 'Metadata' },
      kept: true,
    },
  ])('keeps the webhooks of $what: $kept', ({ bodies, kept }) => {
    const fact = projectRecord(
      audit({
        objectRef: { resource: 'pods', namespace: 'shop' },
        annotations: {
          'mutation.webhook.admission.k8s.io/round_0_index_0':
            '{"configuration":"a","webhook":"w.a","mutated":true}',
        },
        ...bodies,
      }),
    );
    if (fact?.type !== 'pod') throw new Error('not a pod fact');
    expect(fact.webhooks?.map((w) => w.webhook)).toEqual(kept ? ['w.a'] : undefined);
  });

  it('reads the uid of a kubelet final delete from its preconditions', () => {
    const fact = projectRecord(
      audit({
        verb: 'delete',
        user: { username: 'system:node:n1' },
        objectRef: { resource: 'pods', namespace: 'kafka', name: 'c-1-abcde' },
        requestObject: { kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: 'u-1' } },
      }),
    );
    expect(fact).toMatchObject({ type: 'pod', uid: 'u-1', gracePeriodSeconds: 0, user: 'system:node:n1' });
  });

  it('reduces a status patch to the parts that say something ended', () => {
    const fact = projectRecord(
      audit({
        verb: 'patch',
        level: 'Request',
        objectRef: { resource: 'pods', namespace: 'kafka', name: 'p', subresource: 'status' },
        requestObject: {
          status: {
            podIP: '10.0.0.1',
            containerStatuses: [
              {
                name: 'kafka',
                state: { terminated: { reason: 'OOMKilled', exitCode: 137, message: 'long' } },
              },
            ],
          },
        },
      }),
    );
    expect(fact).toMatchObject({
      request: {
        status: {
          containerStatuses: [
            { name: 'kafka', state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } },
          ],
        },
      },
    });
    expect(JSON.stringify(fact)).not.toContain('10.0.0.1');
  });

  const statusWrite = (conditions: unknown) =>
    projectRecord(
      audit({
        verb: 'patch',
        level: 'Request',
        objectRef: { resource: 'pods', namespace: 'kafka', name: 'p', subresource: 'status' },
        requestObject: { status: { conditions } },
      }),
    ) as { request: { status: Record<string, unknown> } };

  it.each([
    [
      'Ready=True among the kubelet’s conditions',
      [
        { type: 'Initialized', status: 'True', lastTransitionTime: '2026-11-02T10:00:00Z' },
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-11-02T10:00:00Z', lastProbeTime: null },
      ],
      [{ type: 'Ready', status: 'True' }],
    ],
    [
      'Ready=False',
      [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
      [{ type: 'Ready', status: 'False' }],
    ],
    ['Ready=Unknown', [{ type: 'Ready', status: 'Unknown' }], [{ type: 'Ready', status: 'Unknown' }]],
    ['no Ready condition', [{ type: 'PodScheduled', status: 'True' }], undefined],
    ['conditions that are not a list', { Ready: 'True' }, undefined],
  ])('keeps of a status write’s conditions only the Ready one: %s', (_label, conditions, kept) => {
    expect(statusWrite(conditions).request.status.conditions).toEqual(kept);
  });

  it('keeps the operator lines the analysis reads, with the broker they name', () => {
    const line = (msg: string, fields: Record<string, unknown>): LogRecord => ({
      kind: 'operator',
      format: 'zap-json',
      at,
      line: { ts: '2026-11-02T10:00:00.000Z', level: 'info', msg, fields },
    });
    expect(projectRecord(line('Reconciling KafkaCluster', {}))).toBeNull();
    expect(
      projectRecord(
        line('broker pod deleted', {
          KafkaCluster: { name: 'c', namespace: 'kafka' },
          pod: 'c-1-abcde',
          brokerId: '1',
        }),
      ),
    ).toMatchObject({
      type: 'operator',
      kafkaCluster: 'c',
      namespace: 'kafka',
      pod: 'c-1-abcde',
      brokerId: '1',
    });
    expect(
      projectRecord(
        line('broker pod deleted', {
          'Request.Namespace': 'kafka',
          'Request.Name': 'c',
          brokerId: '2',
          pod: 'c-2-x',
        }),
      ),
    ).toMatchObject({ kafkaCluster: 'c', namespace: 'kafka', fields: { brokerIdFirst: true } });
    expect(
      projectRecord(
        line('pod has tainted labels, attempting to delete', {
          pod: { name: 'c-1-abcde', namespace: 'kafka' },
        }),
      ),
    ).toMatchObject({ pod: 'c-1-abcde' });
  });
});

describe('webhookMutations', () => {
  it('ignores annotations that are not valid JSON', () => {
    expect(webhookMutations({ 'mutation.webhook.admission.k8s.io/round_0_index_0': '{oops' })).toEqual([]);
  });
});
