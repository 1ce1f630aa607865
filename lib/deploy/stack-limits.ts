// AWS's static limits, checked on the packaged template and on the parameters before a
// deploy, each problem naming the parameter that caused it: CloudFormation, Lambda and IAM
// refuse these only when the stack is created, after a rollback and a wait. Values known
// only at deploy time (a queue URL, a generated name) are counted at a bound, so a template
// that passes here is within the limits in any account, region and stage. Pure functions.

/** CloudFormation quotas: "Resources: maximum number of resources declared in a template: 500". */
export const MAX_RESOURCES = 500;
/** Lambda quotas: "Function environment variables: 4 KB, for all environment variables associated with the function, in aggregate". */
export const MAX_ENVIRONMENT_BYTES = 4096;
/** IAM and AWS STS quotas: "Role policy size cannot exceed 10,240 characters" (all inline policies of a role, white space not counted). */
export const MAX_ROLE_POLICY_CHARACTERS = 10_240;
/**
 * CloudFormation quotas: "Template body size in an Amazon S3 object: 1 MB" (osls uploads the
 * template to its deployment bucket; the body of a direct call is limited to 51,200 bytes).
 */
export const MAX_TEMPLATE_BYTES = 1_048_576;
/**
 * The EKS clusters one stack takes: its custom resource subscribes their log groups one
 * after another within Lambda's 900 s, keeping back 90 s to answer CloudFormation and 120 s
 * for a new role to propagate; a log group costs up to four CloudWatch Logs control-plane
 * calls (create, retention, describe, put), whose per-account rates are a few per second
 * (Service Quotas, CloudWatch Logs): a second per log group, so 690.
 */
export const MAX_EKS_CLUSTERS = 900 - 90 - 120;
/** Lambda ScalingConfig: "MaximumConcurrency: minimum value of 2, maximum value of 1000". */
export const EVENT_SOURCE_CONCURRENCY = { min: 2, max: 1000 } as const;

/** The longest a reference to a resource resolves to: an ARN, a queue URL or a generated name. */
const REFERENCE_BOUND = 128;
/**
 * The longest value of each pseudo parameter, shaped as the real one (aws-us-gov,
 * ap-southeast-4, a stack id of the longest stack name), so that splitting and selecting
 * parts of it (the bucket's name takes a part of the stack id) measures the real part.
 */
const LONGEST_STACK_NAME = 'x'.repeat(128);
const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws-us-gov',
  'AWS::Region': 'ap-southeast-4',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com.cn',
  'AWS::StackName': LONGEST_STACK_NAME,
  'AWS::StackId': `arn:aws-us-gov:cloudformation:ap-southeast-4:123456789012:stack/${LONGEST_STACK_NAME}/01234567-89ab-cdef-0123-456789abcdef`,
  'AWS::NoValue': '',
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string standing for a value of at most `n` characters. */
const bound = (n: number): string => 'x'.repeat(n);

function refBound(name: string): string {
  return PSEUDO[name] ?? bound(REFERENCE_BOUND);
}

/**
 * `v` with every intrinsic function replaced by the longest value it can take at deploy
 * time: Fn::If by its longer branch, a Ref or GetAtt by a bound, Fn::Sub and Fn::Join
 * built from those. Lengths are what matters, not the text.
 */
export function longestValue(v: Json): Json {
  if (Array.isArray(v)) return v.map(longestValue);
  if (!isObject(v)) return v;
  const keys = Object.keys(v);
  if (keys.length !== 1 || !(keys[0] === 'Ref' || keys[0]!.startsWith('Fn::')))
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, longestValue(e)]));
  const fn = keys[0]!;
  const a = v[fn]!;
  const size = (x: Json): number => JSON.stringify(x ?? '').length;
  switch (fn) {
    case 'Ref':
      return refBound(String(a));
    case 'Fn::GetAtt':
      return bound(REFERENCE_BOUND);
    case 'Fn::If': {
      const [, yes, no] = a as [string, Json, Json];
      const [y, n] = [longestValue(yes), longestValue(no)];
      return size(y) >= size(n) ? y : n;
    }
    case 'Fn::Join': {
      const [sep, parts] = a as [string, Json];
      const list = longestValue(parts);
      return Array.isArray(list)
        ? list.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(sep)
        : String(list);
    }
    case 'Fn::Select': {
      const [i, listArg] = a as [Json, Json];
      const list = longestValue(listArg);
      if (!Array.isArray(list)) return list;
      const at = Number(longestValue(i));
      if (Number.isInteger(at) && at >= 0 && at < list.length) return list[at]!;
      // Unknown which: the longest.
      return list.reduce<Json>((m, e) => (size(e) > size(m) ? e : m), '');
    }
    case 'Fn::Split': {
      const [sep, text] = a as [string, Json];
      const whole = longestValue(text);
      return typeof whole === 'string' ? whole.split(sep) : [whole];
    }
    case 'Fn::Sub': {
      const [text, vars] = typeof a === 'string' ? [a, {}] : (a as [string, Record<string, Json>]);
      return text.replace(/\$\{([^!}][^}]*)\}/g, (_, name: string) => {
        if (name in vars) {
          const x = longestValue(vars[name]!);
          return typeof x === 'string' ? x : JSON.stringify(x);
        }
        return name.includes('.') ? bound(REFERENCE_BOUND) : refBound(name);
      });
    }
    default:
      return bound(REFERENCE_BOUND);
  }
}

export interface LimitsTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, Json> }>;
  Outputs?: Record<string, { Value?: Json }>;
}

export interface LimitsContext {
  /** Environment variable name → the stage param it is set from (serverless.yml). */
  envParams: Record<string, string>;
}

/** The bytes of a function's environment: every name and value, at their longest. */
export function environmentBytes(variables: Record<string, Json>): number {
  let n = 0;
  for (const [k, v] of Object.entries(variables)) {
    const x = longestValue(v);
    n += Buffer.byteLength(k) + Buffer.byteLength(typeof x === 'string' ? x : JSON.stringify(x));
  }
  return n;
}

/** The characters IAM counts for a role's inline policies: their JSON without white space. */
export function rolePolicyCharacters(policies: Json): number {
  if (!Array.isArray(policies)) return 0;
  return policies.reduce<number>((n, p) => {
    const doc = isObject(p) ? p.PolicyDocument : undefined;
    return n + JSON.stringify(longestValue(doc ?? {})).replace(/\s/g, '').length;
  }, 0);
}

/** The clusters the stack ships (its EksClusters output), which the per-cluster resources grow with. */
function clustersOf(t: LimitsTemplate): number {
  const v = t.Outputs?.EksClusters?.Value;
  return typeof v === 'string' && v !== '' ? v.split(',').length : 0;
}

/** The bytes of the template as osls uploads it (JSON, indented by two spaces). */
export function templateBytes(t: LimitsTemplate): number {
  return Buffer.byteLength(JSON.stringify(t, null, 2));
}

/** Every static limit the template breaks, each naming the parameter to change. */
export function templateLimitProblems(t: LimitsTemplate, ctx: LimitsContext): string[] {
  const out: string[] = [];
  const clusters = clustersOf(t);
  if (clusters > MAX_EKS_CLUSTERS)
    out.push(
      `eksClusters: ${clusters} clusters, over the ${MAX_EKS_CLUSTERS} one stack subscribes within its custom resource's 900 s (about a second per log group at CloudWatch Logs' API rates): deploy a second stage for the rest`,
    );
  const bytes = templateBytes(t);
  if (bytes > MAX_TEMPLATE_BYTES)
    out.push(
      `${clusters > 0 ? 'eksClusters' : 'the template'}: the template is ${bytes} bytes, over CloudFormation's ${MAX_TEMPLATE_BYTES} for a template in S3${clusters > 0 ? ': list fewer clusters, or deploy a second stage for the rest' : ''}`,
    );
  const resources = Object.keys(t.Resources).length;
  if (resources > MAX_RESOURCES)
    out.push(
      `eksClusters: ${clusters} clusters make ${resources} resources, over CloudFormation's ${MAX_RESOURCES} per template: list fewer clusters, or deploy a second stage for the rest`,
    );
  for (const [id, r] of Object.entries(t.Resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::Lambda::Function') {
      const env = isObject(p.Environment) && isObject(p.Environment.Variables) ? p.Environment.Variables : {};
      const bytes = environmentBytes(env);
      if (bytes > MAX_ENVIRONMENT_BYTES) {
        const biggest = Object.entries(env)
          .map(([k, v]) => [k, environmentBytes({ [k]: v })] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 2)
          .map(([k, n]) => `${ctx.envParams[k] ?? k} (${k}, ${n} B)`);
        out.push(
          `${biggest.join(', ')}: ${id}'s environment could reach ${bytes} B, over Lambda's ${MAX_ENVIRONMENT_BYTES} B`,
        );
      }
    }
    if (r.Type === 'AWS::IAM::Role') {
      const chars = rolePolicyCharacters(p.Policies ?? null);
      if (chars > MAX_ROLE_POLICY_CHARACTERS)
        out.push(
          `${clusters > 0 ? 'eksClusters' : id}: ${id}'s inline policies could reach ${chars} characters, over IAM's ${MAX_ROLE_POLICY_CHARACTERS} per role`,
        );
    }
  }
  return out;
}

export interface ConcurrencyParams {
  analyzeConcurrency: string;
  ingestMaxConcurrency: string;
  ingestReservedConcurrency: string;
  reservedConcurrency: string;
}

/** The concurrency params within the event source mapping's range, and ingest's mapping within its own reservation. */
export function concurrencyProblems(p: ConcurrencyParams): string[] {
  const out: string[] = [];
  const { min, max } = EVENT_SOURCE_CONCURRENCY;
  for (const name of ['analyzeConcurrency', 'ingestMaxConcurrency'] as const) {
    const n = Number(p[name]);
    if (!Number.isInteger(n) || n < min || n > max)
      out.push(
        `${name} must be a whole number from ${min} to ${max} (an SQS event source mapping's MaximumConcurrency), got ${JSON.stringify(p[name])}`,
      );
  }
  if (p.reservedConcurrency === 'true') {
    const reserved = Number(p.ingestReservedConcurrency);
    if (!Number.isInteger(reserved) || reserved < 1)
      out.push(
        `ingestReservedConcurrency must be a whole number of at least 1, got ${JSON.stringify(p.ingestReservedConcurrency)}`,
      );
    else if (Number(p.ingestMaxConcurrency) > reserved)
      // More pollers than the function may run: the surplus is throttled by its own cap.
      out.push(
        `ingestMaxConcurrency (${p.ingestMaxConcurrency}) must not exceed ingestReservedConcurrency (${reserved}) when reservedConcurrency is true`,
      );
  }
  return out;
}

export interface RetentionParams {
  rawLogsRetentionDays: string;
  factsRetentionDays: string;
}

/** Raw logs kept at least as long as the facts built from them: a backfill rebuilds only what the logs still hold. */
export function retentionProblems(p: RetentionParams): string[] {
  const raw = Number(p.rawLogsRetentionDays);
  const facts = Number(p.factsRetentionDays);
  if (!Number.isInteger(raw) || raw < 1)
    return [
      `rawLogsRetentionDays must be a whole number of days, got ${JSON.stringify(p.rawLogsRetentionDays)}`,
    ];
  if (Number.isFinite(facts) && raw < facts)
    return [`rawLogsRetentionDays (${raw}) must be at least factsRetentionDays (${facts})`];
  return [];
}

/** Lambda's TracingConfig modes: anything else packages, then fails the deploy. */
export const TRACING_MODES = ['Active', 'PassThrough'] as const;

export function tracingProblems(p: { tracing: string }): string[] {
  return (TRACING_MODES as readonly string[]).includes(p.tracing)
    ? []
    : [
        `tracing must be ${TRACING_MODES.join(' or ')} (Lambda's TracingConfig mode), got ${JSON.stringify(p.tracing)}`,
      ];
}
