// Facts objects in S3: written by the ingest function, read back by the analysis.
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { promisify } from 'util';
import { gunzip, gzip } from 'zlib';
import { decodeFacts, encodeFacts } from '../facts/codec';
import { FactsMerger } from '../facts/merge';
import type { FactStore } from '../facts/store';
import { hourOf, hoursInWindow, partitionFactsByHour } from '../facts/partition';
import type { Fact } from '../model/facts';
import {
  clusterFactsPrefix,
  clusterOfFactsPrefix,
  factsKey,
  hourFactsPrefix,
  normalisePrefix,
  parseFactsKey,
  type BucketLayout,
} from './bucket-layout';
import type { DispatchConfig } from './env-config';
import { laterTime } from '../analyze/newest-event';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export interface WrittenFacts {
  keys: string[];
  facts: number;
  /** Facts whose time does not parse: no hour partition can hold them. */
  untimed: number;
  bytes: number;
}

/**
 * Writes the facts of one source object, one object per hour partition. The keys are a
 * function of the source key and ETag only, so a redelivery rewrites the same objects
 * with the same bytes (gzip without a timestamp: Node's zlib writes mtime 0).
 */
export async function writeFacts(
  s3: S3Client,
  bucket: string,
  layout: BucketLayout,
  source: { cluster: string; bucket: string; key: string; etag: string },
  facts: readonly Fact[],
  newestEventAt: string | null = null,
): Promise<WrittenFacts> {
  const { byHour, untimed } = partitionFactsByHour(facts);
  // The newest event read must reach the analysis even when nothing of its hour was kept
  // (a tail of unrelated traffic): its hour gets an object, empty if need be.
  const newestHour = newestEventAt ? hourOf(newestEventAt) : null;
  if (newestHour && !byHour.has(newestHour)) byHour.set(newestHour, []);
  const out: WrittenFacts = { keys: [], facts: 0, untimed: untimed.length, bytes: 0 };
  for (const [hour, list] of [...byHour.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const key = factsKey(layout, source.cluster, hour, source.key, source.etag);
    const text = encodeFacts(
      {
        source: `s3://${source.bucket}/${source.key}`,
        etag: source.etag,
        cluster: source.cluster,
        hour,
        newestEventAt,
      },
      list,
    );
    const body = await gzipAsync(Buffer.from(text, 'utf8'));
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/x-ndjson' }),
    );
    out.keys.push(key);
    out.facts += list.length;
    out.bytes += body.length;
  }
  return out;
}

async function listAll(
  s3: S3Client,
  bucket: string,
  prefix: string,
  delimiter?: string,
): Promise<{ keys: string[]; etags: (string | null)[]; prefixes: string[] }> {
  const keys: string[] = [];
  const etags: (string | null)[] = [];
  const prefixes: string[] = [];
  let token: string | undefined;
  do {
    const res = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        Delimiter: delimiter,
        ContinuationToken: token,
      }),
    );
    for (const o of res.Contents ?? []) {
      if (!o.Key) continue;
      keys.push(o.Key);
      etags.push(o.ETag ?? null);
    }
    for (const p of res.CommonPrefixes ?? []) if (p.Prefix) prefixes.push(p.Prefix);
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return { keys, etags, prefixes };
}

/** Clusters that have facts, from the `cluster=` level of the facts prefix. */
export async function listFactsClusters(
  s3: S3Client,
  bucket: string,
  layout: BucketLayout,
): Promise<string[]> {
  const { prefixes } = await listAll(s3, bucket, normalisePrefix(layout.factsPrefix), '/');
  return prefixes
    .map((p) => clusterOfFactsPrefix(layout, p))
    .filter((c): c is string => c !== null)
    .sort();
}

/**
 * The clusters one schedule analyses: the configured list, else every cluster with facts.
 * Here, beside the listing, rather than with the analysis run: the dispatch function's
 * bundle then holds none of the analysis.
 */
export async function clustersToAnalyze(
  s3: S3Client,
  config: Pick<DispatchConfig, 'bucket' | 'layout' | 'clusters'>,
): Promise<string[]> {
  return config.clusters.length > 0
    ? [...config.clusters]
    : await listFactsClusters(s3, config.bucket, config.layout);
}

/** Hour partitions holding facts of a cluster, oldest first. */
export async function listFactsHours(
  s3: S3Client,
  bucket: string,
  layout: BucketLayout,
  cluster: string,
): Promise<string[]> {
  const { keys } = await listAll(s3, bucket, clusterFactsPrefix(layout, cluster));
  const hours = new Set<string>();
  for (const k of keys) {
    const parsed = parseFactsKey(layout, k);
    if (parsed && parsed.cluster === cluster) hours.add(parsed.hour);
  }
  return [...hours].sort();
}

/** One facts object as stored: its key, the ETag of the bytes held, and those bytes (gzip). */
export interface StoredFactsObject {
  key: string;
  etag: string | null;
  body: Buffer;
}

export interface FactsWindow {
  /** The window's facts, without duplicates, in the order the objects were listed. */
  facts: FactStore;
  /** Facts objects in the window's hour partitions. */
  objects: number;
  /** Their bytes (gzip), wherever they were read from. */
  bytes: number;
  /** Of those, the objects fetched from the facts prefix (the others came from `known`). */
  fetched: number;
  fetchedBytes: number;
  /**
   * Every object of the window as read, in key order (what a window snapshot holds), when
   * asked for and within `keepBytes`; null otherwise.
   */
  read: StoredFactsObject[] | null;
  /** The newest event read (the objects' headers) within the window, kept or not; null if unknown. */
  newestEventAt: string | null;
}

/** The bare ETag, as ListObjectsV2 and GetObject both quote it and notifications do not. */
function bareEtag(etag: string | null | undefined): string | null {
  return etag ? etag.replace(/^"|"$/g, '') : null;
}

/**
 * Reads every facts object of the hour partitions overlapping [from, to], keeps the
 * facts inside it, and merges them without duplicates (lib/facts/merge.ts). Objects are fetched a few at a
 * time: a window is tens to hundreds of small objects. An object found in `known` (a window
 * snapshot, lib/aws/facts-snapshot.ts) with the ETag the listing gives is taken from there
 * instead of fetched: same bytes, so the same facts merged in the same order.
 */
export async function readFactsWindow(
  s3: S3Client,
  bucket: string,
  layout: BucketLayout,
  cluster: string,
  from: Date,
  to: Date,
  concurrency = 8,
  known: ReadonlyMap<string, StoredFactsObject> = new Map(),
  keepBytes = 0,
): Promise<FactsWindow> {
  const listed: { key: string; etag: string | null }[] = [];
  for (const hour of hoursInWindow(from, to)) {
    const { keys, etags } = await listAll(s3, bucket, hourFactsPrefix(layout, cluster, hour));
    keys.forEach((key, i) => {
      if (key.endsWith('.jsonl.gz')) listed.push({ key, etag: bareEtag(etags[i]) });
    });
  }
  listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // Objects are fetched in parallel but merged in key order ("first seen" must not depend
  // on which download finished first), each as soon as those before it are in.
  const merger = new FactsMerger();
  const ready = new Map<number, Fact[]>();
  // The objects' bytes are held only up to `keepBytes`: a looping fleet's window can be far
  // more than the run can hold beside its facts.
  let read: StoredFactsObject[] | null = keepBytes > 0 ? new Array<StoredFactsObject>(listed.length) : null;
  let merged = 0;
  let bytes = 0;
  let fetched = 0;
  let fetchedBytes = 0;
  let next = 0;
  let newestEventAt: string | null = null;
  const fromMs = from.getTime();
  const toMs = to.getTime();
  const fetch = async (key: string, etag: string | null): Promise<StoredFactsObject> => {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = Buffer.from((await res.Body?.transformToByteArray()) ?? new Uint8Array());
    fetched++;
    fetchedBytes += body.length;
    // The ETag of the bytes fetched: the object may have been rewritten since the listing.
    return { key, etag: bareEtag(res.ETag) ?? etag, body };
  };
  const decode = async (object: StoredFactsObject) =>
    decodeFacts((await gunzipAsync(object.body)).toString('utf8'));
  const load = async ({ key, etag }: { key: string; etag: string | null }) => {
    const held = known.get(key);
    if (held && etag !== null && held.etag === etag) {
      // A snapshot's copy that does not decode is fetched again rather than failing the run.
      const decoded = await decode(held).catch(() => null);
      if (decoded) return { object: held, decoded };
    }
    const object = await fetch(key, etag);
    return { object, decoded: await decode(object) };
  };
  const worker = async (): Promise<void> => {
    for (let i = next++; i < listed.length; i = next++) {
      const {
        object,
        decoded: { header, facts },
      } = await load(listed[i]!);
      bytes += object.body.length;
      if (bytes > keepBytes) read = null;
      if (read) read[i] = object;
      const newest = header.newestEventAt ? Date.parse(header.newestEventAt) : NaN;
      if (newest >= fromMs && newest <= toMs) newestEventAt = laterTime(newestEventAt, header.newestEventAt);
      ready.set(
        i,
        facts.filter((f) => {
          const t = Date.parse(f.at);
          return t >= fromMs && t <= toMs;
        }),
      );
      for (let list = ready.get(merged); list; list = ready.get(merged)) {
        ready.delete(merged++);
        merger.add(list);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, listed.length) }, worker));
  return {
    facts: merger.finish(),
    objects: listed.length,
    bytes,
    fetched,
    fetchedBytes,
    read,
    newestEventAt,
  };
}
