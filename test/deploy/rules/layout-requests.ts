// Every key the bucket layout (lib/aws/bucket-layout.ts) builds, as the IAM requests of
// the functions that read, write or list it, with the prefixes the template hands each
// function. The emulated run records only the keys one scenario reaches (no HTML report,
// a findings hour only once settled); these are all of them, so a role policy that
// misses a kind of key fails even when the run never wrote one.
import * as layout from '../../../lib/aws/bucket-layout';
import type { BucketLayout } from '../../../lib/aws/bucket-layout';
import { layoutFromEnv } from '../../../lib/aws/env-config';
import type { IamRequest } from './iam-requests';

type Export = keyof typeof layout;

interface KeyUse {
  /** The layout's export that builds this key or prefix. */
  builder: Export;
  /** A key it builds (for `s3:ListBucket`, the prefix listed). */
  key: (l: BucketLayout) => string;
  /** Which function does what with it: an object action, or s3:ListBucket with the key as s3:prefix. */
  uses: [fn: string, action: string][];
}

const CLUSTER = 'eks-prod';
const HOUR = '2026-11-02-10';
const RUN = new Date('2026-11-02T11:30:00Z');

export const KEY_USES: readonly KeyUse[] = [
  {
    builder: 'clusterLogsPrefix',
    key: (l) => `${layout.clusterLogsPrefix(l, CLUSTER)}audit/2026/11/02/audit-1.jsonl.gz`,
    uses: [['ingest', 's3:GetObject']],
  },
  {
    builder: 'eksFleetDeliveryPrefix',
    key: (l) =>
      `${layout.eksFleetDeliveryPrefix(l)}2026/11/02/10/koperator-audit-test-eks-1-2026-11-02-10-00-00-abc`,
    uses: [['ingest', 's3:GetObject']],
  },
  {
    builder: 'factsKey',
    key: (l) => layout.factsKey(l, CLUSTER, HOUR, 'logs/eks-prod/a.gz', 'etag'),
    uses: [
      ['ingest', 's3:PutObject'],
      ['analyze', 's3:GetObject'],
    ],
  },
  {
    builder: 'clusterFactsPrefix',
    key: (l) => layout.clusterFactsPrefix(l, CLUSTER),
    uses: [['analyze', 's3:ListBucket']],
  },
  {
    builder: 'hourFactsPrefix',
    key: (l) => layout.hourFactsPrefix(l, CLUSTER, HOUR),
    uses: [['analyze', 's3:ListBucket']],
  },
  {
    builder: 'reportKey',
    key: (l) => layout.reportKey(l, CLUSTER, RUN),
    // GetObject: the report link is pre-signed with the analysis' role.
    uses: [
      ['analyze', 's3:PutObject'],
      ['analyze', 's3:GetObject'],
    ],
  },
  {
    builder: 'reportHtmlKey',
    key: (l) => layout.reportHtmlKey(layout.reportKey(l, CLUSTER, RUN)),
    uses: [
      ['analyze', 's3:PutObject'],
      ['analyze', 's3:GetObject'],
    ],
  },
  {
    builder: 'alertStateKey',
    key: (l) => layout.alertStateKey(l, CLUSTER),
    uses: [
      ['analyze', 's3:GetObject'],
      ['analyze', 's3:PutObject'],
    ],
  },
  {
    builder: 'findingsHistoryStateKey',
    key: (l) => layout.findingsHistoryStateKey(l, CLUSTER),
    uses: [
      ['analyze', 's3:GetObject'],
      ['analyze', 's3:PutObject'],
    ],
  },
  {
    builder: 'factsSnapshotKey',
    key: (l) => layout.factsSnapshotKey(l, CLUSTER),
    uses: [
      ['analyze', 's3:GetObject'],
      ['analyze', 's3:PutObject'],
    ],
  },
  {
    builder: 'findingsHistoryKey',
    key: (l) => layout.findingsHistoryKey(l, CLUSTER, HOUR),
    uses: [['analyze', 's3:PutObject']],
  },
  {
    builder: 'eksFleetErrorsPrefix',
    key: () => `${layout.eksFleetErrorsPrefix()}processing-failed/2026/11/02/10/x`,
    // Written by Firehose's role, not a function's: lib/deploy/eks-shipping.ts grants it
    // from this same function (test/deploy/eks-shipping.test.ts).
    uses: [],
  },
];

/** The layout's exports that build no key: parsers, helpers, defaults, checks, the constants the fleet's prefixes use. */
export const NOT_KEYS: readonly Export[] = [
  'defaultLayout',
  'normalisePrefix',
  'clusterSegment',
  'clusterOfLogKey',
  'sourceDigest',
  'parseFactsKey',
  'clusterOfFactsPrefix',
  'FIREHOSE_ERRORS_PREFIX',
  'EKS_FLEET_SEGMENT',
  'clusterOfEksLogGroup',
  'clusterOfLogGroup',
  'isEksFleetKey',
  'layoutProblems',
];

/** Exports of the layout this catalogue does not place: each must be a key use or not a key. */
export function uncatalogued(): string[] {
  const placed = new Set<string>([...KEY_USES.map((u) => u.builder), ...NOT_KEYS]);
  return Object.keys(layout).filter((name) => !placed.has(name));
}

/** Each key use as the IAM request of its function, with that function's prefixes. */
export function layoutRequests(
  envs: ReadonlyMap<string, Record<string, string>>,
  bucket: string,
  uses: readonly KeyUse[] = KEY_USES,
): IamRequest[] {
  return uses.flatMap((u) =>
    u.uses.map(([fn, action]): IamRequest => {
      const env = envs.get(fn);
      if (!env) throw new Error(`${u.builder}: no function ${fn} in the template`);
      const key = u.key(layoutFromEnv(env));
      const why = `bucket layout: ${u.builder}`;
      return action === 's3:ListBucket'
        ? { fn, action, resource: `arn:aws:s3:::${bucket}`, context: { 's3:prefix': key }, why }
        : { fn, action, resource: `arn:aws:s3:::${bucket}/${key}`, context: {}, why };
    }),
  );
}
