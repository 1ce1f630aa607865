// Drift detection (shared/spec/drift.md) over audit events of one broker pod, through the
// projection the pipeline uses: every write form, who counts, how a drift ends, and what is
// not a drift.
import { FactStore } from '../../lib/facts/store';
import { findDrifts } from '../../lib/drift';
import { defaultAnalysisOptions, type AnalysisOptions } from '../../lib/analyze/options';
import type { AuditEvent } from '../../lib/model/audit';
import { created, event, factsOf, OPERATOR, POD, SECRET, storedPod, UID } from './broker-pod-events';

const BOB = 'bob@corp.example';
const IMAGE = 'spec.containers[name=kafka].image';
const NEW_IMAGE = 'ghcr.io/adobe/kafka:2.13-4.0.0';
const swapped = (rv: string) =>
  storedPod(rv, (p) => {
    p.spec.containers[0].image = NEW_IMAGE;
  });
const setImage = (second: number, rv: string, user = BOB) =>
  event('patch', {
    user,
    second,
    request: {
      spec: {
        $setElementOrder: undefined,
        '$setElementOrder/containers': [{ name: 'kafka' }],
        containers: [{ image: NEW_IMAGE, name: 'kafka' }],
      },
    },
    response: swapped(rv),
  });

interface Case {
  name: string;
  events: AuditEvent[];
  opts?: Partial<AnalysisOptions>;
  /** by, kind, severity, paths, ended.how */
  expected: Array<[string, string, string, string[], string | null]>;
  warning?: RegExp;
  /** summary.notes: how a drift was judged, which takes nothing from it. */
  note?: RegExp;
}

const cases: Case[] = [
  {
    name: 'kubectl set image: a strategic-merge patch with $setElementOrder',
    events: [created(), setImage(5, '101')],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'a merge patch naming the whole containers list',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: { spec: { containers: [{ ...storedPod('100').spec.containers[0], image: NEW_IMAGE }] } },
        response: swapped('101'),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'a JSON patch whose index resolves against the response',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: [{ op: 'replace', path: '/spec/containers/0/image', value: NEW_IMAGE }],
        response: swapped('101'),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'a full PUT update',
    events: [
      created(),
      event('update', { user: BOB, second: 5, request: swapped('100'), response: swapped('101') }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'a patch at Request level, replayed on the pod just before',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        level: 'Request',
        request: { spec: { containers: [{ image: NEW_IMAGE, name: 'kafka' }] } },
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'kubectl --as: the impersonated user wrote it',
    events: [
      created(),
      { ...setImage(5, '101', 'kubernetes-admin'), impersonatedUser: { username: 'carol@corp.example' } },
    ],
    expected: [['carol@corp.example', 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'kubectl debug: an update of pods/ephemeralcontainers with EphemeralContainers bodies',
    events: [
      created(),
      event('update', {
        user: BOB,
        second: 5,
        subresource: 'ephemeralcontainers',
        request: {
          kind: 'EphemeralContainers',
          apiVersion: 'v1',
          metadata: { name: POD, uid: UID, resourceVersion: '100' },
          ephemeralContainers: [
            { name: 'debugger-x1', image: 'busybox:1.36', env: [{ name: 'TOKEN', value: SECRET }] },
          ],
        },
        response: {
          kind: 'EphemeralContainers',
          apiVersion: 'v1',
          metadata: { name: POD, uid: UID, resourceVersion: '101' },
          ephemeralContainers: [
            {
              name: 'debugger-x1',
              image: 'busybox:1.36',
              env: [{ name: 'TOKEN', value: SECRET }],
              terminationMessagePolicy: 'File',
            },
          ],
        },
      }),
    ],
    expected: [[BOB, 'ephemeral-container', 'tamper', ['spec.ephemeralContainers[name=debugger-x1]'], null]],
  },
  {
    name: 'an in-place resize by the VPA updater',
    events: [
      created(),
      event('patch', {
        user: 'system:serviceaccount:kube-system:vpa-updater',
        subresource: 'resize',
        second: 5,
        request: { spec: { containers: [{ name: 'kafka', resources: { requests: { cpu: '1500m' } } }] } },
        response: storedPod('101', (p) => (p.spec.containers[0].resources.requests.cpu = '1500m')),
      }),
    ],
    expected: [
      [
        'system:serviceaccount:kube-system:vpa-updater',
        'resources',
        'autoscaler',
        ['spec.containers[name=kafka].resources.requests.cpu'],
        null,
      ],
    ],
  },
  {
    name: 'an in-place resize by a user named with --autoscaler-user',
    opts: { autoscalerUsers: ['system:serviceaccount:scaleops-system:scaleops'] },
    events: [
      created(),
      event('patch', {
        user: 'system:serviceaccount:scaleops-system:scaleops',
        subresource: 'resize',
        second: 5,
        request: { spec: { containers: [{ name: 'kafka', resources: { requests: { memory: '3Gi' } } }] } },
        response: storedPod('101', (p) => (p.spec.containers[0].resources.requests.memory = '3Gi')),
      }),
    ],
    expected: [
      [
        'system:serviceaccount:scaleops-system:scaleops',
        'resources',
        'autoscaler',
        ['spec.containers[name=kafka].resources.requests.memory'],
        null,
      ],
    ],
  },
  {
    name: 'the same resize by a person is a change',
    events: [
      created(),
      event('patch', {
        user: BOB,
        subresource: 'resize',
        second: 5,
        request: { spec: { containers: [{ name: 'kafka', resources: { requests: { memory: '3Gi' } } }] } },
        response: storedPod('101', (p) => (p.spec.containers[0].resources.requests.memory = '3Gi')),
      }),
    ],
    expected: [[BOB, 'resources', 'change', ['spec.containers[name=kafka].resources.requests.memory'], null]],
  },
  {
    name: 'a declared label removed',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: { metadata: { labels: { app: null } } },
        response: storedPod('101', (p) => delete p.metadata.labels.app),
      }),
    ],
    expected: [[BOB, 'metadata', 'change', ['metadata.labels.app'], null]],
  },
  {
    name: 'tolerations added stand until the pod is deleted (the graceful delete, not the final one)',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: {
          spec: {
            tolerations: [
              { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
            ],
          },
        },
        response: storedPod('101', (p) =>
          p.spec.tolerations.push({
            key: 'node.kubernetes.io/memory-pressure',
            operator: 'Exists',
            effect: 'NoSchedule',
          }),
        ),
      }),
      event('delete', {
        user: OPERATOR,
        second: 9,
        request: { kind: 'DeleteOptions' },
        response: storedPod('102'),
      }),
      event('delete', {
        user: 'system:node:ip-10-0-1-17.ec2.internal',
        second: 30,
        request: { kind: 'DeleteOptions', gracePeriodSeconds: 0 },
        response: storedPod('103'),
      }),
    ],
    expected: [[BOB, 'tolerations', 'change', ['spec.tolerations'], 'pod-deleted']],
  },
  {
    name: 'a command change is tampering whatever its kind',
    events: [
      created(),
      event('update', {
        user: BOB,
        second: 5,
        request: storedPod('100', (p) => (p.spec.containers[0].command = ['/bin/sh'])),
        response: storedPod('101', (p) => (p.spec.containers[0].command = ['/bin/sh'])),
      }),
    ],
    expected: [[BOB, 'other', 'tamper', ['spec.containers[name=kafka].command'], null]],
  },
  {
    name: 'activeDeadlineSeconds is another declared field',
    events: [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: { spec: { activeDeadlineSeconds: 60 } },
        response: storedPod('101', (p) => (p.spec.activeDeadlineSeconds = 60)),
      }),
    ],
    expected: [[BOB, 'other', 'change', ['spec.activeDeadlineSeconds'], null]],
  },
  {
    name: 'a later write restoring the declared image ends it as reverted; the restore is no drift',
    events: [
      created(),
      setImage(5, '101'),
      event('patch', {
        user: 'alice@corp.example',
        second: 20,
        request: { spec: { containers: [{ image: 'ghcr.io/adobe/kafka:2.13-3.9.1', name: 'kafka' }] } },
        response: storedPod('102'),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], 'reverted']],
  },
  {
    name: 'a pre-fix recreation ends it as pod-deleted',
    events: [
      created(),
      setImage(5, '101'),
      event('delete', {
        user: OPERATOR,
        second: 11,
        request: { kind: 'DeleteOptions' },
        response: swapped('102'),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], 'pod-deleted']],
  },
  {
    name: 'after an image swap, an undeclared annotation by someone else is not a second drift',
    events: [
      created(),
      setImage(5, '101'),
      event('patch', {
        user: 'system:serviceaccount:monitoring:pod-annotator',
        second: 8,
        request: { metadata: { annotations: { 'prometheus.io/scrape': 'true' } } },
        response: storedPod('102', (p) => {
          p.spec.containers[0].image = NEW_IMAGE;
          p.metadata.annotations['prometheus.io/scrape'] = 'true';
        }),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: 'a write that changed nothing keeps its resourceVersion and is judged against that state',
    events: [
      created(),
      setImage(5, '101'),
      // Logged after a later state, yet it left version 101 as it was.
      event('patch', {
        user: 'dave@corp.example',
        second: 7,
        request: { spec: { containers: [{ image: NEW_IMAGE, name: 'kafka' }] } },
        response: swapped('101'),
      }),
    ],
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
  },
  {
    name: "another controller's annotation is not a drift",
    events: [
      created(),
      event('patch', {
        user: 'system:serviceaccount:monitoring:pod-annotator',
        second: 5,
        request: { metadata: { annotations: { 'prometheus.io/scrape': 'true' } } },
        response: storedPod('101', (p) => (p.metadata.annotations['prometheus.io/scrape'] = 'true')),
      }),
    ],
    expected: [],
  },
  {
    name: "the operator's own writes, dry runs and refused writes are not drifts",
    events: [
      created(),
      setImage(3, '101', OPERATOR),
      event('patch', {
        user: BOB,
        second: 5,
        requestURI: `/api/v1/namespaces/kafka/pods/${POD}?dryRun=All&fieldManager=kubectl-patch`,
        request: { spec: { activeDeadlineSeconds: 60 } },
        response: storedPod('101', (p) => (p.spec.activeDeadlineSeconds = 60)),
      }),
      event('patch', {
        user: BOB,
        second: 6,
        code: 422,
        request: { spec: { activeDeadlineSeconds: 60 } },
        response: { kind: 'Status' },
      }),
    ],
    expected: [],
  },
  {
    name: 'Metadata level: ephemeral containers and resizes are still reported, other writes are counted',
    events: [
      created('Metadata'),
      // At Metadata level the create names no pod: the scheduler's binding does.
      event('create', {
        user: 'system:kube-scheduler',
        second: 1,
        subresource: 'binding',
        level: 'Metadata',
      }),
      event('update', { user: BOB, second: 5, subresource: 'ephemeralcontainers', level: 'Metadata' }),
      event('patch', { user: BOB, second: 6, subresource: 'resize', level: 'Metadata' }),
      event('patch', { user: BOB, second: 7, level: 'Metadata' }),
    ],
    opts: { operatorUsers: [OPERATOR] },
    expected: [
      [BOB, 'ephemeral-container', 'tamper', [], null],
      [BOB, 'resources', 'change', [], null],
    ],
    warning: /drift detection was limited: 1 write/,
  },
  {
    name: 'a pod created before the logs: its declared values stand in for the state before',
    events: [setImage(5, '101')],
    opts: { operatorUsers: [OPERATOR] },
    expected: [[BOB, 'image', 'tamper', [IMAGE], null]],
    note: /judged against koperator's declared values/,
  },
];

describe('drift detection', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = findDrifts(FactStore.of(factsOf(c.events)), { ...defaultAnalysisOptions(), ...c.opts });
    const got = result.drifts.map((d) => [
      d.by,
      d.kind,
      d.severity,
      d.fields.map((f) => f.path),
      d.ended?.how ?? null,
    ]);
    expect(got).toEqual(c.expected);
    for (const d of result.drifts) {
      expect(d.pod).toEqual({ name: POD, uid: UID });
      expect([d.namespace, d.kafkaCluster, d.brokerId]).toEqual(['kafka', 'events', '0']);
    }
    if (c.warning) expect(result.warnings.join('\n')).toMatch(c.warning);
    else expect(result.warnings).toEqual([]);
    if (c.note) expect(result.notes.join('\n')).toMatch(c.note);
    else expect(result.notes).toEqual([]);
  });

  it('names the declared and the written value, the write and its end as evidence', () => {
    const events = [
      created(),
      setImage(5, '101'),
      event('delete', { user: OPERATOR, second: 11, response: swapped('102') }),
    ];
    const [d] = findDrifts(FactStore.of(factsOf(events)), defaultAnalysisOptions()).drifts;
    expect(d).toMatchObject({
      at: events[1].requestReceivedTimestamp,
      verb: 'patch',
      subresource: '',
      fields: [{ path: IMAGE, declared: 'ghcr.io/adobe/kafka:2.13-3.9.1', to: NEW_IMAGE }],
      ended: { at: events[2].requestReceivedTimestamp, how: 'pod-deleted' },
      preFixWouldRevert: true,
      evidence: [events[1].auditID, events[2].auditID],
    });
  });

  it('says the pre-fix operator would not revert an added toleration (it merges them)', () => {
    const events = [
      created(),
      event('patch', {
        user: BOB,
        second: 5,
        request: {},
        response: storedPod('101', (p) => p.spec.tolerations.push({ key: 'x', operator: 'Exists' })),
      }),
    ];
    const [d] = findDrifts(FactStore.of(factsOf(events)), defaultAnalysisOptions()).drifts;
    expect([d.kind, d.preFixWouldRevert]).toEqual(['tolerations', false]);
  });

  it('never shows an env value an ephemeral container was given', () => {
    const c = cases.find((x) => x.name.startsWith('kubectl debug'))!;
    const result = findDrifts(FactStore.of(factsOf(c.events)), defaultAnalysisOptions());
    expect(result.drifts).toHaveLength(1);
    expect(JSON.stringify(result.drifts)).not.toContain(SECRET);
    expect(JSON.stringify(result.drifts)).toContain('busybox:1.36');
  });

  it('keeps only drifts in the scope asked for', () => {
    const events = [created(), setImage(5, '101')];
    const store = FactStore.of(factsOf(events));
    expect(findDrifts(store, { ...defaultAnalysisOptions(), namespaces: ['other'] }).drifts).toEqual([]);
    expect(findDrifts(store, { ...defaultAnalysisOptions(), since: '2026-12-01T22:00:06Z' }).drifts).toEqual(
      [],
    );
    expect(findDrifts(store, { ...defaultAnalysisOptions(), kafkaClusters: ['events'] }).drifts).toHaveLength(
      1,
    );
  });
});
