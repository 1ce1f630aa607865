// CloudFormation's dependency graph: a resource depends on every resource it names with
// Ref, Fn::GetAtt, a ${Name} or ${Name.Attr} in Fn::Sub, or DependsOn, in every branch of
// every Fn::If (CloudFormation orders and checks the template before it picks a branch).
// A cycle makes CloudFormation refuse the template: "Circular dependency between resources".
import { intrinsic, isObject, type Json, type Template } from './template';

export type Graph = Map<string, Set<string>>;

/** Logical ids named by ${...} in an Fn::Sub string, not those its own variable map defines. */
function subNames(text: string, local: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
    const name = m[1]!.split('.')[0]!.trim();
    if (!local.has(name) && !name.startsWith('AWS::')) out.push(name);
  }
  return out;
}

/** Every logical id `v` refers to (pseudo parameters and template parameters included). */
export function referencesIn(v: Json): string[] {
  const out: string[] = [];
  const walk = (x: Json): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isObject(x)) return;
    const fn = intrinsic(x);
    if (fn === 'Ref' && typeof x.Ref === 'string') {
      if (!x.Ref.startsWith('AWS::')) out.push(x.Ref);
      return;
    }
    if (fn === 'Fn::GetAtt') {
      const a = x['Fn::GetAtt'];
      const target = Array.isArray(a) ? a[0] : typeof a === 'string' ? a.split('.')[0] : undefined;
      if (typeof target === 'string') out.push(target);
      if (Array.isArray(a)) a.slice(1).forEach(walk);
      return;
    }
    if (fn === 'Fn::Sub') {
      const a = x['Fn::Sub'];
      if (typeof a === 'string') out.push(...subNames(a, new Set()));
      else if (Array.isArray(a) && typeof a[0] === 'string') {
        const vars = isObject(a[1]!) ? a[1] : {};
        out.push(...subNames(a[0], new Set(Object.keys(vars))));
        Object.values(vars).forEach(walk);
      }
      return;
    }
    // Fn::If: the condition name is not a resource; both branches are walked.
    if (fn === 'Fn::If' && Array.isArray(x['Fn::If'])) return (x['Fn::If'] as Json[]).slice(1).forEach(walk);
    Object.values(x).forEach(walk);
  };
  walk(v);
  return out;
}

/** Edges from each resource to the resources it depends on. */
export function dependencyGraph(t: Template): Graph {
  const g: Graph = new Map();
  for (const [id, r] of Object.entries(t.Resources)) {
    const deps = new Set<string>();
    const dependsOn =
      r.DependsOn === undefined ? [] : Array.isArray(r.DependsOn) ? r.DependsOn : [r.DependsOn];
    for (const d of [...dependsOn, ...referencesIn((r.Properties ?? {}) as Json)])
      if (d in t.Resources) deps.add(d);
    g.set(id, deps);
  }
  return g;
}

/** Names a resource refers to that are neither a resource nor a parameter of the template. */
export function danglingReferences(t: Template): string[] {
  const out: string[] = [];
  for (const [id, r] of Object.entries(t.Resources)) {
    const dependsOn =
      r.DependsOn === undefined ? [] : Array.isArray(r.DependsOn) ? r.DependsOn : [r.DependsOn];
    for (const d of [...dependsOn, ...referencesIn((r.Properties ?? {}) as Json)])
      if (!(d in t.Resources) && !(d in (t.Parameters ?? {}))) out.push(`${id} -> ${d}`);
  }
  return out;
}

/** Every cycle's resources, in order (Tarjan's strongly connected components of two or more, or a self-loop). */
export function cycles(g: Graph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || g.get(v)?.has(v)) out.push(scc.sort());
    }
  };
  for (const v of [...g.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}
