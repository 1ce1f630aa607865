// Hot loops (fights.md): one controller re-sending an object that never converges. It sends
// the whole object without fields the API server defaults, sees the defaulted object as
// different from what it wants, and sends it again: at least 10 writes by one user, no other
// writer meanwhile, each request lacking paths its response has (outside metadata and
// status), with metadata.generation climbing. A plain update carries an already-defaulted
// object, so the loop shows in patch bodies: an apply, a JSON merge or a strategic-merge patch
// of the whole object, judged by its shape (lib/k8s/whole-object-patch.ts), not its kind.
import type { Fight } from '../model/findings';
import { HOT_LOOP_MIN_WRITES, type FightOptions } from './options';
import { hotLoopRecommendation } from './recommendation';
import { evidenceOf, runTiming, splitRuns, type Cycle } from './runs';
import type { ObjectWrite } from './writes';

interface HotWrite extends Cycle {
  w: ObjectWrite;
}

export function findHotLoops(writes: ObjectWrite[], opts: FightOptions, newest: number): Fight[] {
  const minCount = Math.max(HOT_LOOP_MIN_WRITES, opts.loopMinCount);
  const out: Fight[] = [];
  let run: HotWrite[] = [];
  let generation: number | undefined;
  const flush = () => {
    for (const r of splitRuns(run, opts.loopMaxGapSeconds, minCount)) out.push(toFight(r, newest));
    run = [];
  };
  for (const w of writes) {
    const f = w.fact;
    const climbed = f.generation !== undefined && (generation === undefined || f.generation > generation);
    if (f.generation !== undefined) generation = f.generation;
    const hot = f.verb === 'patch' && (f.defaulted?.length ?? 0) > 0 && climbed;
    const sameWriter = run.length === 0 || run[0].w.user === w.user;
    if (!hot || !sameWriter) flush();
    if (hot) run.push({ at: w.at, atText: f.at, w });
  }
  flush();
  return out;
}

function toFight(run: HotWrite[], newest: number): Fight {
  const f = run[0].w.fact;
  // The paths most of the writes leave out: the loop's own, not a one-off omission.
  const seen = new Map<string, number>();
  for (const h of run) for (const p of h.w.fact.defaulted ?? []) seen.set(p, (seen.get(p) ?? 0) + 1);
  const fields = [...seen].filter(([, n]) => n * 2 >= run.length).map(([p]) => p);
  const writer = run[0].w.user;
  const target = { apiGroup: f.apiGroup, resource: f.resource, name: f.name ?? '' };
  return {
    kind: 'hot-loop',
    namespace: f.namespace === '' ? null : f.namespace,
    target,
    writers: [writer],
    mutators: [],
    fields,
    count: run.length,
    ...runTiming(run, newest),
    recommendation: hotLoopRecommendation({ target, writer, fields }),
    evidence: evidenceOf(run.map((h) => h.w.fact.auditID)),
  };
}
