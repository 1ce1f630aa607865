// The `eksClusters` stage param: the EKS clusters whose audit logs the stack ships, and the
// names each cluster's resources get. Names are derived, never chosen, so that a deploy
// with one more cluster leaves every other cluster's resources as they were.
import { createHash } from 'crypto';

/** EKS's rule for cluster names (CreateCluster API reference): 1-100 characters. */
const EKS_CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;
/** Firehose delivery stream names: 1-64 characters of [a-zA-Z0-9_.-]. */
const MAX_STREAM_NAME = 64;

export interface EksCluster {
  /** The EKS cluster name, which is also the Kubernetes cluster name of every alert (logs/<name>/). */
  name: string;
  /** Where EKS writes the control plane's logs. */
  logGroupName: string;
  /** The prefix of this cluster's CloudFormation logical ids: alphanumerics and a hash, so names differing only in `-` or `_` stay apart. */
  logicalId: string;
}

function shortHash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 8);
}

/**
 * `a,b, c` to the clusters, in the order given. Throws, naming every bad entry, on names EKS
 * would not accept and on duplicates: a deploy that half-onboards is worse than none.
 */
export function parseEksClusters(param: string): EksCluster[] {
  const names = param
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const n of names) {
    if (!EKS_CLUSTER_NAME.test(n))
      problems.push(
        `"${n}" is not an EKS cluster name (letters, digits, - and _, starting with a letter or digit, at most 100)`,
      );
    if (seen.has(n)) problems.push(`"${n}" is listed twice`);
    seen.add(n);
  }
  if (problems.length > 0) throw new Error(`eksClusters: ${problems.join('; ')}`);
  return names.map((name) => ({
    name,
    logGroupName: `/aws/eks/${name}/cluster`,
    logicalId: `Eks${name.replace(/[^A-Za-z0-9]/g, '')}${shortHash(name)}`,
  }));
}

/** `<service>-<stage>-<cluster>`, or, past Firehose's 64 characters, its start and a hash of the whole. */
export function deliveryStreamName(prefix: string, cluster: string): string {
  const full = `${prefix}-${cluster}`;
  if (full.length <= MAX_STREAM_NAME) return full;
  const hash = shortHash(full);
  return `${full.slice(0, MAX_STREAM_NAME - hash.length - 1)}-${hash}`;
}
