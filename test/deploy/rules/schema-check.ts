// Every resource of a template checked against AWS's published resource definitions, as
// AWS CDK's resource database (@aws-cdk/aws-service-spec, built from the CloudFormation
// registry schemas) holds them: the type exists, every property is one it has, required
// properties are present, values have the property's type and one of its allowed values
// where it lists them, and Fn::GetAtt names an attribute the target has. Patterns and
// lengths are not in that database and no npm package ships the registry schemas whole,
// so the names the template builds are held to AWS's documented name limits instead
// (name-limits.ts). Intrinsic functions are checked for what they name, not evaluated.
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type {
  Property,
  PropertyType,
  Resource as SpecResource,
  SpecDatabase,
  TypeDefinition,
} from '@aws-cdk/service-spec-types';
import { intrinsic, isObject, type Json, type Template } from './template';

let db: SpecDatabase | undefined;
/** The database (~10 s to load on a busy machine): once per process. */
export function specDatabase(): SpecDatabase {
  db ??= loadAwsServiceSpecSync();
  return db;
}

const RESOURCE_ATTRIBUTES = new Set([
  'Type',
  'Properties',
  'Condition',
  'DependsOn',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'Metadata',
  'CreationPolicy',
  'UpdatePolicy',
]);
/** DeletionPolicy attribute: Delete, Retain, RetainExceptOnCreate, Snapshot. */
const DELETION_POLICIES = new Set(['Delete', 'Retain', 'Snapshot', 'RetainExceptOnCreate']);
/** UpdateReplacePolicy attribute: Delete, Retain, Snapshot only (RetainExceptOnCreate is a deletion policy). */
const UPDATE_REPLACE_POLICIES = new Set(['Delete', 'Retain', 'Snapshot']);

function lookupResource(type: string): SpecResource | undefined {
  const found = specDatabase().lookup('resource', 'cloudFormationType', 'equals', type);
  return found.length === 1 ? (found[0] as SpecResource) : undefined;
}

export function schemaViolations(t: Template): string[] {
  const out: string[] = [];
  const spec = specDatabase();
  const typeOf = new Map(Object.entries(t.Resources).map(([id, r]) => [id, r.Type]));

  /** An intrinsic's targets exist; a GetAtt's attribute is one the target's type has. */
  const checkIntrinsic = (at: string, fn: string, v: Json): void => {
    const a = (v as Record<string, Json>)[fn]!;
    if (fn === 'Fn::GetAtt') {
      const [target, attr] = Array.isArray(a) ? (a as string[]) : String(a).split(/\.(.*)/);
      const type = typeOf.get(target!);
      if (!type) return void out.push(`${at}: Fn::GetAtt names ${target}, not a resource of this template`);
      const r = lookupResource(type);
      if (r && typeof attr === 'string' && !(attr in r.attributes))
        out.push(`${at}: ${target} (${type}) has no attribute ${attr} for Fn::GetAtt`);
    }
    if (fn === 'Ref' && typeof a === 'string' && !a.startsWith('AWS::')) {
      if (!typeOf.has(a) && !(a in (t.Parameters ?? {})))
        out.push(`${at}: Ref ${a} names neither a resource nor a parameter`);
    }
  };

  const check = (at: string, v: Json, type: PropertyType): string | null => {
    const fn = intrinsic(v);
    if (fn) {
      checkIntrinsic(at, fn, v);
      return null;
    }
    switch (type.type) {
      case 'string':
        if (typeof v !== 'string' && typeof v !== 'number') return 'a string';
        if (type.allowedValues && typeof v === 'string' && !type.allowedValues.includes(v))
          return `one of ${type.allowedValues.join(', ')}`;
        return null;
      case 'number':
      case 'integer': {
        const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
        if (typeof n !== 'number' || Number.isNaN(n)) return `a ${type.type}`;
        if (type.type === 'integer' && !Number.isInteger(n)) return 'an integer';
        return null;
      }
      case 'boolean':
        return typeof v === 'boolean' || v === 'true' || v === 'false' ? null : 'a boolean';
      case 'json':
        return null;
      case 'date-time':
        return typeof v === 'string' ? null : 'a date-time string';
      case 'null':
        return v === null ? null : 'null';
      case 'tag':
        return isObject(v) && 'Key' in v && 'Value' in v ? null : 'a tag {Key, Value}';
      case 'array':
        if (!Array.isArray(v)) return 'a list';
        v.forEach((e, i) => report(`${at}[${i}]`, e, [type.element]));
        return null;
      case 'map':
        if (!isObject(v)) return 'a map';
        for (const [k, e] of Object.entries(v)) report(`${at}.${k}`, e, [type.element]);
        return null;
      case 'union': {
        // The first member type the value satisfies with no violation of its own.
        for (const member of type.types) {
          const before = out.length;
          const problem = check(at, v, member);
          if (problem === null && out.length === before) return null;
          out.length = before;
        }
        return `one of ${type.types.map((m) => m.type).join(' | ')}`;
      }
      case 'ref': {
        if (!isObject(v)) return 'an object';
        const def = spec.get('typeDefinition', type.reference.$ref) as TypeDefinition;
        checkObject(at, v, def.properties, def.name);
        return null;
      }
    }
  };

  /** Reports a value that fits none of the property's types (current or previous). */
  const report = (at: string, v: Json, types: PropertyType[]): void => {
    let first: string | null = null;
    for (const type of types) {
      const before = out.length;
      const problem = check(at, v, type);
      if (problem === null && out.length === before) return;
      if (problem === null) {
        // Its own nested violations stand if no other type fits either.
        if (types.length === 1) return;
        const nested = out.splice(before);
        first ??= nested.join('; ');
        continue;
      }
      out.length = before;
      first ??= `must be ${problem}, is ${JSON.stringify(v)?.slice(0, 120)}`;
    }
    if (first !== null) out.push(first.startsWith(at) ? first : `${at}: ${first}`);
  };

  const checkObject = (
    at: string,
    v: Record<string, Json>,
    props: Record<string, Property>,
    what: string,
  ): void => {
    for (const [k, e] of Object.entries(v)) {
      const p = props[k];
      if (!p) out.push(`${at}.${k}: ${what} has no property ${k}`);
      else report(`${at}.${k}`, e, [p.type, ...(p.previousTypes ?? [])]);
    }
    for (const [k, p] of Object.entries(props))
      if (p.required && !(k in v)) out.push(`${at}: ${what} requires ${k}`);
  };

  for (const [id, r] of Object.entries(t.Resources)) {
    for (const k of Object.keys(r))
      if (!RESOURCE_ATTRIBUTES.has(k)) out.push(`${id}: no resource attribute ${k}`);
    for (const [k, allowed] of [
      ['DeletionPolicy', DELETION_POLICIES],
      ['UpdateReplacePolicy', UPDATE_REPLACE_POLICIES],
    ] as const)
      if (r[k] !== undefined && !allowed.has(r[k] as string))
        out.push(`${id}.${k}: ${String(r[k])} is not a policy`);
    const deps = r.DependsOn === undefined ? [] : Array.isArray(r.DependsOn) ? r.DependsOn : [r.DependsOn];
    for (const d of deps)
      if (!typeOf.has(d)) out.push(`${id}.DependsOn: ${d} is not a resource of this template`);
    if (r.Type.startsWith('Custom::')) continue;
    const s = lookupResource(r.Type);
    if (!s) {
      out.push(`${id}: ${r.Type} is not a CloudFormation resource type`);
      continue;
    }
    checkObject(`${id}.Properties`, (r.Properties ?? {}) as Record<string, Json>, s.properties, r.Type);
  }
  return out;
}
