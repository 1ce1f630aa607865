// The `eksClusters` stage param: the EKS clusters whose audit logs the stack ships, and their
// log groups. Derived, never chosen, so that a deploy with one more cluster leaves every
// other cluster as it was.
import { createHash } from 'crypto';

/** EKS's rule for cluster names (CreateCluster API reference): 1-100 characters. */
const EKS_CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$/;

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
