// The listed EKS clusters' log groups made ready and subscribed to the fleet's delivery
// stream, by the EksSubscriptions custom resource (lib/deploy/eks-shipping.ts):
// - a log group that does not exist yet is created empty (EKS writes into a log group that
//   exists: its documentation suggests creating one beforehand to choose its retention), and
//   only such a group gets the stack's retention; one that exists is never changed, and none
//   is ever deleted;
// - before any filter is put, every log group is checked for a free subscription filter slot
//   (a log group takes two), not counting the stack's own filter, and the run fails naming
//   each log group without one: a cluster that ships to a SIEM keeps its filter;
// - the filter is put with the role CloudWatch Logs delivers with, retrying while that new
//   role's policy propagates (CloudWatch Logs sends a test record first and refuses the
//   filter when it cannot deliver it);
// - the operators' log groups (eksOperatorLogs: Container Insights' application group or one
//   the user names) get the same filter name with a pattern keeping only the operators' lines;
//   they are never created (a missing one means no Fluent Bit ships there: the run fails
//   naming it) and take a slot like the others;
// - a log group no longer listed, and every listed one when the resource is deleted, loses
//   the stack's filter and nothing else.
import {
  CreateLogGroupCommand,
  DeleteSubscriptionFilterCommand,
  DescribeSubscriptionFiltersCommand,
  PutRetentionPolicyCommand,
  PutSubscriptionFilterCommand,
  type CloudWatchLogsClient,
  type SubscriptionFilter,
} from '@aws-sdk/client-cloudwatch-logs';

/** Only EKS control-plane log groups: the function's role may act on nothing else either. */
const EKS_LOG_GROUP = /^\/aws\/eks\/[0-9A-Za-z][A-Za-z0-9_-]{0,99}\/cluster$/;

/** CloudWatch Logs' rule for log group names (CreateLogGroup API reference). */
const LOG_GROUP_NAME = /^[.\-_/#A-Za-z0-9]{1,512}$/;

/** PutSubscriptionFilter: "Each log group can have up to two subscription filters associated with it." */
export const FILTERS_PER_LOG_GROUP = 2;

type Logs = Pick<CloudWatchLogsClient, 'send'>;

const errorName = (e: unknown): string => (e as { name?: string }).name ?? '';

/** The custom resource's LogGroupNames property, checked: it arrives as untyped JSON. */
export function logGroupNamesOf(props: Record<string, unknown> | undefined): string[] {
  const names = props?.LogGroupNames;
  if (!Array.isArray(names) || names.length === 0)
    throw new Error('LogGroupNames must be a non-empty list of log group names');
  const bad = names.filter((n) => typeof n !== 'string' || !EKS_LOG_GROUP.test(n));
  if (bad.length > 0)
    throw new Error(`not EKS control-plane log groups (/aws/eks/<cluster>/cluster): ${JSON.stringify(bad)}`);
  if (new Set(names).size !== names.length) throw new Error('LogGroupNames lists a log group twice');
  return names as string[];
}

/** The custom resource's OperatorLogGroupNames: any log group names but EKS control-plane ones (optional). */
export function operatorLogGroupNamesOf(props: Record<string, unknown> | undefined): string[] {
  const names = props?.OperatorLogGroupNames;
  if (names === undefined || names === '') return [];
  if (!Array.isArray(names)) throw new Error('OperatorLogGroupNames must be a list of log group names');
  const bad = names.filter((n) => typeof n !== 'string' || !LOG_GROUP_NAME.test(n) || EKS_LOG_GROUP.test(n));
  if (bad.length > 0)
    throw new Error(
      `not operator log group names (any log group but /aws/eks/<cluster>/cluster): ${JSON.stringify(bad)}`,
    );
  if (new Set(names).size !== names.length) throw new Error('OperatorLogGroupNames lists a log group twice');
  return names as string[];
}

export interface SubscriptionSpec {
  logGroupNames: string[];
  /** Log groups of the operators' own lines (eksOperatorLogs): never created, filtered by operatorFilterPattern. */
  operatorLogGroupNames: string[];
  operatorFilterPattern: string;
  filterName: string;
  /** The name the stack's filter had before (CloudFormation-owned): the stack's own too. */
  legacyFilterName: string | null;
  filterPattern: string;
  destinationArn: string;
  roleArn: string;
  /** Retention for the log groups created here; null leaves them without one. */
  retentionInDays: number | null;
}

const str = (props: Record<string, unknown>, key: string, required = true): string | null => {
  const v = props[key];
  if (typeof v === 'string' && v !== '') return v;
  if (!required && (v === undefined || v === '')) return null;
  throw new Error(`${key} must be a non-empty string, got ${JSON.stringify(v)}`);
};

/** The EksSubscriptions custom resource's properties, checked. */
export function subscriptionSpecOf(props: Record<string, unknown> | undefined): SubscriptionSpec {
  const p = props ?? {};
  const retention = p.RetentionInDays;
  const days = retention === undefined || retention === '' ? null : Number(retention);
  if (days !== null && (!Number.isInteger(days) || days < 1))
    throw new Error(`RetentionInDays must be a whole number of days, got ${JSON.stringify(retention)}`);
  return {
    logGroupNames: logGroupNamesOf(p),
    operatorLogGroupNames: operatorLogGroupNamesOf(p),
    operatorFilterPattern: typeof p.OperatorFilterPattern === 'string' ? p.OperatorFilterPattern : '',
    filterName: str(p, 'FilterName')!,
    legacyFilterName: str(p, 'LegacyFilterName', false),
    // An empty pattern is valid (every event), so only its type is checked.
    filterPattern: typeof p.FilterPattern === 'string' ? p.FilterPattern : '',
    destinationArn: str(p, 'DestinationArn')!,
    roleArn: str(p, 'RoleArn')!,
    retentionInDays: days,
  };
}

export interface EnsureOutcome {
  created: string[];
  existing: string[];
}

/** Creates each listed log group that does not exist; `retentionInDays` is set on those it created only. */
export async function ensureLogGroups(
  logs: Logs,
  names: readonly string[],
  retentionInDays: number | null = null,
): Promise<EnsureOutcome> {
  const out: EnsureOutcome = { created: [], existing: [] };
  for (const logGroupName of names) {
    try {
      await logs.send(new CreateLogGroupCommand({ logGroupName }));
      out.created.push(logGroupName);
    } catch (e) {
      // Asking is the only race-free check: a describe-then-create could lose to EKS.
      if (errorName(e) === 'ResourceAlreadyExistsException') {
        out.existing.push(logGroupName);
        continue;
      }
      throw e;
    }
    if (retentionInDays !== null)
      await logs.send(new PutRetentionPolicyCommand({ logGroupName, retentionInDays }));
  }
  return out;
}

/** Every subscription filter of a log group (DescribeSubscriptionFilters pages). */
async function filtersOf(logs: Logs, logGroupName: string): Promise<SubscriptionFilter[]> {
  const out: SubscriptionFilter[] = [];
  let nextToken: string | undefined;
  do {
    const res = (await logs.send(
      new DescribeSubscriptionFiltersCommand({ logGroupName, ...(nextToken ? { nextToken } : {}) }),
    )) as { subscriptionFilters?: SubscriptionFilter[]; nextToken?: string } | undefined;
    out.push(...(res?.subscriptionFilters ?? []));
    nextToken = res?.nextToken;
  } while (nextToken);
  return out;
}

/** Every log group the spec subscribes, with the pattern it gets. */
function targetsOf(spec: SubscriptionSpec): { logGroupName: string; filterPattern: string }[] {
  return [
    ...spec.logGroupNames.map((logGroupName) => ({ logGroupName, filterPattern: spec.filterPattern })),
    ...spec.operatorLogGroupNames.map((logGroupName) => ({
      logGroupName,
      filterPattern: spec.operatorFilterPattern,
    })),
  ];
}

const allGroupsOf = (spec: Pick<SubscriptionSpec, 'logGroupNames' | 'operatorLogGroupNames'>): string[] => [
  ...spec.logGroupNames,
  ...spec.operatorLogGroupNames,
];

interface SlotPlan {
  logGroupName: string;
  filterPattern: string;
  /** The legacy filter must go first: without it there is no free slot. */
  removeLegacy: boolean;
}

/**
 * Each log group's slot, or the error naming every log group without a free one (the
 * stack's own filter, by its name or its former one, is not counted: it is replaced).
 */
export async function planSlots(logs: Logs, spec: SubscriptionSpec): Promise<SlotPlan[]> {
  const plans: SlotPlan[] = [];
  const full: string[] = [];
  const missing: string[] = [];
  for (const { logGroupName, filterPattern } of targetsOf(spec)) {
    let filters: SubscriptionFilter[];
    try {
      filters = await filtersOf(logs, logGroupName);
    } catch (e) {
      // Only operator groups can be missing here: the audit ones were created first.
      if (errorName(e) !== 'ResourceNotFoundException') throw e;
      missing.push(logGroupName);
      continue;
    }
    const own = filters.some((f) => f.filterName === spec.filterName);
    const legacy =
      spec.legacyFilterName !== null && filters.some((f) => f.filterName === spec.legacyFilterName);
    const others = filters.filter(
      (f) => f.filterName !== spec.filterName && f.filterName !== spec.legacyFilterName,
    );
    if (others.length >= FILTERS_PER_LOG_GROUP) {
      full.push(`${logGroupName} (${others.map((f) => f.filterName ?? '?').join(', ')})`);
      continue;
    }
    plans.push({
      logGroupName,
      filterPattern,
      removeLegacy: legacy && !own && others.length + 2 > FILTERS_PER_LOG_GROUP,
    });
  }
  const problems: string[] = [];
  if (missing.length > 0)
    problems.push(
      `operator log group(s) not found: ${missing.join(', ')}. Install Container Insights (or a Fluent Bit) on ` +
        'the cluster, or name the group its operator logs go to in eksOperatorLogs (<cluster>=<group>)',
    );
  if (full.length > 0)
    problems.push(
      `no free subscription filter slot (a log group takes ${FILTERS_PER_LOG_GROUP}) on ${full.length} log group(s): ` +
        `${full.join('; ')}. Remove a filter from each, or leave its cluster out of eksClusters (or eksOperatorLogs)`,
    );
  if (problems.length > 0) throw new Error(problems.join('. '));
  return plans;
}

export interface RetryOptions {
  /** How long to keep retrying a test delivery CloudWatch Logs could not make (the role propagating). */
  propagationMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** When to stop starting work and answer (the function's own time running out), as now() counts. */
  deadline: number;
}

export const defaultRetry = (deadline: number): RetryOptions => ({
  propagationMs: 120_000,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => Date.now(),
  deadline,
});

/**
 * CloudWatch Logs refusing a filter because its test record could not be delivered: while a
 * new role's policy propagates ("Could not deliver test message to specified Firehose stream").
 */
export function isPropagationRace(e: unknown): boolean {
  return errorName(e) === 'InvalidParameterException' && /test message/i.test((e as Error).message ?? '');
}

async function putFilter(
  logs: Logs,
  spec: SubscriptionSpec,
  { logGroupName, filterPattern }: SlotPlan,
  retry: RetryOptions,
) {
  const started = retry.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await logs.send(
        new PutSubscriptionFilterCommand({
          logGroupName,
          filterName: spec.filterName,
          filterPattern,
          destinationArn: spec.destinationArn,
          roleArn: spec.roleArn,
        }),
      );
      return;
    } catch (e) {
      const waited = retry.now() - started;
      if (!isPropagationRace(e) || waited >= retry.propagationMs) throw e;
      await retry.sleep(Math.min(2000 * 2 ** attempt, 20_000));
    }
  }
}

async function deleteFilter(logs: Logs, logGroupName: string, filterName: string): Promise<boolean> {
  try {
    await logs.send(new DeleteSubscriptionFilterCommand({ logGroupName, filterName }));
    return true;
  } catch (e) {
    // Gone already (removed by hand, or the log group deleted): nothing left to do.
    if (errorName(e) === 'ResourceNotFoundException') return false;
    throw e;
  }
}

export interface ApplyOutcome extends EnsureOutcome {
  subscribed: string[];
  unsubscribed: string[];
}

/**
 * Makes the account match `spec` (after `previous`, on an update): log groups created,
 * slots checked for all before any change, filters put, and removed from groups no longer
 * listed. Fails naming what it could not do; on a create it takes back the filters it put
 * first, so a failed first deploy leaves no filter behind.
 */
export async function applySubscriptions(
  logs: Logs,
  spec: SubscriptionSpec,
  previous: SubscriptionSpec | null,
  retry: RetryOptions,
  opts: { undoOnFailure: boolean },
): Promise<ApplyOutcome> {
  const ensured = await ensureLogGroups(logs, spec.logGroupNames, spec.retentionInDays);
  const plans = await planSlots(logs, spec);
  const out: ApplyOutcome = { ...ensured, subscribed: [], unsubscribed: [] };
  try {
    for (const plan of plans) {
      if (retry.now() > retry.deadline)
        throw new Error(
          `ran out of time after subscribing ${out.subscribed.length} of ${plans.length} log groups; ` +
            'deploy again: what is done is kept, and the rest follows',
        );
      if (plan.removeLegacy && spec.legacyFilterName !== null)
        await deleteFilter(logs, plan.logGroupName, spec.legacyFilterName);
      await putFilter(logs, spec, plan, retry);
      out.subscribed.push(plan.logGroupName);
    }
  } catch (e) {
    if (opts.undoOnFailure)
      for (const g of out.subscribed) await deleteFilter(logs, g, spec.filterName).catch(() => false);
    throw e;
  }
  if (previous) {
    const kept = new Set(allGroupsOf(spec));
    for (const g of allGroupsOf(previous)) {
      if (kept.has(g) && previous.filterName === spec.filterName) continue;
      if (await deleteFilter(logs, g, previous.filterName)) out.unsubscribed.push(g);
    }
  }
  return out;
}

/** The stack's filter taken off every listed log group (the resource deleted); the log groups stay. */
export async function removeSubscriptions(
  logs: Logs,
  spec: Pick<SubscriptionSpec, 'logGroupNames' | 'operatorLogGroupNames' | 'filterName'>,
) {
  const removed: string[] = [];
  for (const g of allGroupsOf(spec)) if (await deleteFilter(logs, g, spec.filterName)) removed.push(g);
  return removed;
}
