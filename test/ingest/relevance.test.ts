// What the analysis needs, and the pre-filter that must never drop any of it.
import fc from 'fast-check';
import { irrelevantEvents, isRelevantAuditEvent, ONE_GKE_ENTRY, topLevelVerb } from '../../lib/ingest/filter';
import { brokerOfPodName } from '../../lib/koperator/naming';
import { AUDIT_CONTAINERS, encodeAudit } from '../../sim/encode';
import { auditEvent, mixedEvents } from './fixtures';

describe('isRelevantAuditEvent', () => {
  type Row = {
    verb: string;
    resource: string;
    subresource?: string;
    want: boolean;
    name?: string;
    username?: string;
  };
  const RS = 'system:serviceaccount:kube-system:replicaset-controller';
  const KUBELET = 'system:node:ip-10-0-0-1.eu-west-1.compute.internal';
  // verb, resource, subresource, relevant, object name, user
  const rows: Array<[string, string, string | undefined, boolean, string?, string?]> = [
    ['create', 'pods', undefined, true],
    ['create', 'pods', 'binding', true],
    ['create', 'pods', 'eviction', true],
    ['patch', 'pods', 'status', true],
    ['patch', 'pods', 'resize', true],
    ['patch', 'pods', 'ephemeralcontainers', true],
    ['update', 'pods', undefined, true],
    ['delete', 'pods', undefined, true],
    ['deletecollection', 'pods', undefined, true],
    ['get', 'pods', undefined, false],
    ['list', 'pods', undefined, false],
    ['watch', 'pods', undefined, false],
    ['get', 'pods', 'log', false],
    // other teams' pods: a name koperator never gives a broker, and no marker in the event
    ['patch', 'pods', 'status', false, 'web-7d9f8c6b5-x2x4z'],
    // ...deleted by Kubernetes' own controllers or the kubelet, which never fight a webhook
    ['delete', 'pods', undefined, false, 'zookeeper-0', RS],
    ['delete', 'pods', undefined, false, 'web-7d9f8c6b5-x2x4z', KUBELET],
    // another operator's delete may be a recreate loop's cycle (fights.md)
    ['delete', 'pods', undefined, true, 'pg-main-2', 'system:serviceaccount:cnpg-system:cnpg-manager'],
    ['update', 'pods', undefined, false, 'web-7d9f8c6b5-x2x4z'],
    // ...but creates are judged alike at every stage (an unnamed one's RequestReceived has
    // no body to judge), and a binding names an unnamed create at Metadata level
    ['create', 'pods', 'binding', true, 'web-7d9f8c6b5-x2x4z'],
    ['create', 'pods', 'eviction', true, 'web-7d9f8c6b5-x2x4z'],
    ['delete', 'pods', undefined, true, 'orders-3-abcde'],
    ['patch', 'pods', 'status', true, 'orders-controller-3-abcde'],
    ['patch', 'kafkaclusters', undefined, true],
    // the operator's status updates are never an edit of the CR
    ['update', 'kafkaclusters', 'status', false],
    ['watch', 'kafkaclusters', undefined, false],
    // koperator's per-broker ConfigMaps only: <cluster>-config-<brokerId>
    ['update', 'configmaps', undefined, true, 'events-kafka-config-2'],
    ['delete', 'configmaps', undefined, true, 'events-kafka-config-12'],
    ['update', 'configmaps', undefined, false, 'argocd-app-config'],
    ['update', 'configmaps', undefined, false, 'events-kafka-config-2-backup'],
    ['update', 'configmaps', undefined, false, undefined],
    ['list', 'configmaps', undefined, false, 'events-kafka-config-2'],
    ['update', 'leases', undefined, false],
    ['create', 'secrets', undefined, false],
    ['patch', 'nodes', 'status', false],
    // what the fight detectors read: writes to other objects, never their status, never reads
    ['patch', 'deployments', undefined, true, 'checkout-api'],
    ['update', 'deployments', 'scale', true, 'checkout-api'],
    ['update', 'deployments', 'status', false, 'checkout-api'],
    ['get', 'deployments', 'scale', false, 'checkout-api'],
    ['update', 'mutatingwebhookconfigurations', undefined, true, 'vault-secrets-webhook'],
    ['patch', 'clusters', undefined, true, 'pg-main'],
    ['update', 'events', undefined, false],
    ['update', 'endpointslices', undefined, false],
    ['create', 'tokenreviews', undefined, false],
    ['create', 'subjectaccessreviews', undefined, false],
    ['update', 'controllerrevisions', undefined, false],
  ];
  const table: Row[] = rows.map(([verb, resource, subresource, want, name, username]) => ({
    verb,
    resource,
    subresource,
    want,
    name,
    username,
  }));
  it.each(table)(
    '$verb $resource/$subresource $name by $username → $want',
    ({ verb, resource, subresource, want, name, username }) => {
      expect(isRelevantAuditEvent(auditEvent({ verb, resource, subresource, name, username }))).toBe(want);
    },
  );

  it('a pod named like no broker is relevant when its body shows a koperator label or owner', () => {
    const body = (meta: Record<string, unknown>) => ({
      kind: 'Pod',
      metadata: { name: 'odd-name', ...meta },
    });
    const write = (responseObject: unknown) =>
      auditEvent({ verb: 'delete', resource: 'pods', name: 'odd-name', responseObject, username: RS });
    expect(isRelevantAuditEvent(write(body({ labels: { kafka_cr: 'orders' } })))).toBe(true);
    expect(isRelevantAuditEvent(write(body({ labels: { brokerId: '3' } })))).toBe(true);
    expect(
      isRelevantAuditEvent(write(body({ ownerReferences: [{ kind: 'KafkaCluster', name: 'orders' }] }))),
    ).toBe(true);
    expect(isRelevantAuditEvent(write(body({ labels: { app: 'web' } })))).toBe(false);
  });

  it('an event about no object (a non-resource URL) is not relevant', () => {
    const ev = auditEvent({ verb: 'get', resource: 'x' });
    delete ev.objectRef;
    expect(isRelevantAuditEvent(ev)).toBe(false);
  });
});

describe('pre-filter on the record text', () => {
  const text = (b: Buffer): string => b.toString('utf8');
  // Every relevant event, in every container, must survive the pre-filter of its line.
  const relevant = mixedEvents()
    .filter((f) => f.relevant)
    .map((f) => f.event);
  const irrelevant = mixedEvents()
    .filter((f) => !f.relevant)
    .map((f) => f.event);
  it.each(AUDIT_CONTAINERS.filter((c) => c !== 'eks-firehose-cwl' && c !== 'audit-eventlist-pretty'))(
    '%s: relevant lines are never dropped',
    (container) => {
      for (const ev of relevant) {
        expect(irrelevantEvents(text(encodeAudit(container, [ev])), true)).toBe(0);
      }
    },
  );

  it.each([
    'audit-jsonl',
    'eks-cloudwatch-export',
    'fluent-bit',
    'fluent-bit-log',
    'aks-diagnostic',
    'aks-diagnostic-object',
  ] as const)('%s: irrelevant events are dropped unparsed, reads of pods included', (container) => {
    for (const ev of irrelevant) {
      const line = text(encodeAudit(container, [ev]));
      const body = container === 'eks-cloudwatch-export' ? line.slice(line.indexOf(' ') + 1) : line;
      // Reads are recognised by their top-level verb, which wrapped events do not expose.
      const wrapped = container === 'fluent-bit-log' || container.startsWith('aks-');
      const provable =
        !/pods|configmaps|secrets[\\"/.?]|kafkacluster|nificluster/.test(body) ||
        (!wrapped && ['get', 'list', 'watch'].includes(ev.verb)) ||
        // another team's pod, told by the name in its URI and no koperator word anywhere
        (!wrapped &&
          ev.objectRef?.resource === 'pods' &&
          ev.verb !== 'create' &&
          brokerOfPodName(ev.objectRef.name ?? '') === null &&
          !/afka|brokerId|nifi|Nifi/.test(body));
      expect([ev.verb, ev.objectRef?.resource, irrelevantEvents(body, false)]).toEqual([
        ev.verb,
        ev.objectRef?.resource,
        provable ? 1 : 0,
      ]);
    }
  });

  it('counts the events of a many-event record', () => {
    const leases = [0, 1, 2].map(() => auditEvent({ verb: 'update', resource: 'leases' }));
    expect(irrelevantEvents(text(encodeAudit('audit-eventlist', leases)), true)).toBe(3);
    // Reads inside a container are not provable without parsing (their verbs are nested).
    const reads = [0, 1].map(() => auditEvent({ verb: 'get', resource: 'pods' }));
    expect(irrelevantEvents(text(encodeAudit('audit-eventlist', reads)), true)).toBe(0);
  });

  it('recognises GKE entries, which have no auditID', () => {
    const lease = encodeAudit('gke-logentry', [auditEvent({ verb: 'update', resource: 'leases' })]);
    expect(irrelevantEvents(text(lease), false)).toBe(ONE_GKE_ENTRY);
    const pod = encodeAudit('gke-logentry', [auditEvent({ verb: 'create', resource: 'pods' })]);
    expect(irrelevantEvents(text(pod), false)).toBe(0);
  });

  it.each([
    ['{"kind": 0}', 0],
    ['{"level":"info","ts":1,"msg":"x"}', 0],
    ['{"level":"info","ts":1,"msg":"audited","auditID":"1","verb":"get","pods":1}', 0],
    ['{"hello":"world"}', 0],
    ['{"auditID":"1","objectRef":{"resource":"leases"}}', 1],
    ['{"auditID":"1","objectRef":{"resource":"pods"}}', 0],
    ['{"auditID":"1","verb":"list","objectRef":{"resource":"pods"}}', 1],
    ['{"auditID":"1","verb":"patch","objectRef":{"resource":"pods"}}', 0],
    // NiFiKop's node Secrets are read; a name that merely holds `secrets` is not a Secret.
    ['{"auditID":"1","verb":"update","objectRef":{"resource":"secrets","name":"n-config-0"}}', 0],
    ['{"auditID":"1","verb":"update","objectRef":{"resource":"leases","name":"vault-secrets-webhook"}}', 1],
  ])('%s → %i', (s, want) => {
    expect(irrelevantEvents(s, false)).toBe(want);
  });
});

describe('topLevelVerb', () => {
  it.each([
    [
      'kube-apiserver order',
      '{"kind":"Event","auditID":"a","requestURI":"/api?x={}","verb":"get","user":{}}',
      'get',
    ],
    [
      'sorted keys, a nested verb first (SubjectAccessReview body)',
      '{"auditID":"a","objectRef":{"resource":"subjectaccessreviews"},"requestObject":{"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}},"verb":"create"}',
      'create',
    ],
    ['verb only inside a string', '{"auditID":"a","note":"\\"verb\\":\\"get\\"","x":1}', null],
    ['EventList: verbs are nested', '{"kind":"EventList","items":[{"verb":"get"}]}', null],
    ['escaped quote before the key', '{"a":"x\\"","verb":"watch"}', 'watch'],
    ['no verb', '{"auditID":"a"}', null],
  ])('%s', (_, text, want) => {
    expect(topLevelVerb(text)).toBe(want);
  });

  it.each([
    ['a bracket in a string before the key', '{"requestURI":"/api?x=[1]","verb":"list"}', 'list'],
    ['the key inside a string, the real one after', '{"a":",\\"verb\\":\\"get","verb":"patch"}', 'patch'],
    ['an escape in the verb', '{"a":1,"verb":"g\\u0065t"}', null],
  ])('fast path: %s', (_, text, want) => {
    expect(topLevelVerb(text)).toBe(want);
  });

  it('finds the verb of any compact object, wherever the key is (property)', () => {
    const key = fc.string().filter((k) => k !== 'verb');
    const verb = fc.constantFrom('get', 'list', 'watch', 'patch', 'create', 'delete');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 }),
        fc.nat(6),
        verb,
        (entries, at, v) => {
          const pairs: [string, unknown][] = [...entries];
          pairs.splice(Math.min(at, pairs.length), 0, ['verb', v]);
          const text = JSON.stringify(Object.fromEntries(pairs));
          if (text.length >= 4096) return;
          expect(topLevelVerb(text)).toBe(JSON.parse(text).verb);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives up past its limit rather than guess', () => {
    expect(topLevelVerb(`{"pad":"${'x'.repeat(5000)}","verb":"get"}`)).toBeNull();
  });
});
