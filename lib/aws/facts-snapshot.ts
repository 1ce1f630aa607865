// A cluster's window snapshot: the facts objects the last analysis run read, kept as one
// object in the state prefix so the next run reads that one object plus only the facts
// objects it does not hold, instead of every object of its six-hour window again.
//
// It holds the objects themselves (their gzip bytes as fetched, with key and ETag), not the
// facts merged from them. So a run reading through it merges exactly the bytes a full read
// would fetch, in the same key order, whatever arrived late, out of order or twice: the
// result cannot differ from the full read's, and no merge rule needs to be re-proved. An
// object is taken from the snapshot only when the run's listing shows it with the ETag the
// snapshot holds; any other key, whatever its hour (a late object of an old hour included),
// is fetched; a key no longer listed, or of an hour before the run's read start, is left
// out. Writing it again costs no compression: the members are copied as they are.
//
//   line 1     {"format":"koperator-audit/facts-window","version":1,"cluster":...,
//               "objects":[[key, etag, bytes], ...]}
//   the rest   the members' bytes, one after another, in that order
//
// A missing, damaged or foreign snapshot (another format, version or cluster) is not an
// error: the run reads the window in full, says why, and writes a good one.
import { GetObjectCommand, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { factsSnapshotKey, type BucketLayout } from './bucket-layout';
import { readFactsWindow, type FactsWindow, type StoredFactsObject } from './facts-store';
import { explainDeniedRead, isMissingKey } from './s3-missing-key';

export const SNAPSHOT_FORMAT = 'koperator-audit/facts-window';
export const SNAPSHOT_VERSION = 1;
/**
 * The largest snapshot a run keeps. Its bytes are held beside the window's facts, so a window
 * larger than this (a looping fleet's can be hundreds of MB of facts objects) is read in full
 * as before, without holding them, and said.
 */
export const SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;

export class SnapshotFormatError extends Error {
  override name = 'SnapshotFormatError';
}

interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  cluster: string;
  objects: [string, string | null, number][];
}

export function encodeSnapshot(cluster: string, objects: readonly StoredFactsObject[]): Buffer {
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    cluster,
    objects: objects.map((o) => [o.key, o.etag, o.body.length]),
  };
  return Buffer.concat([Buffer.from(JSON.stringify(header) + '\n', 'utf8'), ...objects.map((o) => o.body)]);
}

/** The snapshot's objects by key (views into `data`); throws SnapshotFormatError on anything else. */
export function decodeSnapshot(data: Buffer, cluster: string): Map<string, StoredFactsObject> {
  const eol = data.indexOf(0x0a);
  if (eol < 0) throw new SnapshotFormatError('no header line');
  let header: unknown;
  try {
    header = JSON.parse(data.toString('utf8', 0, eol));
  } catch {
    throw new SnapshotFormatError('the header line is not JSON');
  }
  const h = header as Partial<SnapshotHeader> | null;
  if (!h || typeof h !== 'object' || h.format !== SNAPSHOT_FORMAT)
    throw new SnapshotFormatError('the header does not name the facts-window format');
  if (h.version !== SNAPSHOT_VERSION)
    throw new SnapshotFormatError(`version ${String(h.version)}; this reader knows ${SNAPSHOT_VERSION}`);
  if (h.cluster !== cluster) throw new SnapshotFormatError(`it is cluster ${JSON.stringify(h.cluster)}'s`);
  if (!Array.isArray(h.objects)) throw new SnapshotFormatError('the header lists no objects');
  const out = new Map<string, StoredFactsObject>();
  let at = eol + 1;
  for (const entry of h.objects as unknown[]) {
    const [key, etag, bytes] = Array.isArray(entry) ? (entry as unknown[]) : [];
    if (
      typeof key !== 'string' ||
      (etag !== null && typeof etag !== 'string') ||
      !Number.isSafeInteger(bytes) ||
      (bytes as number) < 0
    )
      throw new SnapshotFormatError('an object entry is not [key, etag, bytes]');
    const end = at + (bytes as number);
    if (end > data.length) throw new SnapshotFormatError('shorter than its objects');
    out.set(key, { key, etag, body: data.subarray(at, end) });
    at = end;
  }
  if (at !== data.length) throw new SnapshotFormatError('longer than its objects');
  return out;
}

/** What a run did with its cluster's snapshot: the run's log and summary say it. */
export interface SnapshotUse {
  /** `used`: the run read through it; otherwise why it read the window in full. */
  found: 'used' | 'absent' | 'unreadable';
  /** Why it was unreadable (damaged, another format, version or cluster). */
  problem?: string;
  /** Its bytes, read with one GET (0 when absent). */
  bytes: number;
  /** Facts objects taken from it instead of fetched. */
  objects: number;
  /**
   * `written`; `unchanged` when the run read nothing it did not hold; `conflict` when another
   * run wrote it since it was read; `too-large`: the window's facts objects are more than
   * SNAPSHOT_MAX_BYTES; `failed` (with `error`): the next run reads again what it lacks.
   */
  saved: 'written' | 'unchanged' | 'conflict' | 'too-large' | 'failed';
  error?: string;
}

/** What a run's log says about its snapshot: nothing when it read through it and saved it. */
export function snapshotNotices(use: SnapshotUse): { level: 'info' | 'warn'; message: string }[] {
  const out: { level: 'info' | 'warn'; message: string }[] = [];
  if (use.found === 'absent')
    out.push({ level: 'info', message: 'no facts window snapshot yet: the window was read in full' });
  if (use.found === 'unreadable')
    out.push({ level: 'warn', message: 'facts window snapshot unreadable: the window was read in full' });
  if (use.saved === 'conflict')
    out.push({
      level: 'warn',
      message: 'facts window snapshot replaced by another run first: this one was not saved',
    });
  if (use.saved === 'too-large')
    out.push({
      level: 'info',
      message: `facts window larger than ${SNAPSHOT_MAX_BYTES / 1024 ** 2} MiB: no snapshot kept, the next run reads it in full`,
    });
  if (use.saved === 'failed')
    out.push({
      level: 'warn',
      message: 'facts window snapshot not saved: the next run reads what it held again',
    });
  return out;
}

function status(e: unknown): number | undefined {
  return e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined;
}

async function loadSnapshot(
  s3: S3Client,
  bucket: string,
  key: string,
  cluster: string,
): Promise<{
  objects: Map<string, StoredFactsObject>;
  etag: string | null;
  bytes: number;
  problem?: string;
}> {
  let data: Buffer;
  let etag: string | null;
  try {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    data = Buffer.from((await res.Body?.transformToByteArray()) ?? new Uint8Array());
    etag = res.ETag ?? null;
  } catch (e) {
    if (isMissingKey(e)) return { objects: new Map(), etag: null, bytes: 0 };
    throw explainDeniedRead(e, bucket, key);
  }
  try {
    return { objects: decodeSnapshot(data, cluster), etag, bytes: data.length };
  } catch (e) {
    if (!(e instanceof SnapshotFormatError)) throw e;
    return { objects: new Map(), etag, bytes: data.length, problem: e.message };
  }
}

function sameObjects(a: ReadonlyMap<string, StoredFactsObject>, b: readonly StoredFactsObject[]): boolean {
  return a.size === b.length && b.every((o) => a.get(o.key)?.etag === o.etag && o.etag !== null);
}

/**
 * readFactsWindow through the cluster's snapshot, then the snapshot of this read written
 * back conditionally on the ETag read (If-None-Match when there was none), so of two runs
 * racing only one replaces it. Its facts are those of readFactsWindow without the snapshot.
 */
export async function readFactsThroughSnapshot(
  s3: S3Client,
  bucket: string,
  layout: BucketLayout,
  cluster: string,
  from: Date,
  to: Date,
  maxBytes = SNAPSHOT_MAX_BYTES,
): Promise<FactsWindow & { snapshot: SnapshotUse }> {
  const key = factsSnapshotKey(layout, cluster);
  const held = await loadSnapshot(s3, bucket, key, cluster);
  const read = await readFactsWindow(
    s3,
    bucket,
    layout,
    cluster,
    from,
    to,
    undefined,
    held.objects,
    maxBytes,
  );
  const found: SnapshotUse['found'] =
    held.problem !== undefined ? 'unreadable' : held.etag === null ? 'absent' : 'used';
  const use: SnapshotUse = {
    found,
    ...(held.problem !== undefined ? { problem: held.problem } : {}),
    bytes: held.bytes,
    objects: read.objects - read.fetched,
    saved: 'unchanged',
  };
  if (read.read === null) return { ...read, snapshot: { ...use, saved: 'too-large' } };
  // Nothing fetched (a member that did not decode is fetched again) and nothing left out.
  if (found === 'used' && read.fetched === 0 && sameObjects(held.objects, read.read))
    return { ...read, snapshot: use };
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: encodeSnapshot(cluster, read.read),
        ContentType: 'application/octet-stream',
        ...(held.etag === null ? { IfNoneMatch: '*' } : { IfMatch: held.etag }),
      }),
    );
    use.saved = 'written';
  } catch (e) {
    // 412: another run wrote it since; 409: a concurrent conditional write is in flight.
    if (status(e) === 412 || status(e) === 409) use.saved = 'conflict';
    else {
      use.saved = 'failed';
      use.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
  }
  return { ...read, snapshot: use };
}
