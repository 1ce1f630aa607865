// What to change, in plain words, for each fight: who should own the field, or what the
// webhook or the operator should stop doing. Known actors (GitOps tools, autoscalers,
// cert-manager's cainjector) get the fix their users apply; anyone else the general one.
import type { FightTarget } from '../model/findings';

/** `system:serviceaccount:argocd:argocd-application-controller` → `argocd-application-controller`. */
export function shortUser(user: string): string {
  const m = /^system:serviceaccount:[^:]+:(.+)$/.exec(user);
  return m ? m[1] : user;
}

const GITOPS = /argocd|argo-cd|kustomize-controller|helm-controller|flux|helm/i;
const AUTOSCALER = /horizontal-pod-autoscaler|keda|hpa/i;
const CA_INJECTOR = /cainjector|istiod|ca-injector/i;

function isGitOps(u: string): boolean {
  return GITOPS.test(u);
}

function objectName(t: FightTarget): string {
  return `${t.resource}/${t.name}`;
}

/** A value token as words: numbers and booleans as they are, anything hashed as "another value". */
function shown(token: string | undefined): string | null {
  if (token === undefined || token.startsWith('#') || token === '-') return null;
  return token;
}

export function fieldFightRecommendation(f: {
  target: FightTarget;
  writers: string[];
  fields: string[];
  values: Record<string, Record<string, string>>;
}): string {
  const names = f.writers.map(shortUser);
  const gitops = f.writers.find(isGitOps);
  const other = f.writers.find((w) => w !== gitops);
  const fieldList = f.fields.join(', ');
  if (f.fields.length === 0) {
    const owner = gitops && other ? shortUser(other) : 'one of them';
    return (
      `${names.join(' and ')} keep overwriting ${objectName(f.target)} in turn (the audit level is Metadata, so ` +
      `the fields are not in the log): find the field both set (log this resource at Request level to see it), ` +
      `then let ${owner} own it` +
      (gitops
        ? ` and tell ${shortUser(gitops)} to ignore it (ignoreDifferences with RespectIgnoreDifferences=true), or put its value into Git.`
        : '.')
    );
  }
  if (f.fields.includes('spec.replicas') && f.writers.some((w) => AUTOSCALER.test(w))) {
    const scaler = f.writers.find((w) => AUTOSCALER.test(w))!;
    const writer = f.writers.find((w) => w !== scaler) ?? scaler;
    const v = f.values['spec.replicas'] ?? {};
    const wants = shown(v[writer]);
    const scales = shown(v[scaler]);
    return (
      `${shortUser(writer)} keeps writing spec.replicas${wants ? `=${wants}` : ''} while ${shortUser(scaler)} ` +
      `scales ${f.target.name}${scales ? ` to ${scales}` : ''}: ` +
      (isGitOps(writer)
        ? `add ignoreDifferences for /spec/replicas on ${objectName(f.target)} with syncOptions RespectIgnoreDifferences=true, or remove replicas from the manifest, `
        : `stop ${shortUser(writer)} from setting replicas (leave it out of what it applies), `) +
      `so that the autoscaler alone owns the field.`
    );
  }
  if (f.fields.some((p) => p.endsWith('caBundle'))) {
    const injector = f.writers.find((w) => CA_INJECTOR.test(w));
    const renderer = f.writers.find((w) => w !== injector) ?? f.writers[0];
    return (
      `${shortUser(renderer)} keeps rendering its own caBundle for ${f.target.name} and ` +
      `${injector ? shortUser(injector) : 'another writer'} keeps injecting the CA: let ` +
      `${injector ? shortUser(injector) : 'the injector'} own clientConfig.caBundle (` +
      (isGitOps(renderer)
        ? `ignoreDifferences on .webhooks[]?.clientConfig.caBundle with RespectIgnoreDifferences=true, or drop caBundle from the chart / Helm values).`
        : `drop caBundle from what ${shortUser(renderer)} writes).`)
    );
  }
  return (
    `${names.join(' and ')} keep setting ${fieldList} of ${objectName(f.target)} to different values in turn: ` +
    `let one writer own ${f.fields.length === 1 ? 'the field' : 'these fields'}` +
    (gitops
      ? ` (for ${shortUser(gitops)}: ignoreDifferences with RespectIgnoreDifferences=true, or put the other writer's value into Git).`
      : ` and remove ${f.fields.length === 1 ? 'it' : 'them'} from what the other one writes.`)
  );
}

export function hotLoopRecommendation(f: { target: FightTarget; writer: string; fields: string[] }): string {
  const leaves = f.fields.map((p) => p.slice(p.lastIndexOf('.') + 1));
  return (
    `${shortUser(f.writer)} re-sends ${objectName(f.target)} without the fields the API server defaults ` +
    `(${distinctText(leaves)}), so what it reads back never equals what it wants and it writes again: ` +
    `set the defaulted fields explicitly, or compare against the defaulted object (server-side dry-run) before writing.`
  );
}

export function recreateLoopRecommendation(f: {
  target: FightTarget;
  writers: string[];
  mutators: string[];
  fields: string[];
}): string {
  const operator = f.writers.map(shortUser).join(', ');
  const hooks = f.mutators.length > 0 ? f.mutators.join(', ') : 'a mutating webhook';
  const slot = f.target.slot ?? f.target.name;
  const what = describeFields(f.fields);
  return (
    `${hooks} ${what ? `changes ${what} of` : 'mutates'} every re-created ${slot} pod; ${operator} does not ` +
    `declare ${what ? 'them' : 'what it changes'}, sees drift and replaces the pod. Declare those fields in ` +
    `${f.target.resource === 'pods' ? 'the operator' : `${f.target.resource}/${f.target.name}`}, or make the webhook skip ` +
    `these pods (a namespace or object selector, or a label the webhook honours), or only mutate on CREATE of pods ` +
    `the operator does not compare.`
  );
}

function describeFields(fields: string[]): string {
  if (fields.length === 0) return '';
  const env = fields.filter((p) => /\.env\[name=/.test(p)).map((p) => /\.env\[name=([^\]]*)\]/.exec(p)![1]);
  const rest = fields.filter((p) => !/\.env\[name=/.test(p));
  const parts: string[] = [];
  if (env.length > 0) parts.push(`env ${distinctText(env)}`);
  if (rest.length > 0)
    parts.push(
      rest.length > 4 ? `${rest.slice(0, 4).join(', ')} and ${rest.length - 4} more` : rest.join(', '),
    );
  return parts.join(' and ');
}

function distinctText(xs: string[]): string {
  return [...new Set(xs)].join(', ');
}
