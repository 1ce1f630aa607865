// Settings the emulated stack copies from the deployment, read from the templates that
// deploy it (serverless.yml's default params, infra/*.yml) rather than written a second
// time here, so the emulator and a default deployment cannot drift apart. Only what
// these templates use is resolved: `${param:…}` from the defaults, Fn::Equals, Fn::If.
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';

type Json = Record<string, unknown>;

export interface DeploymentSources {
  /** serverless.yml's text. */
  serverless: string;
  /** infra/*.yml by file name. */
  infra: Record<string, string>;
}

// CloudFormation's short forms (serverless.yml has `!Ref X`), read as their long forms.
const SHORT_FORMS = ['Ref', 'Condition', 'GetAtt', 'Sub', 'If', 'Join', 'Select', 'Split', 'Equals', 'Not'];
const SCHEMA = yaml.DEFAULT_SCHEMA.extend(
  SHORT_FORMS.flatMap((tag) =>
    (['scalar', 'sequence', 'mapping'] as const).map(
      (kind) =>
        new yaml.Type(`!${tag}`, {
          kind,
          construct: (d: unknown) => ({ [tag === 'Ref' || tag === 'Condition' ? tag : `Fn::${tag}`]: d }),
        }),
    ),
  ),
);

const load = (text: string, what: string): Json => {
  const doc = yaml.load(text, { schema: SCHEMA, filename: what });
  if (!doc || typeof doc !== 'object') throw new Error(`${what}: not a YAML mapping`);
  return doc as Json;
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class Deployment {
  private readonly params: Record<string, string>;
  private readonly docs: [string, Json][];

  constructor(sources: DeploymentSources) {
    const sls = load(sources.serverless, 'serverless.yml');
    const defaults = (isObject(sls.params) && isObject(sls.params.default) ? sls.params.default : {}) as Json;
    this.params = Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, String(v)]));
    this.docs = Object.entries(sources.infra).map(([name, text]) => [name, load(text, `infra/${name}`)]);
  }

  private section(section: 'Resources' | 'Conditions', name: string): unknown {
    const found = this.docs.filter(([, d]) => isObject(d[section]) && name in (d[section] as Json));
    if (found.length !== 1)
      throw new Error(
        `${section} ${name}: in ${found.length} infra files (${found.map(([f]) => f).join(', ')})`,
      );
    return (found[0]![1][section] as Json)[name];
  }

  resource(name: string): Json {
    const r = this.section('Resources', name);
    if (!isObject(r)) throw new Error(`resource ${name} is not a mapping`);
    return r;
  }

  /** A template value as a default deployment resolves it. */
  value(v: unknown): unknown {
    if (typeof v === 'string')
      return v.replace(/\$\{param:(\w+)\}/g, (whole, p: string) => {
        const d = this.params[p];
        if (d === undefined) throw new Error(`${whole}: no default in serverless.yml`);
        return d;
      });
    if (isObject(v) && Array.isArray(v['Fn::If'])) {
      const [cond, yes, no] = v['Fn::If'] as [string, unknown, unknown];
      return this.value(this.condition(cond) ? yes : no);
    }
    if (isObject(v) && Array.isArray(v['Fn::Equals'])) {
      const [a, b] = (v['Fn::Equals'] as unknown[]).map((x) => this.value(x));
      return a === b;
    }
    if (isObject(v) && Object.keys(v).some((k) => k === 'Ref' || k.startsWith('Fn::')))
      throw new Error(`cannot resolve ${JSON.stringify(v)} offline`);
    return v;
  }

  condition(name: string): boolean {
    const c = this.value(this.section('Conditions', name));
    if (typeof c !== 'boolean') throw new Error(`condition ${name} is not a boolean: ${JSON.stringify(c)}`);
    return c;
  }
}

/** The analysis queue's maxReceiveCount in a deployment with the default params. */
export function analysisMaxReceiveCount(sources: DeploymentSources): number {
  const d = new Deployment(sources);
  const redrive = (d.resource('AnalysisQueue').Properties as Json | undefined)?.RedrivePolicy;
  const n = d.value(isObject(redrive) ? redrive.maxReceiveCount : undefined);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new Error(`AnalysisQueue's maxReceiveCount is not a whole number: ${JSON.stringify(n)}`);
  return n;
}

/** The checkout holding serverless.yml and infra/, above this file (lib/local-aws/ or dist/). */
export function deploymentRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'serverless.yml')) && existsSync(path.join(dir, 'infra'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no serverless.yml and infra/ above ${from}`);
  }
}

export function readDeploymentSources(root: string = deploymentRoot()): DeploymentSources {
  const dir = path.join(root, 'infra');
  const infra = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
  );
  return { serverless: readFileSync(path.join(root, 'serverless.yml'), 'utf8'), infra };
}
