// Field fights (fights.md): two writers setting one field of one object to different values,
// in turn. A write *restores* when it puts back the value that the previous change of that
// path replaced, and that change was another user's; the first write of an object only
// establishes its state. Where the level shows no bodies (Metadata), the alternation of
// writers is all there is: a cycle is a write whose user differs from the previous write's.
import type { Fight } from '../model/findings';
import { ABSENT } from '../k8s/object-paths';
import { fieldFightRecommendation } from './recommendation';
import { distinct, evidenceOf, runTiming, splitRuns, type Cycle } from './runs';
import type { ObjectWrite } from './writes';
import type { FightOptions } from './options';

interface Restore extends Cycle {
  user: string;
  /** Whose change each restored path undid. */
  undid: string[];
  paths: string[];
  ids: string[];
  /** Each restored path: the token put back (by `user`) and the one it replaced (by the undone writer). */
  values: Array<[path: string, restored: string, replaced: string, undone: string]>;
}

interface Change {
  replaced: string;
  by: string;
  auditID: string;
}

export function findFieldFights(writes: ObjectWrite[], opts: FightOptions, newest: number): Fight[] {
  const withBodies = writes.some((w) => w.fact.values !== undefined);
  return withBodies ? bodyFights(writes, opts, newest) : metadataFights(writes, opts, newest);
}

function bodyFights(writes: ObjectWrite[], opts: FightOptions, newest: number): Fight[] {
  let state = new Map<string, string>();
  let changes = new Map<string, Change>();
  // Once a whole object was seen, a path it lacks is known to be absent, not unknown.
  let complete = false;
  const restores: Restore[] = [];
  for (const w of writes) {
    const f = w.fact;
    if (f.verb === 'delete') {
      state = new Map();
      changes = new Map();
      complete = false;
      continue;
    }
    if (!f.values) continue;
    const set = new Map(Object.entries(f.values));
    if (f.whole) for (const p of state.keys()) if (!set.has(p)) set.set(p, ABSENT);
    const restored: Restore = {
      at: w.at,
      atText: f.at,
      user: w.user,
      undid: [],
      paths: [],
      ids: [f.auditID],
      values: [],
    };
    for (const [p, token] of set) {
      const prev = state.get(p) ?? (complete ? ABSENT : undefined);
      if (prev === undefined || prev === token) {
        state.set(p, token);
        continue;
      }
      const last = changes.get(p);
      if (last && last.by !== w.user && last.replaced === token) {
        restored.paths.push(p);
        restored.undid.push(last.by);
        restored.ids.push(last.auditID);
        restored.values.push([p, token, prev, last.by]);
      }
      changes.set(p, { replaced: prev, by: w.user, auditID: f.auditID });
      state.set(p, token);
    }
    if (f.whole) complete = true;
    if (restored.paths.length > 0) restores.push(restored);
  }
  const out: Fight[] = [];
  for (const run of splitRuns(restores, opts.loopMaxGapSeconds, opts.loopMinCount)) {
    const perPath = new Map<string, number>();
    for (const r of run) for (const p of r.paths) perPath.set(p, (perPath.get(p) ?? 0) + 1);
    const fields = [...perPath].filter(([, n]) => n >= opts.loopMinCount).map(([p]) => p);
    if (fields.length === 0) continue;
    const writers = distinct(run.flatMap((r) => [r.user, ...r.undid])).sort();
    out.push(
      fight(writes[0], {
        writers,
        fields,
        count: run.length,
        ...runTiming(run, newest),
        evidence: evidenceOf(run.flatMap((r) => r.ids)),
        values: valuesOf(run, fields),
      }),
    );
  }
  return out;
}

/** For each field, the value (token) each writer keeps setting it to. */
function valuesOf(run: Restore[], fields: string[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const p of fields) {
    const byWriter: Record<string, string> = {};
    for (const r of run) {
      for (const [q, restored, replaced, undone] of r.values) {
        if (q !== p) continue;
        byWriter[r.user] = restored;
        byWriter[undone] = replaced;
      }
    }
    out[p] = byWriter;
  }
  return out;
}

function metadataFights(writes: ObjectWrite[], opts: FightOptions, newest: number): Fight[] {
  const cycles: Array<Cycle & { user: string; prev: string; id: string }> = [];
  let prev: string | null = null;
  for (const w of writes) {
    if (w.fact.verb === 'delete') {
      prev = null;
      continue;
    }
    if (prev !== null && w.user !== prev) {
      cycles.push({ at: w.at, atText: w.fact.at, user: w.user, prev, id: w.fact.auditID });
    }
    prev = w.user;
  }
  const out: Fight[] = [];
  for (const run of splitRuns(cycles, opts.loopMaxGapSeconds, opts.loopMinCount)) {
    const writers = distinct(run.flatMap((c) => [c.user, c.prev])).sort();
    out.push(
      fight(writes[0], {
        writers,
        fields: [],
        count: run.length,
        ...runTiming(run, newest),
        evidence: evidenceOf(run.map((c) => c.id)),
        values: {},
      }),
    );
  }
  return out;
}

interface FightBody {
  writers: string[];
  fields: string[];
  count: number;
  firstAt: string;
  lastAt: string;
  periodSeconds: number;
  active: boolean;
  evidence: string[];
  values: Record<string, Record<string, string>>;
}

function fight(first: ObjectWrite, b: FightBody): Fight {
  const f = first.fact;
  const target = { apiGroup: f.apiGroup, resource: f.resource, name: f.name ?? '' };
  const namespace = f.namespace === '' ? null : f.namespace;
  return {
    kind: 'field-fight',
    namespace,
    target,
    writers: b.writers,
    mutators: [],
    fields: b.fields,
    count: b.count,
    firstAt: b.firstAt,
    lastAt: b.lastAt,
    periodSeconds: b.periodSeconds,
    active: b.active,
    recommendation: fieldFightRecommendation({
      target,
      writers: b.writers,
      fields: b.fields,
      values: b.values,
    }),
    evidence: b.evidence,
  };
}
