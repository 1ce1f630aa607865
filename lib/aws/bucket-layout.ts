// The key layout of the deployment's bucket, the one place that builds and parses its keys:
//
//   <logs>/<cluster>/...                                      raw logs, as shipped
//   <logs>/<cluster>/audit/firehose/...                       an EKS cluster's audit log, by a stream of its own
//                                                             (set up by hand, or by earlier versions of the stack)
//   <logs>/_eks/...                                           the stack's EKS fleet, by ONE shared stream:
//                                                             each record's log group names its cluster
//   firehose-errors/<cluster>/...                             what such a stream could not deliver
//   firehose-errors/_eks/...                                  ...for the shared stream
//   <facts>/cluster=<c>/hour=<yyyy-MM-dd-HH>/<d>.jsonl.gz     facts, one object per (source, hour)
//   <reports>/cluster=<c>/<run time>.json (and .html)         one analysis report per run
//   <state>/cluster=<c>/alerts.json                           what has been alerted so far
//   <state>/cluster=<c>/findings-history.json                 the hours the history holds
//   <state>/cluster=<c>/facts-window.pack                     the facts objects the last run read
//   <findings>/cluster=<c>/dt=<yyyy-MM-dd>/<yyyy-MM-dd-HH>.jsonl   the Athena findings history
//
// Here, beside the stores that read and write these keys, rather than under lib/facts/: it
// is the deployment's bucket (the CLI reads local files and never these keys), and the
// roles of infra/iam.yml grant exactly these prefixes (test/deploy/aws-rules.test.ts
// checks each key built here against them). Which hour a fact falls in, and which hours a
// window spans, is facts' own partitioning (lib/facts/partition.ts); a key only embeds it.
//
// Facts keys are Hive-style so Athena partition projection reads them directly, and the
// object name <d> is a digest of the source key and its ETag: the same object delivered
// twice, or re-uploaded with the same bytes (same ETag), lands on the same facts key and
// overwrites it with identical content instead of adding a second copy.
import { createHash } from 'crypto';

export interface BucketLayout {
  logsPrefix: string;
  factsPrefix: string;
  reportsPrefix: string;
  statePrefix: string;
  findingsPrefix: string;
}

export function defaultLayout(): BucketLayout {
  return {
    logsPrefix: 'logs/',
    factsPrefix: 'facts/',
    reportsPrefix: 'reports/',
    statePrefix: 'state/',
    findingsPrefix: 'findings/',
  };
}

/**
 * Where Firehose puts what it could not deliver: outside the logs prefix, so the ingest
 * never reads it (the stack's notification filter is the logs prefix).
 */
export const FIREHOSE_ERRORS_PREFIX = 'firehose-errors/';

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

/**
 * Where a cluster's logs go: the folder clusterOfLogKey reads the cluster from. The name is
 * taken as it is (shippers write it so); EKS names are letters, digits, - and _ anyway.
 */
export function clusterLogsPrefix(layout: Pick<BucketLayout, 'logsPrefix'>, cluster: string): string {
  return `${normalisePrefix(layout.logsPrefix)}${cluster}/`;
}

/**
 * The folder under the logs prefix where the stack's one delivery stream writes every listed
 * EKS cluster's audit log (eksClusters). No EKS cluster can be named so (EKS names start with
 * a letter or digit), so it never meets a cluster's own folder.
 */
export const EKS_FLEET_SEGMENT = '_eks';

/** Where the stack's shared EKS delivery stream writes (Firehose appends YYYY/MM/DD/HH/). */
export function eksFleetDeliveryPrefix(layout: Pick<BucketLayout, 'logsPrefix'>): string {
  return clusterLogsPrefix(layout, EKS_FLEET_SEGMENT);
}

/** Where the shared EKS delivery stream writes what it could not process. */
export function eksFleetErrorsPrefix(): string {
  return `${FIREHOSE_ERRORS_PREFIX}${EKS_FLEET_SEGMENT}/`;
}

/** EKS's control-plane log group of a cluster, `/aws/eks/<cluster>/cluster`. */
const EKS_LOG_GROUP = /^\/aws\/eks\/([0-9A-Za-z][A-Za-z0-9_-]{0,99})\/cluster$/;

/** The EKS cluster whose control-plane log group this is, or null for any other log group. */
export function clusterOfEksLogGroup(logGroup: string): string | null {
  return EKS_LOG_GROUP.exec(logGroup)?.[1] ?? null;
}

/** Container Insights' application log group, `/aws/containerinsights/<cluster>/application`. */
const CONTAINER_INSIGHTS_GROUP = /^\/aws\/containerinsights\/([0-9A-Za-z][A-Za-z0-9_-]{0,99})\/application$/;

/**
 * The cluster a record of the shared EKS stream belongs to, by its log group: an audit log
 * group, a Container Insights application group (eksOperatorLogs), or a group the stack was
 * told of (`named`, group to cluster); null for any other.
 */
export function clusterOfLogGroup(logGroup: string, named: ReadonlyMap<string, string>): string | null {
  return (
    clusterOfEksLogGroup(logGroup) ??
    named.get(logGroup) ??
    CONTAINER_INSIGHTS_GROUP.exec(logGroup)?.[1] ??
    null
  );
}

/** True for a key the shared EKS stream wrote: its records name their clusters, the key does not. */
export function isEksFleetKey(key: string, logsPrefix: string): boolean {
  return key.startsWith(eksFleetDeliveryPrefix({ logsPrefix: normalisePrefix(logsPrefix) }));
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

export function clusterFactsPrefix(layout: Pick<BucketLayout, 'factsPrefix'>, cluster: string): string {
  return `${normalisePrefix(layout.factsPrefix)}cluster=${clusterSegment(cluster)}/`;
}

export function hourFactsPrefix(
  layout: Pick<BucketLayout, 'factsPrefix'>,
  cluster: string,
  hour: string,
): string {
  return `${clusterFactsPrefix(layout, cluster)}hour=${hour}/`;
}

export function factsKey(
  layout: Pick<BucketLayout, 'factsPrefix'>,
  cluster: string,
  hour: string,
  sourceKey: string,
  etag: string,
): string {
  return `${hourFactsPrefix(layout, cluster, hour)}${sourceDigest(sourceKey, etag)}.jsonl.gz`;
}

/** Recognises a facts key and returns its partition values; null for anything else. */
export function parseFactsKey(
  layout: Pick<BucketLayout, 'factsPrefix'>,
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
export function clusterOfFactsPrefix(
  layout: Pick<BucketLayout, 'factsPrefix'>,
  commonPrefix: string,
): string | null {
  const p = normalisePrefix(layout.factsPrefix);
  const m = /^cluster=([^/]+)\/$/.exec(commonPrefix.startsWith(p) ? commonPrefix.slice(p.length) : '');
  return m && m[1] !== undefined ? decodeURIComponent(m[1]) : null;
}

export function reportKey(layout: Pick<BucketLayout, 'reportsPrefix'>, cluster: string, runAt: Date): string {
  // Colons are legal in keys but awkward in shells and URLs; the run time is the name.
  const stamp = runAt.toISOString().replace(/:/g, '-');
  return `${normalisePrefix(layout.reportsPrefix)}cluster=${clusterSegment(cluster)}/${stamp}.json`;
}

/** The HTML rendering of a report, beside its JSON. */
export function reportHtmlKey(reportJsonKey: string): string {
  return reportJsonKey.replace(/\.json$/, '') + '.html';
}

export function alertStateKey(layout: Pick<BucketLayout, 'statePrefix'>, cluster: string): string {
  return `${normalisePrefix(layout.statePrefix)}cluster=${clusterSegment(cluster)}/alerts.json`;
}

/** Which hours of a cluster the findings history holds, kept beside its alert state. */
export function findingsHistoryStateKey(layout: Pick<BucketLayout, 'statePrefix'>, cluster: string): string {
  return `${normalisePrefix(layout.statePrefix)}cluster=${clusterSegment(cluster)}/findings-history.json`;
}

/** The facts objects a cluster's last analysis run read (lib/aws/facts-snapshot.ts), beside its alert state. */
export function factsSnapshotKey(layout: Pick<BucketLayout, 'statePrefix'>, cluster: string): string {
  return `${normalisePrefix(layout.statePrefix)}cluster=${clusterSegment(cluster)}/facts-window.pack`;
}

/** One settled hour of a cluster's findings history (infra/athena.yml projects `cluster=` and `dt=`). */
export function findingsHistoryKey(
  layout: Pick<BucketLayout, 'findingsPrefix'>,
  cluster: string,
  hour: string,
): string {
  return `${normalisePrefix(layout.findingsPrefix)}cluster=${clusterSegment(cluster)}/dt=${hour.slice(0, 10)}/${hour}.jsonl`;
}

/**
 * Why a layout would not work, one reason a prefix; none for a good one. The stack's
 * templates use the prefixes as given (IAM resources `<prefix>*`, the bucket's notification
 * and lifecycle filters) and the functions normalise them, so only the normal form makes
 * the two agree; an empty prefix reads as the default in the functions and as the whole
 * bucket in the templates; and a prefix inside another would have the ingest read facts,
 * reports or Firehose's errors as logs, or expire one kind of data with another's rule.
 */
export function layoutProblems(layout: BucketLayout): string[] {
  const named: [string, string][] = [
    ...Object.entries(layout),
    ['the Firehose errors prefix', FIREHOSE_ERRORS_PREFIX],
  ];
  const out: string[] = [];
  for (const [name, p] of named) {
    if (p === '')
      out.push(
        `${name} is empty: give a folder such as ${JSON.stringify(name.replace(/Prefix$/, '') + '/')}`,
      );
    else if (normalisePrefix(p) !== p)
      out.push(`${name} ${JSON.stringify(p)} must be written ${JSON.stringify(normalisePrefix(p))}`);
  }
  named.forEach(([a, pa], i) =>
    named.forEach(([b, pb], j) => {
      const [na, nb] = [normalisePrefix(pa), normalisePrefix(pb)];
      if (i === j || na === '' || nb === '' || !nb.startsWith(na) || (na === nb && j < i)) return;
      out.push(
        na === nb
          ? `${b} and ${a} are both ${JSON.stringify(nb)}: give each its own folder`
          : `${b} ${JSON.stringify(pb)} lies inside ${a} ${JSON.stringify(pa)}: give each its own folder`,
      );
    }),
  );
  return out;
}
