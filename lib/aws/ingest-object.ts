// Ingest of one S3 log object: read the version the notification named, stream it
// through the ingestion layer, project records to facts and write them to the facts
// prefix, one object per hour. The unit the ingest function processes per message.
import { GetObjectCommand, HeadObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'stream';
import { evidenceRules, findEvidence, type Evidence } from '../alerts/evidence';
import { projectRecord } from '../facts/project';
import { clusterOfLogGroup, clusterOfLogKey, isEksFleetKey, normalisePrefix } from './bucket-layout';
import { AuditDeduper, readObject, type IngestOptions } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { Fact } from '../model/facts';
import type { LogRecord } from '../model/record';
import type { SourceObject } from '../sources/types';
import type { IngestConfig } from './env-config';
import { writeFacts } from './facts-store';
import type { S3ObjectRef } from './s3-events';

export type IngestOutcome =
  | { status: 'ingested'; factsKeys: string[] }
  /** The object was overwritten since the notification: the newer version has its own. */
  | { status: 'superseded' }
  /**
   * Deleted since the notification (404: the role may s3:ListBucket, so S3 says so rather
   * than 403). A retry cannot bring it back: skipped and counted, not retried for hours.
   * A 403 is a real denial (a bucket or KMS key policy) and still fails, so the message
   * ends in the DLQ and can be redriven once the policy is fixed.
   */
  | { status: 'gone' }
  /** Not under the logs prefix (facts, reports and state live in the same bucket). */
  | { status: 'outside-logs-prefix' };

/** What one cluster's part of an object gave. */
export interface ClusterPart {
  cluster: string;
  facts: number;
  factsKeys: string[];
  /** What its facts hold that is worth an analysis at once. */
  evidence: Evidence;
}

export interface IngestObjectResult {
  source: string;
  /**
   * The cluster the key names (logs/<cluster>/...), or the fleet's folder (`_eks`) for an
   * object of the stack's shared EKS stream, whose records name their clusters: see `clusters`.
   */
  cluster: string;
  /** Each cluster the object held facts of, in the order first seen (one, unless a shared stream wrote it). */
  clusters: ClusterPart[];
  /** Audit records of a shared stream's object whose log group names no EKS cluster: not ingested. */
  unattributed: number;
  etag: string | null;
  outcome: IngestOutcome;
  records: number;
  facts: number;
  untimedFacts: number;
  stats: IngestStats;
  /** What the written facts hold that is worth an analysis at once (none unless ingested). */
  evidence: Evidence;
}

/** Thrown for failures worth a retry (the message goes back to the queue, then to the DLQ). */
export class RetryableIngestError extends Error {
  override name = 'RetryableIngestError';
}

function httpStatus(e: unknown): number | undefined {
  return e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined;
}

export async function ingestS3Object(
  s3: S3Client,
  config: IngestConfig,
  ref: S3ObjectRef,
  ingestOpts: IngestOptions = {},
): Promise<IngestObjectResult> {
  const source = `s3://${ref.bucket}/${ref.key}`;
  const cluster = clusterOfLogKey(ref.key, config.layout.logsPrefix, config.defaultCluster);
  const stats = createIngestStats();
  const none: Evidence = { counts: {}, newestMs: null };
  const base = {
    source,
    cluster,
    clusters: [] as ClusterPart[],
    unattributed: 0,
    records: 0,
    facts: 0,
    untimedFacts: 0,
    stats,
    evidence: none,
  };
  // Never read our own output: a notification misconfigured to the whole bucket would
  // otherwise turn every facts write into another ingest.
  const logsPrefix = normalisePrefix(config.layout.logsPrefix);
  if (!ref.key.startsWith(logsPrefix))
    return { ...base, etag: ref.etag, outcome: { status: 'outside-logs-prefix' } };

  let etag = ref.etag;
  let body: Readable;
  let size: number | undefined;
  try {
    if (etag === null) {
      // Backfilled or hand-written messages may lack the ETag; the object's current one names the facts.
      const head = await s3.send(new HeadObjectCommand({ Bucket: ref.bucket, Key: ref.key }));
      etag = (head.ETag ?? '').replace(/^"|"$/g, '') || null;
    }
    // If-Match: read exactly the version the notification announced; its facts key is made of that ETag.
    const res = await s3.send(
      new GetObjectCommand({ Bucket: ref.bucket, Key: ref.key, ...(etag ? { IfMatch: `"${etag}"` } : {}) }),
    );
    body = res.Body as Readable;
    size = res.ContentLength;
    etag ??= (res.ETag ?? '').replace(/^"|"$/g, '') || null;
  } catch (e) {
    const status = httpStatus(e);
    if (status === 412) return { ...base, etag, outcome: { status: 'superseded' } };
    if (status === 404 || (e instanceof S3ServiceException && e.name === 'NoSuchKey'))
      return { ...base, etag, outcome: { status: 'gone' } };
    throw e;
  }
  if (etag === null) throw new RetryableIngestError(`no ETag for ${source}`);

  const obj: SourceObject = { name: source, ...(size !== undefined ? { size } : {}), open: async () => body };
  // An object of the shared EKS stream holds many clusters' payloads: each record's log group
  // names its cluster (/aws/eks/<cluster>/cluster for audit events; Container Insights' or a
  // named group for operator lines, eksOperatorLogs). Any other object is the key's cluster.
  const fleet = isEksFleetKey(ref.key, config.layout.logsPrefix);
  const factsOf = new Map<string, Fact[]>();
  let unattributed = 0;
  let records = 0;
  // Within the object, de-duplicate as the local pipeline does across its inputs; across
  // objects, mergeFacts does the same when the analysis reads the facts back.
  const dedupe = new AuditDeduper(stats);
  const take = (rec: LogRecord): void => {
    let c = cluster;
    if (fleet) {
      const named =
        rec.logGroup !== undefined ? clusterOfLogGroup(rec.logGroup, config.operatorLogGroups) : null;
      if (named === null) {
        unattributed++;
        return;
      }
      c = named;
    }
    records++;
    const f = projectRecord(rec);
    if (!f) return;
    let list = factsOf.get(c);
    if (!list) factsOf.set(c, (list = []));
    list.push(f);
  };
  for await (const rec of readObject(obj, stats, {
    ...(config.maxLineBytes ? { maxLineBytes: config.maxLineBytes } : {}),
    ...ingestOpts,
  })) {
    const out = dedupe.push(rec);
    if (out) take(out);
  }
  for (const rec of dedupe.flush()) take(rec);
  // The reader counts I/O failures instead of throwing (right for a CLI run over many
  // files); here a failed read is worth another try before any facts are written.
  const ioFailure = stats.details.find(
    (d) => d.source === source && (d.reason === 'read-error' || d.reason === 'open-error'),
  );
  if (ioFailure)
    throw new RetryableIngestError(`${ioFailure.reason} reading ${source}: ${ioFailure.note ?? ''}`);

  // Every cluster the object's end of data is known for gets its facts objects, even with
  // no fact kept: the analysis learns how far each cluster's logs reach (writeFacts).
  const newestOf = new Map<string, string | null>();
  if (fleet) {
    for (const [group, t] of Object.entries(stats.newestByLogGroup ?? {})) {
      const c = clusterOfLogGroup(group, config.operatorLogGroups);
      if (c !== null) newestOf.set(c, t);
    }
    for (const c of factsOf.keys()) if (!newestOf.has(c)) newestOf.set(c, null);
  } else newestOf.set(cluster, stats.newestEventAt);
  const rules = evidenceRules({ operatorUsers: config.trigger?.operatorUsers ?? [] });
  const parts: ClusterPart[] = [];
  const keys: string[] = [];
  let factsWritten = 0;
  let untimed = 0;
  for (const [c, newest] of newestOf) {
    const facts = factsOf.get(c) ?? [];
    const written = await writeFacts(
      s3,
      config.factsBucket,
      config.layout,
      { cluster: c, bucket: ref.bucket, key: ref.key, etag },
      facts,
      newest,
    );
    const evidence = findEvidence(facts, rules);
    parts.push({ cluster: c, facts: written.facts, factsKeys: written.keys, evidence });
    keys.push(...written.keys);
    factsWritten += written.facts;
    untimed += written.untimed;
  }
  return {
    ...base,
    etag,
    clusters: parts,
    unattributed,
    outcome: { status: 'ingested', factsKeys: keys },
    records,
    facts: factsWritten,
    untimedFacts: untimed,
    evidence: fleet ? none : parts[0]!.evidence,
  };
}

/**
 * Records not turned into facts, by reason, for the RecordsSkipped metric: the reader's
 * skip reasons plus the records it read but did not emit.
 */
export function skippedByReason(stats: IngestStats): Record<string, number> {
  const out: Record<string, number> = {};
  const add = (k: string, n: number | undefined): void => {
    if (n) out[k] = (out[k] ?? 0) + n;
  };
  for (const [k, n] of Object.entries(stats.skipped)) add(k, n);
  add('irrelevant', stats.audit.irrelevant);
  add('excluded', stats.audit.excluded + stats.operator.excluded);
  add('duplicate', stats.dedupe.duplicates);
  add('control-message', stats.controlMessages);
  add('foreign-file', stats.files.foreign);
  add('file-error', stats.files.errors);
  return out;
}
