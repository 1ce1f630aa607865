// Shared pieces of the hardening tests: in-memory sources, a reader that collects what
// one object yields, and a minimal hand-built webhook revert loop (four creates of one
// broker, each mutated by a webhook, each deleted by the operator) that the analysis
// turns into recreations, so hostile variants of it exercise every stage.
import { Readable } from 'stream';
import { createIngestStats, ingest, type IngestOptions, type IngestStats } from '../../lib/ingest';
import { encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import { lastAppliedConfiguration } from '../../lib/koperator/pod-diff';
import type { AuditEvent } from '../../lib/model/audit';
import type { LogRecord } from '../../lib/model/record';
import type { SourceObject } from '../../lib/sources/types';

export const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
export const WEBHOOK = 'pods.scaler.example.com';

export function memorySource(name: string, bytes: Buffer | Uint8Array): SourceObject {
  return { name, size: bytes.length, open: async () => Readable.from([Buffer.from(bytes)]) };
}

export interface ReadResult {
  records: LogRecord[];
  ids: string[];
  stats: IngestStats;
}

/**
 * Everything one object yields through ingest() (reader and de-duplication), which never
 * throws by contract: a throw fails the caller's test.
 */
export async function readBytes(
  bytes: Buffer | Uint8Array,
  opts: IngestOptions = {},
  name = 'mem',
): Promise<ReadResult> {
  const stats = createIngestStats();
  const records: LogRecord[] = [];
  async function* one(): AsyncGenerator<SourceObject> {
    yield memorySource(name, bytes);
  }
  for await (const r of ingest(one(), stats, opts)) records.push(r);
  const ids = records.flatMap((r) => (r.kind === 'audit' ? [r.event.auditID] : []));
  return { records, ids, stats };
}

export function totalSkipped(stats: IngestStats): number {
  return Object.values(stats.skipped).reduce((a, b) => a + (b ?? 0), 0);
}

/** A small relevant audit event (a pod delete) whose auditID is `id`. */
/** Five pod-name characters from any id, so every test pod is named as koperator names brokers. */
function suffixOf(id: string): string {
  let h = 7;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) >>> 0;
  return h.toString(36).padStart(5, '0').slice(-5);
}

export function deleteEvent(id: string, second = 0): AuditEvent {
  const ts = new Date(Date.UTC(2026, 10, 2, 10, 0, second)).toISOString();
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: id,
    stage: 'ResponseComplete',
    verb: 'delete',
    user: { username: 'bob@example.com' },
    objectRef: { resource: 'pods', namespace: 'kafka', name: `c-0-${suffixOf(id)}`, apiVersion: 'v1' },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: ts,
    stageTimestamp: ts,
  };
}

export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + '\n';
}

type Json = Record<string, unknown>;

function brokerPod(
  name: string,
  uid: string,
  cpu: string,
  lastApplied?: string,
): { request: Json; response: Json } {
  const desired = {
    metadata: {
      generateName: 'c-0-',
      namespace: 'kafka',
      labels: { app: 'kafka', kafka_cr: 'c', brokerId: '0' },
      ownerReferences: [
        {
          apiVersion: 'kafka.banzaicloud.io/v1beta1',
          kind: 'KafkaCluster',
          name: 'c',
          uid: 'kc-1',
          controller: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'kafka',
          image: 'ghcr.io/adobe/koperator/kafka:2.13-3.9.1',
          env: [{ name: 'KAFKA_HEAP_OPTS', value: '-Xmx2G' }],
          resources: { requests: { cpu: '1', memory: '4Gi' } },
        },
      ],
    },
  };
  // What koperator's annotator writes: the desired pod as Go marshals it (status: {} and all).
  const annotations = {
    [LAST_APPLIED_ANNOTATION]: lastApplied ?? encodeLastApplied(lastAppliedConfiguration(desired)),
  };
  const request: Json = {
    kind: 'Pod',
    apiVersion: 'v1',
    ...desired,
    metadata: { ...desired.metadata, annotations },
  };
  const response = JSON.parse(JSON.stringify(request)) as {
    metadata: Json;
    spec: { containers: { resources: { requests: Json } }[] };
  };
  response.metadata.name = name;
  response.metadata.uid = uid;
  response.spec.containers[0].resources.requests.cpu = cpu;
  return { request, response: response as unknown as Json };
}

/**
 * Four creates of broker 0 of KafkaCluster `c`, each mutated by WEBHOOK (cpu 1 → 500m)
 * and deleted by the operator 8 s later: three external-mutation-revert recreations and
 * a loop. `lastApplied` replaces the annotation of every create (hostile variants).
 */
export function revertLoopEvents(opts: { lastApplied?: string } = {}): AuditEvent[] {
  const events: AuditEvent[] = [];
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 2, 10, 0, s)).toISOString();
  const base = (id: string, verb: string, s: number, name?: string): AuditEvent => ({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: id,
    stage: 'ResponseComplete',
    verb,
    user: { username: OPERATOR, groups: ['system:serviceaccounts'] },
    objectRef: { resource: 'pods', namespace: 'kafka', ...(name ? { name } : {}), apiVersion: 'v1' },
    responseStatus: { code: verb === 'create' ? 201 : 200 },
    requestReceivedTimestamp: at(s),
    stageTimestamp: at(s),
  });
  for (let i = 0; i < 4; i++) {
    const name = `c-0-p000${i}`;
    const { request, response } = brokerPod(name, `uid-${i}`, '500m', opts.lastApplied);
    events.push({
      ...base(`create-${i}`, 'create', i * 10),
      requestObject: request,
      responseObject: response,
      annotations: {
        'mutation.webhook.admission.k8s.io/round_0_index_0': JSON.stringify({
          configuration: 'scaler',
          webhook: WEBHOOK,
          mutated: true,
        }),
        'patch.webhook.admission.k8s.io/round_0_index_0': JSON.stringify({
          configuration: 'scaler',
          webhook: WEBHOOK,
          patch: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '500m' }],
          patchType: 'JSONPatch',
        }),
      },
    });
    events.push({
      ...base(`delete-${i}`, 'delete', i * 10 + 8, name),
      requestObject: { kind: 'DeleteOptions', apiVersion: 'v1' },
    });
  }
  return events;
}
