// A packaged CloudFormation template as plain data, and what one parameter set makes of
// it: its conditions evaluated, the resources whose condition is false dropped, every
// Fn::If replaced by the branch taken and AWS::NoValue removed. Pure functions only.
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface Resource {
  Type: string;
  Properties?: JsonObject;
  Condition?: string;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  [attribute: string]: Json | undefined;
}

export interface Template {
  AWSTemplateFormatVersion?: string;
  Description?: string;
  Parameters?: Record<string, JsonObject>;
  Conditions?: Record<string, Json>;
  Resources: Record<string, Resource>;
  Outputs?: Record<string, JsonObject>;
}

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The single key of an intrinsic function object (`{ "Fn::If": [...] }`, `{ Ref: x }`), or null. */
export function intrinsic(v: Json): string | null {
  if (!isObject(v)) return null;
  const keys = Object.keys(v);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0] === 'Condition' || keys[0]!.startsWith('Fn::'))
    ? keys[0]!
    : null;
}

const NO_VALUE = Symbol('AWS::NoValue');

/** Every condition's value. The packaged template's conditions compare literals (params are substituted). */
export function evaluateConditions(t: Template): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const visiting = new Set<string>();
  const literal = (v: Json): Json => {
    if (intrinsic(v) === 'Ref' && isObject(v)) {
      const p = t.Parameters?.[v.Ref as string];
      if (p && 'Default' in p) return p.Default as Json;
      throw new Error(`condition compares Ref ${JSON.stringify(v.Ref)}, which has no value here`);
    }
    return v;
  };
  const evalCond = (v: Json): boolean => {
    const fn = intrinsic(v);
    if (!fn || !isObject(v)) throw new Error(`not a condition: ${JSON.stringify(v)}`);
    const args = v[fn] as Json[];
    switch (fn) {
      case 'Condition':
        return byName(v.Condition as string);
      case 'Fn::Equals':
        return JSON.stringify(literal(args[0]!)) === JSON.stringify(literal(args[1]!));
      case 'Fn::Not':
        return !evalCond(args[0]!);
      case 'Fn::And':
        return args.every(evalCond);
      case 'Fn::Or':
        return args.some(evalCond);
      default:
        throw new Error(`${fn} is not a condition function`);
    }
  };
  const byName = (name: string): boolean => {
    if (name in out) return out[name]!;
    const def = t.Conditions?.[name];
    if (def === undefined) throw new Error(`unknown condition ${name}`);
    if (visiting.has(name)) throw new Error(`condition ${name} refers to itself`);
    visiting.add(name);
    out[name] = evalCond(def);
    return out[name]!;
  };
  for (const name of Object.keys(t.Conditions ?? {})) byName(name);
  return out;
}

/** `v` as deployed under these conditions: Fn::If branches taken, AWS::NoValue removed. */
export function applyConditions(v: Json, conditions: Record<string, boolean>): Json {
  const walk = (x: Json): Json | typeof NO_VALUE => {
    if (Array.isArray(x)) return x.map(walk).filter((e): e is Json => e !== NO_VALUE);
    if (!isObject(x)) return x;
    if (intrinsic(x) === 'Ref' && x.Ref === 'AWS::NoValue') return NO_VALUE;
    if (intrinsic(x) === 'Fn::If') {
      const [name, yes, no] = x['Fn::If'] as [string, Json, Json];
      if (!(name in conditions)) throw new Error(`Fn::If names unknown condition ${name}`);
      return walk(conditions[name] ? yes : no);
    }
    const out: JsonObject = {};
    for (const [k, e] of Object.entries(x)) {
      const w = walk(e);
      if (w !== NO_VALUE) out[k] = w;
    }
    return out;
  };
  const r = walk(v);
  return r === NO_VALUE ? null : r;
}

/** The template one parameter set deploys: only the resources it creates, as it creates them. */
export function effectiveTemplate(t: Template): Template {
  const conditions = evaluateConditions(t);
  const Resources: Record<string, Resource> = {};
  for (const [id, r] of Object.entries(t.Resources)) {
    if (r.Condition !== undefined && !conditions[r.Condition]) continue;
    Resources[id] = applyConditions(r as unknown as Json, conditions) as unknown as Resource;
  }
  return { ...t, Resources };
}
