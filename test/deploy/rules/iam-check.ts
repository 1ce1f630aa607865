// The role policies of a template evaluated, with an IAM policy simulator
// (@cloud-copilot/iam-simulate, AGPL-3.0: a test-only devDependency, never bundled into a
// function), against the requests the functions make: every request must be allowed; an
// allowed action no request needs is reported as a warning.
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { IamRequest } from './iam-requests';
import { functionKeys } from './iam-requests';
import type { Resolver } from './resolve';
import { isObject, type Json, type Template } from './template';

interface Statement {
  Effect: string;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

interface RolePolicies {
  role: string;
  arn: string;
  policies: { name: string; policy: { Version: string; Statement: Statement[] } }[];
}

/** A role of the template, its ARN and its inline policies, evaluated for this deployment. */
function rolePolicies(t: Template, r: Resolver, roleId: string): RolePolicies {
  const role = t.Resources[roleId];
  if (role?.Type !== 'AWS::IAM::Role') throw new Error(`${roleId} is not a role of this template`);
  if ((role.Properties?.ManagedPolicyArns as Json[] | undefined)?.length)
    throw new Error(`${roleId}: managed policies are not evaluated here; inline them or extend iam-check.ts`);
  const policies = ((role.Properties?.Policies ?? []) as Json[]).map((p) => {
    const doc = r.value((p as { PolicyDocument: Json }).PolicyDocument) as unknown as {
      Version: string;
      Statement: Statement[];
    };
    return { name: String((p as { PolicyName: string }).PolicyName), policy: doc };
  });
  return { role: roleId, arn: r.arn(roleId), policies };
}

/** Each function's role, its ARN and its inline policies, evaluated for this deployment. */
export function rolesOfFunctions(t: Template, r: Resolver): Map<string, RolePolicies> {
  const out = new Map<string, RolePolicies>();
  for (const [id, fn] of functionKeys(t)) {
    const roleRef = t.Resources[id]!.Properties!.Role;
    const roleId =
      isObject(roleRef) && Array.isArray(roleRef['Fn::GetAtt']) ? String(roleRef['Fn::GetAtt'][0]) : null;
    if (!roleId)
      throw new Error(`${id}: its Role is not a role of this template (${JSON.stringify(roleRef)})`);
    out.set(fn, rolePolicies(t, r, roleId));
  }
  return out;
}

/** The roles AWS services assume (Firehose, CloudWatch Logs), keyed by logical id as service-requests.ts keys their requests. */
export function rolesOfServices(t: Template, r: Resolver): Map<string, RolePolicies> {
  const out = new Map<string, RolePolicies>();
  for (const [id, res] of Object.entries(t.Resources)) {
    if (res.Type !== 'AWS::IAM::Role') continue;
    const trust = JSON.stringify(res.Properties?.AssumeRolePolicyDocument ?? {});
    const services = [...trust.matchAll(/"Service":"([^"]+)"/g)].map((m) => m[1]);
    if (services.some((s) => s !== 'lambda.amazonaws.com')) out.set(id, rolePolicies(t, r, id));
  }
  return out;
}

export interface IamVerdict {
  denied: string[];
  /** Allowed actions no request needs: `Role: action on resource`. */
  unused: string[];
  evaluated: number;
}

/** The key policy AWS gives a key by default: the account's IAM policies decide. */
function defaultKeyPolicy(accountId: string): unknown {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'Enable IAM User Permissions',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${accountId}:root` },
        Action: 'kms:*',
        Resource: '*',
      },
    ],
  };
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export async function evaluateRequests(
  roles: Map<string, RolePolicies>,
  requests: readonly IamRequest[],
  accountId: string,
): Promise<IamVerdict> {
  const denied: string[] = [];
  const seen = new Set<string>();
  for (const q of requests) {
    const key = JSON.stringify([q.fn, q.action, q.resource, q.context]);
    if (seen.has(key)) continue;
    seen.add(key);
    const role = roles.get(q.fn);
    if (!role) {
      denied.push(`${q.fn}: no such function in the template, for ${q.action} on ${q.resource} (${q.why})`);
      continue;
    }
    const res = await runSimulation(
      {
        request: {
          principal: role.arn,
          action: q.action,
          resource: { resource: q.resource, accountId },
          contextVariables: q.context,
        },
        identityPolicies: role.policies,
        // A KMS key admits IAM policies only if its key policy says so: assume the default
        // key policy, which does (README-deploy.md asks for it on kmsKeyArn's key).
        ...(q.action.startsWith('kms:') ? { resourcePolicy: defaultKeyPolicy(accountId) } : {}),
        serviceControlPolicies: [],
        resourceControlPolicies: [],
      },
      {},
    );
    if (res.resultType === 'error')
      denied.push(
        `${role.role}: ${q.action} on ${q.resource} could not be simulated: ${JSON.stringify(res.errors)}`,
      );
    else if (res.overallResult !== 'Allowed')
      denied.push(
        `${role.role}: ${q.action} on ${q.resource}${Object.keys(q.context).length ? ` with ${JSON.stringify(q.context)}` : ''} is ${res.overallResult} (${q.fn}: ${q.why})`,
      );
  }
  const unused: string[] = [];
  for (const [fn, role] of roles) {
    const needed = new Set(requests.filter((q) => q.fn === fn).map((q) => q.action));
    for (const p of role.policies)
      for (const s of p.policy.Statement)
        for (const a of list(s.Action))
          if (s.Effect === 'Allow' && !needed.has(a))
            unused.push(`${role.role}: ${a} on ${list(s.Resource).join(', ')}`);
  }
  return { denied, unused, evaluated: seen.size };
}
