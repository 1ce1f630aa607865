// Listed EKS clusters' log groups that do not exist yet, created empty so that a
// subscription filter can be put on them. EKS writes into a log group that exists (its
// documentation suggests creating one beforehand to choose its retention), so this never
// changes one that is there, and never deletes one.
import {
  CreateLogGroupCommand,
  ResourceAlreadyExistsException,
  type CloudWatchLogsClient,
} from '@aws-sdk/client-cloudwatch-logs';

/** Only EKS control-plane log groups: the function's role may create nothing else either. */
const EKS_LOG_GROUP = /^\/aws\/eks\/[0-9A-Za-z][A-Za-z0-9_-]{0,99}\/cluster$/;

/** The custom resource's LogGroupNames property, checked: it arrives as untyped JSON. */
export function logGroupNamesOf(props: Record<string, unknown> | undefined): string[] {
  const names = props?.LogGroupNames;
  if (!Array.isArray(names) || names.length === 0)
    throw new Error('LogGroupNames must be a non-empty list of log group names');
  const bad = names.filter((n) => typeof n !== 'string' || !EKS_LOG_GROUP.test(n));
  if (bad.length > 0)
    throw new Error(`not EKS control-plane log groups (/aws/eks/<cluster>/cluster): ${JSON.stringify(bad)}`);
  return names as string[];
}

export interface EnsureOutcome {
  created: string[];
  existing: string[];
}

export async function ensureLogGroups(
  logs: Pick<CloudWatchLogsClient, 'send'>,
  names: readonly string[],
): Promise<EnsureOutcome> {
  const out: EnsureOutcome = { created: [], existing: [] };
  for (const logGroupName of names) {
    try {
      await logs.send(new CreateLogGroupCommand({ logGroupName }));
      out.created.push(logGroupName);
    } catch (e) {
      // Asking is the only race-free check: a describe-then-create could lose to EKS.
      if (
        e instanceof ResourceAlreadyExistsException ||
        (e as { name?: string }).name === 'ResourceAlreadyExistsException'
      )
        out.existing.push(logGroupName);
      else throw e;
    }
  }
  return out;
}
