// Writers that serialise audit events and operator lines into every container format the
// ingestion layer reads, byte for byte as the real producers write them (see
// shared/spec/audit-log-formats.md). The simulator uses them to lay out its corpus, the
// ingestion tests to make fixtures at test time, the benchmarks to make big inputs.
//
// Each writer returns the uncompressed bytes as a string, except the Firehose writer,
// whose output *is* a sequence of gzip members. gzipMembers() compresses anything else,
// as one member or several (kube-apiserver `--audit-log-compress`, EKS exports, Fluent Bit).
import { gzipSync } from 'zlib';
import type { AuditEvent } from '../lib/model/audit';
import type { OperatorLine } from '../lib/model/operator-line';
import { NIFIKOP_LOGGER, renderNifikopLine } from './nifikop/log';

export type AuditContainer =
  | 'audit-jsonl'
  | 'audit-eventlist'
  | 'audit-eventlist-pretty'
  | 'eks-cloudwatch-export'
  | 'eks-firehose-cwl'
  | 'fluent-bit'
  | 'fluent-bit-log'
  | 'aks-diagnostic'
  | 'aks-diagnostic-object'
  | 'gke-logentry';

export type OperatorContainer = 'zap-json' | 'zap-json-epoch' | 'cri' | 'fluent-bit-operator';

export const AUDIT_CONTAINERS: readonly AuditContainer[] = [
  'audit-jsonl',
  'audit-eventlist',
  'audit-eventlist-pretty',
  'eks-cloudwatch-export',
  'eks-firehose-cwl',
  'fluent-bit',
  'fluent-bit-log',
  'aks-diagnostic',
  'aks-diagnostic-object',
  'gke-logentry',
];

export const OPERATOR_CONTAINERS: readonly OperatorContainer[] = [
  'zap-json',
  'zap-json-epoch',
  'cri',
  'fluent-bit-operator',
];

function lines(items: readonly string[]): string {
  return items.length === 0 ? '' : `${items.join('\n')}\n`;
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, size);
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

function millisIso(rfc3339: string): string {
  const d = new Date(rfc3339);
  return Number.isNaN(d.getTime()) ? rfc3339 : d.toISOString();
}

/** RFC3339Nano as container runtimes write it (`...T10:46:08.386000000Z`). */
function nanosIso(rfc3339: string): string {
  return millisIso(rfc3339).replace(/\.(\d{3})Z$/, '.$1000000Z');
}

// --- kube-apiserver log backend, webhook backend ---

/** `--audit-log-path`: one event per line. */
export function auditJsonLines(events: readonly AuditEvent[]): string {
  return lines(events.map((e) => JSON.stringify(e)));
}

function eventList(items: readonly AuditEvent[]): object {
  return { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items };
}

/** Webhook backend batches: one EventList document per line. */
export function eventListLines(events: readonly AuditEvent[], opts: { perList?: number } = {}): string {
  return lines(chunked(events, opts.perList ?? 100).map((batch) => JSON.stringify(eventList(batch))));
}

/** One pretty-printed EventList document (multi-line JSON, no trailing newline, as `json.MarshalIndent`). */
export function eventListDocument(events: readonly AuditEvent[]): string {
  return JSON.stringify(eventList(events), null, 2);
}

// --- EKS ---

/** CloudWatch Logs export task: `<ISO 8601 ms Z> <event>` lines (gzip the result per log stream). */
export function eksExportLines(events: readonly AuditEvent[]): string {
  return lines(events.map((e) => `${millisIso(e.stageTimestamp)} ${JSON.stringify(e)}`));
}

export interface CloudWatchPayloadOptions {
  /** Log events per payload (CloudWatch batches by size and time). */
  perPayload?: number;
  /** Start with the CONTROL_MESSAGE CloudWatch sends when the subscription is created. */
  controlMessage?: boolean;
  logGroup?: string;
  logStream?: string;
  owner?: string;
}

export interface CloudWatchLogsPayload {
  messageType: 'DATA_MESSAGE' | 'CONTROL_MESSAGE';
  owner: string;
  logGroup: string;
  logStream: string;
  subscriptionFilters: string[];
  logEvents: { id: string; timestamp: number; message: string }[];
}

/** The CloudWatch Logs subscription payloads that carry `events`. */
export function cloudWatchPayloads(
  events: readonly AuditEvent[],
  opts: CloudWatchPayloadOptions = {},
): CloudWatchLogsPayload[] {
  const out: CloudWatchLogsPayload[] = [];
  const owner = opts.owner ?? '111122223333';
  if (opts.controlMessage) {
    const first = events[0] ? Date.parse(events[0].stageTimestamp) : 0;
    out.push({
      messageType: 'CONTROL_MESSAGE',
      owner: 'CloudwatchLogs',
      logGroup: '',
      logStream: '',
      subscriptionFilters: [],
      logEvents: [
        {
          id: '',
          timestamp: first,
          message: 'CWL CONTROL MESSAGE: Checking health of destination Firehose.',
        },
      ],
    });
  }
  let seq = 0;
  for (const batch of chunked(events, opts.perPayload ?? 50)) {
    out.push({
      messageType: 'DATA_MESSAGE',
      owner,
      logGroup: opts.logGroup ?? '/aws/eks/sim/cluster',
      logStream: opts.logStream ?? 'kube-apiserver-audit-0123456789abcdef0123456789abcdef',
      subscriptionFilters: ['eks-audit-to-firehose'],
      logEvents: batch.map((e) => {
        const timestamp = Date.parse(e.stageTimestamp);
        return {
          id: `${timestamp}${String(seq++).padStart(12, '0')}`,
          timestamp,
          message: JSON.stringify(e),
        };
      }),
    });
  }
  return out;
}

/**
 * Subscription filter → Firehose → S3: each payload gzipped on its own and the members
 * concatenated with no delimiter. `newline` puts one after each payload inside its member
 * (some delivery set-ups add it).
 */
export function firehoseObject(
  events: readonly AuditEvent[],
  opts: CloudWatchPayloadOptions & { newline?: boolean } = {},
): Buffer {
  const sep = opts.newline ? '\n' : '';
  return Buffer.concat(cloudWatchPayloads(events, opts).map((p) => gzipSync(JSON.stringify(p) + sep)));
}

// --- Fluent Bit ---

/** Fluent Bit `s3` output of the audit file: the event at top level plus `date`, or as a string under `log`. */
export function fluentBitAuditLines(
  events: readonly AuditEvent[],
  opts: { wrap?: 'top' | 'log' } = {},
): string {
  return lines(
    events.map((e) => {
      const date = millisIso(e.stageTimestamp);
      return opts.wrap === 'log'
        ? JSON.stringify({ date, log: `${JSON.stringify(e)}\n` })
        : JSON.stringify({ date, ...e });
    }),
  );
}

// --- AKS ---

export interface AksOptions {
  /** `properties.log` as a JSON string (usual) or as an object. */
  log?: 'string' | 'object';
  category?: 'kube-audit' | 'kube-audit-admin';
}

/** Diagnostic settings `PT1H.json`: one record a line, written by a .NET encoder that escapes `/`. */
export function aksDiagnosticLines(events: readonly AuditEvent[], opts: AksOptions = {}): string {
  return lines(
    events.map((e) => {
      const record = {
        category: opts.category ?? 'kube-audit',
        operationName: 'Microsoft.ContainerService/managedClusters/diagnosticLogs/Read',
        properties: {
          pod: 'kube-apiserver-5d8f7b9c5d-sim01',
          containerID: '0'.repeat(64),
          log: opts.log === 'object' ? e : `${JSON.stringify(e)}\n`,
          stream: 'stdout',
        },
        resourceId:
          '/SUBSCRIPTIONS/00000000-0000-0000-0000-000000000000/RESOURCEGROUPS/SIM/PROVIDERS/MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/SIM-AKS',
        serviceBuild: 'na',
        time: e.stageTimestamp,
      };
      return JSON.stringify(record).replace(/\//g, '\\/');
    }),
  );
}

// --- GKE ---

const GRPC_FROM_HTTP: Record<number, number> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  409: 6,
  422: 3,
  429: 8,
  500: 13,
  503: 14,
  504: 4,
};

/**
 * The Cloud Logging LogEntry GKE writes for an audit event. GKE logs a request once
 * (first+last) or, for long-running ones, when the response starts and when it ends:
 * RequestReceived and Panic events have no entry (null).
 */
export function toGkeLogEntry(e: AuditEvent): object | null {
  if (e.stage !== 'ResponseComplete' && e.stage !== 'ResponseStarted') return null;
  const ref = e.objectRef ?? {};
  const group = ref.apiGroup ? ref.apiGroup : 'core';
  const version = ref.apiVersion ?? 'v1';
  const resource = ref.resource ?? 'unknown';
  const method = [
    'io',
    'k8s',
    group,
    version,
    resource,
    ...(ref.subresource ? [ref.subresource] : []),
    e.verb,
  ].join('.');
  const path = [
    group,
    version,
    ...(ref.namespace ? ['namespaces', ref.namespace] : []),
    resource,
    ...(ref.name ? [ref.name] : []),
    ...(ref.subresource ? [ref.subresource] : []),
  ].join('/');
  const http = e.responseStatus?.code ?? 200;
  const payload: Record<string, unknown> = {
    '@type': 'type.googleapis.com/google.cloud.audit.AuditLog',
    authenticationInfo: { principalEmail: e.user.username },
    authorizationInfo: [{ granted: true, permission: method, resource: path }],
    methodName: method,
    requestMetadata: { callerIp: e.sourceIPs?.[0], callerSuppliedUserAgent: e.userAgent },
    resourceName: path,
    serviceName: 'k8s.io',
    status: {
      code: http < 400 ? 0 : (GRPC_FROM_HTTP[http] ?? 2),
      ...(e.responseStatus?.message ? { message: e.responseStatus.message } : {}),
    },
  };
  const kind = (body: unknown): string => {
    const k = typeof body === 'object' && body !== null ? (body as { kind?: unknown }).kind : undefined;
    return typeof k === 'string' ? `${group}.k8s.io/${version}.${k}` : `${group}.k8s.io/${version}.Unknown`;
  };
  if (e.requestObject !== undefined)
    payload.request = { '@type': kind(e.requestObject), ...(e.requestObject as object) };
  if (e.responseObject !== undefined)
    payload.response = { '@type': kind(e.responseObject), ...(e.responseObject as object) };
  return {
    insertId: e.auditID,
    labels: e.annotations ?? {},
    logName: 'projects/sim-project/logs/cloudaudit.googleapis.com%2Factivity',
    operation: { first: true, id: e.auditID, last: e.stage === 'ResponseComplete', producer: 'k8s.io' },
    protoPayload: payload,
    receiveTimestamp: e.stageTimestamp,
    resource: {
      labels: { cluster_name: 'sim-cluster', location: 'europe-west1', project_id: 'sim-project' },
      type: 'k8s_cluster',
    },
    timestamp: e.stageTimestamp,
  };
}

/** A Cloud Logging sink's export: one LogEntry a line. */
export function gkeLogEntryLines(events: readonly AuditEvent[]): string {
  const entries: string[] = [];
  for (const e of events) {
    const entry = toGkeLogEntry(e);
    if (entry) entries.push(JSON.stringify(entry));
  }
  return lines(entries);
}

// --- koperator logs ---

/** One zap JSON line in the production encoder's key order; `epoch` writes the older float-seconds `ts`. */
export function zapLine(line: OperatorLine, opts: { ts?: 'iso' | 'epoch' } = {}): string {
  // NiFiKop's lines keep their own encoder's keys (`time`, ISO 8601) whatever the container.
  if (line.fields.logger === NIFIKOP_LOGGER) return renderNifikopLine(line);
  const ts = opts.ts === 'epoch' ? Date.parse(line.ts) / 1000 : line.ts;
  return JSON.stringify({ level: line.level, ts, msg: line.msg, ...line.fields });
}

export function zapLines(ls: readonly OperatorLine[], opts: { ts?: 'iso' | 'epoch' } = {}): string {
  return lines(ls.map((l) => zapLine(l, opts)));
}

export interface CriOptions {
  stream?: 'stdout' | 'stderr';
  /** The runtime splits longer lines into `P` parts of this many bytes (containerd: 16 KiB). */
  maxPart?: number;
}

/** Splits on UTF-8 byte counts without cutting a character. */
function splitBytes(text: string, max: number): string[] {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + max);
    while (end < buf.length && end > start && (buf[end] & 0xc0) === 0x80) end--;
    parts.push(buf.subarray(start, end).toString('utf8'));
    start = end;
  }
  return parts;
}

/** Container runtime (CRI) log lines around arbitrary text lines, split into `P` parts when long. */
export function criLines(texts: readonly { ts: string; text: string }[], opts: CriOptions = {}): string {
  const stream = opts.stream ?? 'stderr';
  const out: string[] = [];
  for (const { ts, text } of texts) {
    const parts = splitBytes(text, opts.maxPart ?? 16 * 1024);
    parts.forEach((p, i) => out.push(`${nanosIso(ts)} ${stream} ${i === parts.length - 1 ? 'F' : 'P'} ${p}`));
  }
  return lines(out);
}

/** koperator's zap lines as the kubelet stores them (`/var/log/pods/...`). */
export function criOperatorLines(ls: readonly OperatorLine[], opts: CriOptions = {}): string {
  return criLines(
    ls.map((l) => ({ ts: l.ts, text: zapLine(l) })),
    opts,
  );
}

export interface FluentBitOperatorOptions {
  pod?: string;
  namespace?: string;
  container?: string;
  /** Split long lines into `_p: "P"` records of this many bytes, as Fluent Bit's CRI parser does without multiline. */
  maxPart?: number;
}

/** Fluent Bit `s3` output of koperator's container log: the zap line under `log`, with a `kubernetes` block. */
export function fluentBitOperatorLines(
  ls: readonly OperatorLine[],
  opts: FluentBitOperatorOptions = {},
): string {
  const kubernetes = {
    pod_name: opts.pod ?? 'kafka-operator-6d8f7b9c5d-sim01',
    namespace_name: opts.namespace ?? 'kafka',
    pod_id: '00000000-0000-4000-8000-000000000001',
    labels: { 'app.kubernetes.io/name': 'kafka-operator' },
    host: 'ip-10-0-0-1.eu-west-1.compute.internal',
    container_name: opts.container ?? 'manager',
    docker_id: 'a'.repeat(64),
    container_image: 'ghcr.io/adobe/koperator:0.28.0-adobe-20250923',
  };
  const out: string[] = [];
  for (const l of ls) {
    const parts = splitBytes(zapLine(l), opts.maxPart ?? Number.MAX_SAFE_INTEGER);
    parts.forEach((log, i) => {
      const time = nanosIso(l.ts);
      out.push(
        JSON.stringify({
          date: millisIso(l.ts),
          time,
          stream: 'stderr',
          _p: i === parts.length - 1 ? 'F' : 'P',
          log,
          kubernetes,
        }),
      );
    });
  }
  return lines(out);
}

// --- compression and dispatch ---

/** gzip, as one member or as `members` members split at line boundaries (concatenated, as `cat a.gz b.gz`). */
export function gzipMembers(data: string | Buffer, members = 1): Buffer {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (members <= 1) return gzipSync(buf);
  const cuts: number[] = [0];
  for (let m = 1; m < members; m++) {
    const nl = buf.indexOf(0x0a, Math.floor((buf.length * m) / members));
    if (nl < 0) break;
    if (nl + 1 > cuts[cuts.length - 1]) cuts.push(nl + 1);
  }
  cuts.push(buf.length);
  const out: Buffer[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) out.push(gzipSync(buf.subarray(cuts[i], cuts[i + 1])));
  return Buffer.concat(out);
}

export interface EncodeOptions {
  gzip?: boolean;
  perList?: number;
  cloudWatch?: CloudWatchPayloadOptions & { newline?: boolean };
}

/** `events` in `container`, as bytes (Firehose output is always gzip; `gzip` compresses the others). */
export function encodeAudit(
  container: AuditContainer,
  events: readonly AuditEvent[],
  opts: EncodeOptions = {},
): Buffer {
  let text: string;
  switch (container) {
    case 'audit-jsonl':
      text = auditJsonLines(events);
      break;
    case 'audit-eventlist':
      text = eventListLines(events, { perList: opts.perList });
      break;
    case 'audit-eventlist-pretty':
      text = eventListDocument(events);
      break;
    case 'eks-cloudwatch-export':
      text = eksExportLines(events);
      break;
    case 'eks-firehose-cwl':
      return firehoseObject(events, opts.cloudWatch);
    case 'fluent-bit':
      text = fluentBitAuditLines(events, { wrap: 'top' });
      break;
    case 'fluent-bit-log':
      text = fluentBitAuditLines(events, { wrap: 'log' });
      break;
    case 'aks-diagnostic':
      text = aksDiagnosticLines(events, { log: 'string' });
      break;
    case 'aks-diagnostic-object':
      text = aksDiagnosticLines(events, { log: 'object' });
      break;
    case 'gke-logentry':
      text = gkeLogEntryLines(events);
      break;
  }
  return opts.gzip ? gzipMembers(text) : Buffer.from(text, 'utf8');
}

/** Operator lines in `container`, as bytes. */
export function encodeOperator(
  container: OperatorContainer,
  ls: readonly OperatorLine[],
  opts: { gzip?: boolean; maxPart?: number } = {},
): Buffer {
  let text: string;
  switch (container) {
    case 'zap-json':
      text = zapLines(ls);
      break;
    case 'zap-json-epoch':
      text = zapLines(ls, { ts: 'epoch' });
      break;
    case 'cri':
      text = criOperatorLines(ls, { maxPart: opts.maxPart });
      break;
    case 'fluent-bit-operator':
      text = fluentBitOperatorLines(ls, { maxPart: opts.maxPart });
      break;
  }
  return opts.gzip ? gzipMembers(text) : Buffer.from(text, 'utf8');
}
