// The bucket layout of the deployment, as pure functions of names and times:
//
//   <logs>/<cluster>/...                               raw logs, as shipped
//   <facts>/cluster=<c>/hour=<yyyy-MM-dd-HH>/<d>.jsonl.gz   facts, one object per (source, hour)
//   <reports>/cluster=<c>/<run time>.json              one analysis report per run
//   <state>/cluster=<c>/alerts.json                    what has been alerted so far
//
// Facts keys are Hive-style so Athena partition projection reads them directly, and the
// object name <d> is a digest of the source key and its ETag: the same object delivered
// twice, or re-uploaded with the same bytes (same ETag), lands on the same facts key and
// overwrites it with identical content instead of adding a second copy.
import { createHash } from 'crypto';
import type { Fact } from '../model/facts';

export interface BucketLayout {
  logsPrefix: string;
  factsPrefix: string;
  reportsPrefix: string;
  statePrefix: string;
}

export function defaultLayout(): BucketLayout {
  return { logsPrefix: 'logs/', factsPrefix: 'facts/', reportsPrefix: 'reports/', statePrefix: 'state/' };
}

/** Normalises a prefix to '' or 'a/b/' so keys join without double or missing slashes. */
export function normalisePrefix(prefix: string): string {
  const p = prefix.replace(/^\/+/, '').replace(/\/+$/, '');
  return p === '' ? '' : p + '/';
}

/**
 * Cluster names become key segments; anything outside a conservative set is
 * percent-encoded so a name can neither add a path level nor break a partition value.
 */
export function clusterSegment(cluster: string): string {
  return cluster.replace(/[^A-Za-z0-9._-]/g, (c) =>
    Array.from(Buffer.from(c, 'utf8'))
      .map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0'))
      .join(''),
  );
}

/** Hour partition of an RFC 3339 time, in UTC; null when the time does not parse. */
export function hourOf(at: string): string | null {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 13).replace('T', '-');
}

/** Start of an hour partition as a Date. */
export function hourStart(hour: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})$/.exec(hour);
  if (!m) throw new Error(`not an hour partition: ${hour}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4])));
}

/** Every hour partition that overlaps [from, to], oldest first. */
export function hoursInWindow(from: Date, to: Date): string[] {
  const out: string[] = [];
  const start = Math.floor(from.getTime() / 3_600_000) * 3_600_000;
  for (let t = start; t <= to.getTime(); t += 3_600_000) {
    out.push(new Date(t).toISOString().slice(0, 13).replace('T', '-'));
  }
  return out;
}

/**
 * The Kubernetes cluster a log object belongs to: the first path segment under the logs
 * prefix (`logs/<cluster>/...`). Objects directly under the prefix, or outside it, belong
 * to the default cluster, so a single-cluster setup needs no layout convention at all.
 */
export function clusterOfLogKey(key: string, logsPrefix: string, defaultCluster: string): string {
  const p = normalisePrefix(logsPrefix);
  if (!key.startsWith(p)) return defaultCluster;
  const rest = key.slice(p.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return defaultCluster;
  return rest.slice(0, slash);
}

/** Digest naming the facts of one version of one source object. */
export function sourceDigest(sourceKey: string, etag: string): string {
  // ETags arrive quoted from GetObject/HeadObject and unquoted in S3 notifications.
  const tag = etag.replace(/^"|"$/g, '');
  return createHash('sha256').update(`${sourceKey}\n${tag}`).digest('hex').slice(0, 40);
}

export function clusterFactsPrefix(layout: BucketLayout, cluster: string): string {
  return `${normalisePrefix(layout.factsPrefix)}cluster=${clusterSegment(cluster)}/`;
}

export function hourFactsPrefix(layout: BucketLayout, cluster: string, hour: string): string {
  return `${clusterFactsPrefix(layout, cluster)}hour=${hour}/`;
}

export function factsKey(
  layout: BucketLayout,
  cluster: string,
  hour: string,
  sourceKey: string,
  etag: string,
): string {
  return `${hourFactsPrefix(layout, cluster, hour)}${sourceDigest(sourceKey, etag)}.jsonl.gz`;
}

/** Recognises a facts key and returns its partition values; null for anything else. */
export function parseFactsKey(
  layout: BucketLayout,
  key: string,
): { cluster: string; hour: string; digest: string } | null {
  const p = normalisePrefix(layout.factsPrefix);
  if (!key.startsWith(p)) return null;
  const m = /^cluster=([^/]+)\/hour=(\d{4}-\d{2}-\d{2}-\d{2})\/([0-9a-f]{40})\.jsonl\.gz$/.exec(
    key.slice(p.length),
  );
  if (!m || m[1] === undefined || m[2] === undefined || m[3] === undefined) return null;
  return { cluster: decodeURIComponent(m[1]), hour: m[2], digest: m[3] };
}

/** Cluster name from a `<facts>/cluster=<c>/` common prefix, as ListObjectsV2 returns it. */
export function clusterOfFactsPrefix(layout: BucketLayout, commonPrefix: string): string | null {
  const p = normalisePrefix(layout.factsPrefix);
  const m = /^cluster=([^/]+)\/$/.exec(commonPrefix.startsWith(p) ? commonPrefix.slice(p.length) : '');
  return m && m[1] !== undefined ? decodeURIComponent(m[1]) : null;
}

export function reportKey(layout: BucketLayout, cluster: string, runAt: Date): string {
  // Colons are legal in keys but awkward in shells and URLs; the run time is the name.
  const stamp = runAt.toISOString().replace(/:/g, '-');
  return `${normalisePrefix(layout.reportsPrefix)}cluster=${clusterSegment(cluster)}/${stamp}.json`;
}

export function alertStateKey(layout: BucketLayout, cluster: string): string {
  return `${normalisePrefix(layout.statePrefix)}cluster=${clusterSegment(cluster)}/alerts.json`;
}

/**
 * Splits facts into hour partitions (by `at`, UTC). Facts whose time does not parse are
 * returned apart: they cannot be placed in a window, so the caller counts and drops them.
 */
export function partitionFactsByHour(facts: readonly Fact[]): {
  byHour: Map<string, Fact[]>;
  untimed: Fact[];
} {
  const byHour = new Map<string, Fact[]>();
  const untimed: Fact[] = [];
  for (const f of facts) {
    const h = hourOf(f.at);
    if (h === null) {
      untimed.push(f);
      continue;
    }
    let list = byHour.get(h);
    if (!list) byHour.set(h, (list = []));
    list.push(f);
  }
  return { byHour, untimed };
}
