// Events, operator lines and in-memory sources for the ingestion tests. Fixture files are
// made from these at test time by sim/encode.ts; nothing is checked in.
import { Readable } from 'stream';
import { ingest, readObject, type IngestOptions } from '../../lib/ingest';
import { createIngestStats, type IngestStats } from '../../lib/ingest/stats';
import type { AuditEvent } from '../../lib/model/audit';
import type { OperatorLine } from '../../lib/model/operator-line';
import type { LogRecord } from '../../lib/model/record';
import type { SourceObject } from '../../lib/sources/types';

const T0 = Date.UTC(2026, 10, 2, 10, 0, 0);

function micros(ms: number, extra: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, `.$1${String(extra).padStart(3, '0')}Z`);
}

let counter = 0;
function uuid(n: number): string {
  const h = n.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${h}`;
}

interface EventSpec {
  verb: string;
  resource: string;
  subresource?: string;
  name?: string;
  namespace?: string;
  level?: string;
  requestObject?: unknown;
  responseObject?: unknown;
  annotations?: Record<string, string>;
  username?: string;
}

/** A ResponseComplete event (and its RequestReceived when `withReceived`). */
export function auditEvent(
  spec: EventSpec,
  stage: 'RequestReceived' | 'ResponseComplete' | 'ResponseStarted' = 'ResponseComplete',
  id?: string,
): AuditEvent {
  const n = ++counter;
  const at = T0 + n * 1000;
  const ns = spec.namespace ?? 'kafka';
  const path =
    spec.resource === 'kafkaclusters'
      ? `/apis/kafka.banzaicloud.io/v1beta1/namespaces/${ns}/kafkaclusters`
      : `/api/v1/namespaces/${ns}/${spec.resource}`;
  const ev: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: spec.level ?? 'RequestResponse',
    auditID: id ?? uuid(n),
    stage,
    requestURI: `${path}${spec.name ? `/${spec.name}` : ''}${spec.subresource ? `/${spec.subresource}` : ''}`,
    verb: spec.verb,
    user: {
      username: spec.username ?? 'system:serviceaccount:kafka:kafka-operator',
      groups: ['system:authenticated'],
    },
    sourceIPs: ['10.0.0.7'],
    userAgent: 'manager/v0.0.0 (linux/amd64) kubernetes/$Format',
    objectRef: {
      resource: spec.resource,
      namespace: ns,
      ...(spec.name ? { name: spec.name } : {}),
      apiGroup: spec.resource === 'kafkaclusters' ? 'kafka.banzaicloud.io' : '',
      apiVersion: spec.resource === 'kafkaclusters' ? 'v1beta1' : 'v1',
      ...(spec.subresource ? { subresource: spec.subresource } : {}),
    },
    requestReceivedTimestamp: micros(at, 123),
    stageTimestamp: micros(at + 5, 456),
  };
  if (stage !== 'RequestReceived') {
    ev.responseStatus = { code: spec.verb === 'create' ? 201 : 200 };
    if (spec.requestObject !== undefined) ev.requestObject = spec.requestObject;
    if (spec.responseObject !== undefined) ev.responseObject = spec.responseObject;
    if (spec.annotations) ev.annotations = spec.annotations;
  }
  return ev;
}

/** A pod with content that stresses framing: unicode, `}{`, escaped newlines and quotes, slashes. */
export function brokerPod(name: string): Record<string, unknown> {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: 'kafka',
      labels: { app: 'kafka', kafka_cr: 'pipeline-kafka', brokerId: '202' },
      annotations: {
        'banzaicloud.com/last-applied': 'UEsDBBQACAAIAAAAAAAAAAAAAAAAAAAAAAAIAAAAb3JpZ2luYWw=',
        note: 'ünïcødé ✓ "quoted" }{ not a boundary \\ back\\slash\nnewline /path/',
      },
    },
    spec: {
      containers: [
        {
          name: 'kafka',
          image: 'ghcr.io/adobe/kafka:3.9',
          resources: { requests: { cpu: '1', memory: '2Gi' } },
        },
      ],
    },
  };
}

export interface Fixture {
  event: AuditEvent;
  relevant: boolean;
}

/** A mix of relevant and irrelevant events, every stage the readers must tell apart. */
export function mixedEvents(): Fixture[] {
  const pod = brokerPod('pipeline-kafka-202-abcde');
  const patchAnn = {
    'mutation.webhook.admission.k8s.io/round_0_index_0':
      '{"configuration":"res","webhook":"res.example.com","mutated":true}',
  };
  const out: Fixture[] = [
    {
      event: auditEvent({
        verb: 'create',
        resource: 'pods',
        requestObject: pod,
        responseObject: pod,
        annotations: patchAnn,
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'create',
        resource: 'pods',
        subresource: 'binding',
        name: 'pipeline-kafka-202-abcde',
        level: 'Metadata',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'patch',
        resource: 'pods',
        subresource: 'status',
        name: 'pipeline-kafka-202-abcde',
        level: 'Request',
        requestObject: { status: { phase: 'Running' } },
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'create',
        resource: 'pods',
        subresource: 'eviction',
        name: 'pipeline-kafka-201-fghij',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'patch',
        resource: 'pods',
        subresource: 'resize',
        name: 'pipeline-kafka-200-klmno',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'delete',
        resource: 'pods',
        name: 'pipeline-kafka-202-abcde',
        username: 'alice@example.com',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'update',
        resource: 'configmaps',
        name: 'pipeline-kafka-config-202',
        level: 'Metadata',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'patch',
        resource: 'kafkaclusters',
        name: 'pipeline-kafka',
        level: 'Metadata',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'get',
        resource: 'pods',
        name: 'pipeline-kafka-202-abcde',
        level: 'Metadata',
      }),
      relevant: false,
    },
    { event: auditEvent({ verb: 'watch', resource: 'kafkaclusters', level: 'Metadata' }), relevant: false },
    // Another team's pod: its writes say nothing about a broker, except its binding.
    {
      event: auditEvent({
        verb: 'delete',
        resource: 'pods',
        name: 'web-7d9f8c6b5-x2x4z',
        namespace: 'shop',
        username: 'system:serviceaccount:kube-system:replicaset-controller',
        responseObject: { kind: 'Pod', metadata: { name: 'web-7d9f8c6b5-x2x4z', labels: { app: 'web' } } },
      }),
      relevant: false,
    },
    {
      event: auditEvent({
        verb: 'patch',
        resource: 'pods',
        subresource: 'status',
        name: 'web-7d9f8c6b5-x2x4z',
        namespace: 'shop',
        username: 'system:node:ip-10-0-1-1',
        level: 'Request',
        requestObject: { status: { phase: 'Running' } },
      }),
      relevant: false,
    },
    {
      event: auditEvent({
        verb: 'create',
        resource: 'pods',
        subresource: 'binding',
        name: 'web-7d9f8c6b5-x2x4z',
        namespace: 'shop',
        username: 'system:kube-scheduler',
        level: 'Metadata',
      }),
      relevant: true,
    },
    {
      event: auditEvent({
        verb: 'update',
        resource: 'leases',
        name: 'ip-10-0-1-1',
        namespace: 'kube-node-lease',
        level: 'Request',
        requestObject: { spec: { holderIdentity: 'x' } },
      }),
      relevant: false,
    },
    {
      event: auditEvent({ verb: 'update', resource: 'secrets', name: 'tls', level: 'Metadata' }),
      relevant: false,
    },
  ];
  // A request seen at both stages: only ResponseComplete survives de-duplication.
  const rc = auditEvent({ verb: 'create', resource: 'pods', requestObject: pod, responseObject: pod });
  const rr = { ...rc, stage: 'RequestReceived' };
  delete rr.responseStatus;
  delete rr.requestObject;
  delete rr.responseObject;
  out.push({ event: rr as AuditEvent, relevant: true }, { event: rc, relevant: true });
  return out;
}

export function operatorLines(): OperatorLine[] {
  const ctx = {
    controller: 'KafkaCluster',
    controllerGroup: 'kafka.banzaicloud.io',
    controllerKind: 'KafkaCluster',
    KafkaCluster: { name: 'pipeline-kafka', namespace: 'kafka' },
    namespace: 'kafka',
    name: 'pipeline-kafka',
    reconcileID: 'b476235e-d591-44fc-9157-446e7ddd0f28',
  };
  const big = JSON.stringify(brokerPod('pipeline-kafka-202-abcde')).repeat(8);
  return [
    { ts: '2026-11-02T10:00:01.001Z', level: 'info', msg: 'Reconciling KafkaCluster', fields: { ...ctx } },
    {
      ts: '2026-11-02T10:00:02.002Z',
      level: 'debug',
      msg: 'kafka pod resource diffs',
      fields: { ...ctx, patch: '{"spec":{}}', current: big, modified: big, original: big },
    },
    {
      ts: '2026-11-02T10:00:03.003Z',
      level: 'info',
      msg: 'broker pod deleted',
      fields: { ...ctx, pod: 'pipeline-kafka-202-abcde', brokerId: '202' },
    },
    {
      ts: '2026-11-02T10:00:04.004Z',
      level: 'info',
      msg: 'CR status updated',
      fields: {
        logger: 'controllers.KafkaCluster',
        'Request.Namespace': 'kafka',
        'Request.Name': 'pipeline-kafka',
        status: 'ClusterRollingUpgrading',
      },
    },
  ];
}

/** An object held in memory, delivered in chunks of `chunk` bytes (to cross every boundary). */
export function memoryObject(name: string, bytes: Buffer | string, chunk = 1 << 20): SourceObject {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return {
    name,
    size: buf.length,
    open: async () => {
      const parts: Buffer[] = [];
      for (let i = 0; i < buf.length; i += chunk) parts.push(buf.subarray(i, i + chunk));
      return Readable.from(parts, { objectMode: false });
    },
  };
}

export async function* objectsOf(objs: SourceObject[]): AsyncGenerator<SourceObject> {
  yield* objs;
}

export interface ReadResult {
  records: LogRecord[];
  stats: IngestStats;
}

export async function readOne(obj: SourceObject, opts?: IngestOptions): Promise<ReadResult> {
  const stats = createIngestStats();
  const records: LogRecord[] = [];
  for await (const r of readObject(obj, stats, opts)) records.push(r);
  return { records, stats };
}

export async function readAll(
  objs: SourceObject[] | AsyncIterable<SourceObject>,
  opts?: IngestOptions,
): Promise<ReadResult> {
  const stats = createIngestStats();
  const records: LogRecord[] = [];
  for await (const r of ingest(Array.isArray(objs) ? objectsOf(objs) : objs, stats, opts)) records.push(r);
  return { records, stats };
}

export function auditOf(records: LogRecord[]): AuditEvent[] {
  return records.flatMap((r) => (r.kind === 'audit' ? [r.event] : []));
}

export function operatorOf(records: LogRecord[]): OperatorLine[] {
  return records.flatMap((r) => (r.kind === 'operator' ? [r.line] : []));
}
