// The `eksOperatorLogs` stage param: which log group holds each listed EKS cluster's operator
// logs, so that the onboarding that ships a cluster's audit log ships its operator's lines too
// (through the same stream, by the same custom resource: no resource per cluster). On EKS they
// reach CloudWatch Logs through Container Insights' Fluent Bit, in
// `/aws/containerinsights/<cluster>/application`, or through a Fluent Bit of the user's own
// writing to a group the user names.
//
// Without them the analysis still classifies from the audit log alone, but loses what only the
// operator says: the diff it acted on (`resource diffs`, debug), its own word that it deleted a
// pod, the errors it restarts pods for; the report and alerts say so (lib/report, lib/notify).
import type { EksCluster } from './eks-clusters';

/** Container Insights' application log group of an EKS cluster (its Fluent Bit's default). */
export function containerInsightsGroup(cluster: string): string {
  return `/aws/containerinsights/${cluster}/application`;
}

/** CloudWatch Logs' rule for log group names (CreateLogGroup API reference). */
const LOG_GROUP_NAME = /^[.\-_/#A-Za-z0-9]{1,512}$/;

/** The keyword that gives every listed cluster its Container Insights group. */
export const CONTAINER_INSIGHTS = 'containerinsights';

export interface OperatorLogGroup {
  cluster: string;
  logGroupName: string;
}

interface Entries {
  /** `containerinsights` given: every listed cluster without a pair gets its default group. */
  everyCluster: boolean;
  named: OperatorLogGroup[];
  problems: string[];
}

/** The param's entries, each checked on its own (the deploy checks them against eksClusters too). */
function entriesOf(param: string): Entries {
  const out: Entries = { everyCluster: false, named: [], problems: [] };
  const entries = param
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const e of entries) {
    if (e === CONTAINER_INSIGHTS) {
      out.everyCluster = true;
      continue;
    }
    const eq = e.indexOf('=');
    if (eq <= 0) {
      out.problems.push(`"${e}" is neither ${CONTAINER_INSIGHTS} nor <cluster>=<log group>`);
      continue;
    }
    const cluster = e.slice(0, eq).trim();
    const group = e.slice(eq + 1).trim();
    if (!LOG_GROUP_NAME.test(group))
      out.problems.push(`"${group}" is not a log group name (1-512 of letters, digits and . - _ / #)`);
    else if (/^\/aws\/eks\//.test(group))
      out.problems.push(`"${group}" is an EKS control-plane log group: its audit log is shipped already`);
    if (out.named.some((n) => n.cluster === cluster)) out.problems.push(`"${cluster}" is given twice`);
    out.named.push({ cluster, logGroupName: group });
  }
  return out;
}

/**
 * `containerinsights` (every listed cluster's Container Insights group), `<cluster>=<group>`
 * pairs (that cluster's group, overriding the keyword), both, or empty (none), comma-separated.
 * Throws naming every bad entry: a group that is not a log group name, an EKS control-plane
 * group (its audit log, already shipped), a cluster not in eksClusters, a cluster or group
 * named twice.
 */
export function parseEksOperatorLogs(param: string, clusters: readonly EksCluster[]): OperatorLogGroup[] {
  const { everyCluster, named, problems } = entriesOf(param);
  const listed = new Set(clusters.map((c) => c.name));
  for (const n of named) if (!listed.has(n.cluster)) problems.push(`"${n.cluster}" is not in eksClusters`);
  const out: OperatorLogGroup[] = [];
  for (const c of clusters) {
    const group =
      named.find((n) => n.cluster === c.name)?.logGroupName ??
      (everyCluster ? containerInsightsGroup(c.name) : null);
    if (group !== null) out.push({ cluster: c.name, logGroupName: group });
  }
  const seen = new Map<string, string>();
  for (const g of out) {
    const other = seen.get(g.logGroupName);
    if (other !== undefined)
      problems.push(
        `"${g.logGroupName}" is given for both ${other} and ${g.cluster}: a record could not name its cluster`,
      );
    seen.set(g.logGroupName, g.cluster);
  }
  if (problems.length > 0) throw new Error(`eksOperatorLogs: ${problems.join('; ')}`);
  return out;
}

/**
 * The groups of the param that do not name their cluster themselves (its `<cluster>=<group>`
 * pairs), group to cluster: the ingest reads the param as the stack has it. Container
 * Insights' default groups name their cluster (lib/aws/bucket-layout.ts).
 */
export function namedOperatorLogGroups(param: string): Map<string, string> {
  const { named, problems } = entriesOf(param);
  if (problems.length > 0) throw new Error(`eksOperatorLogs: ${problems.join('; ')}`);
  return new Map(named.map((n) => [n.logGroupName, n.cluster]));
}
