// The fight detectors over the project's simulator (sim/fights/): clusters with fights drawn
// with other names, periods and webhooks on every seed, shipped in every container format the
// readers know (so the byte pre-filter is on trial too), at RequestResponse and at Metadata
// level. Every fight of the truth is found with its writers, fields, mutators, count and
// times; the negatives (rollouts, an autoscaler alone, drains, leases, status writes,
// cooperating writers on different keys...) report nothing.
import { Readable } from 'stream';
import type { AuditEvent } from '../../lib/model/audit';
import type { Fight } from '../../lib/model/findings';
import { findFights } from '../../lib/fights';
import { createIngestStats } from '../../lib/ingest/stats';
import { collectFacts } from '../../lib/pipeline/analyze-inputs';
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { simulateCluster } from '../../sim';
import { AUDIT_CONTAINERS, encodeAudit, type AuditContainer } from '../../sim/encode';
import {
  METADATA_SILENT,
  NEGATIVES,
  simulateFights,
  variedFights,
  type FightLevel,
  type FightTruth,
  type NegativeName,
} from '../../sim/fights';
import { Rng } from '../../sim/rng';

async function fightsOf(events: AuditEvent[], container: AuditContainer = 'audit-jsonl'): Promise<Fight[]> {
  const body = encodeAudit(container, events, { gzip: true });
  const objects = (async function* () {
    yield { name: `audit.${container}.gz`, size: body.length, open: async () => Readable.from([body]) };
  })();
  const facts = await collectFacts(objects, createIngestStats());
  return findFights(facts, defaultAnalysisOptions());
}

const key = (f: Pick<Fight, 'kind' | 'namespace' | 'target'>) =>
  `${f.kind} ${f.namespace ?? '-'}/${f.target.resource}/${f.target.name}`;

/** The mistakes of `got` against the truth, as readable lines (empty when it matches). */
function mistakes(truth: FightTruth[], got: Fight[], times = true): string[] {
  const out: string[] = [];
  const left = [...got];
  for (const t of truth) {
    const i = left.findIndex((f) => key(f) === key(t));
    if (i < 0) {
      out.push(`missing ${key(t)} (count ${t.count})`);
      continue;
    }
    const [f] = left.splice(i, 1);
    const k = key(t);
    if (f.count !== t.count) out.push(`${k}: count ${f.count}, truth ${t.count}`);
    if ([...f.writers].sort().join() !== [...t.writers].sort().join()) out.push(`${k}: writers ${f.writers}`);
    const fields = new Set(f.fields);
    for (const p of t.fields) if (!fields.has(p)) out.push(`${k}: missing field ${p}`);
    if (t.kind === 'hot-loop' || t.kind === 'field-fight')
      for (const p of f.fields) if (!t.fields.includes(p)) out.push(`${k}: extra field ${p}`);
    for (const m of t.mutators)
      if (!f.mutators.some((x) => x.includes(m))) out.push(`${k}: missing mutator ${m}`);
    if (times && f.firstAt !== t.firstAt) out.push(`${k}: firstAt ${f.firstAt}, truth ${t.firstAt}`);
    if (times && f.lastAt !== t.lastAt) out.push(`${k}: lastAt ${f.lastAt}, truth ${t.lastAt}`);
    if (f.target.slot !== t.target.slot) out.push(`${k}: slot ${f.target.slot}, truth ${t.target.slot}`);
    if (!f.recommendation) out.push(`${k}: no recommendation`);
    if (f.evidence.length === 0) out.push(`${k}: no evidence`);
  }
  for (const f of left) out.push(`extra ${key(f)} (count ${f.count})`);
  return out;
}

describe('fights over simulated clusters', () => {
  const levels: FightLevel[] = ['RequestResponse', 'Metadata'];
  const cases = [1, 2, 3, 4, 5, 6].flatMap((seed) => levels.map((level) => ({ seed, level })));
  it.each(cases)('seed $seed at $level: every fight found, the negatives silent', async ({ seed, level }) => {
    const sim = simulateFights({
      seed,
      start: '2026-11-09T14:00:00Z',
      level,
      fights: variedFights(new Rng(seed).fork('fights')),
      negatives: level === 'Metadata' ? [...METADATA_SILENT] : (Object.keys(NEGATIVES) as NegativeName[]),
    });
    expect(sim.truth.length).toBeGreaterThanOrEqual(level === 'Metadata' ? 5 : 6);
    expect(mistakes(sim.truth, await fightsOf(sim.audit))).toEqual([]);
  });

  // Every reader's container: the pre-filter sees the same events escaped, wrapped, listed.
  // A GKE LogEntry has one time (the request's end), which its reader gives both stamps.
  it.each(AUDIT_CONTAINERS.map((container) => ({ container })))(
    'the same fights through $container',
    async ({ container }) => {
      const sim = simulateFights({
        seed: 11,
        start: '2026-11-09T14:00:00Z',
        level: 'RequestResponse',
        fights: variedFights(new Rng(11).fork('fights')),
        negatives: ['rollout', 'hpa-alone', 'cooperating-annotations', 'drain'],
      });
      expect(mistakes(sim.truth, await fightsOf(sim.audit, container), container !== 'gke-logentry')).toEqual(
        [],
      );
    },
  );

  it.each((Object.keys(NEGATIVES) as NegativeName[]).map((negative) => ({ negative })))(
    '$negative alone reports nothing',
    async ({ negative }) => {
      const sim = simulateFights({
        seed: 5,
        start: '2026-11-09T14:00:00Z',
        level: 'RequestResponse',
        fights: [],
        negatives: [negative],
      });
      expect(sim.audit.length).toBeGreaterThan(0);
      expect(await fightsOf(sim.audit)).toEqual([]);
    },
  );

  it("a run split by a gap longer than --loop-max-gap is two fights; the second carries the first one's state", async () => {
    const [, , replicas] = variedFights(new Rng(3).fork('fights'));
    if (replicas.kind !== 'replicas') throw new Error('not the replicas fight');
    const sim = simulateFights({
      seed: 3,
      start: '2026-11-09T14:00:00Z',
      level: 'RequestResponse',
      fights: [
        { kind: 'replicas', spec: { ...replicas.spec, rounds: 6, periodSeconds: 20 } },
        { kind: 'replicas', spec: { ...replicas.spec, rounds: 4, periodSeconds: 20 } },
      ],
      gapSeconds: 1200,
    });
    const got = await fightsOf(sim.audit);
    // Only the first write in the data establishes: after the gap, the GitOps tool's first
    // patch already undoes the autoscaler's change (fights.md, "Field-fight count").
    expect(got.map((f) => f.count)).toEqual([2 * 6 - 1, 2 * 4]);
    expect(got.map((f) => f.firstAt)).toEqual(
      sim.truth.map((t, i) => (i === 0 ? t.firstAt : got[1].firstAt)),
    );
    expect(new Date(got[1].firstAt).getTime() - new Date(got[0].lastAt).getTime()).toBeGreaterThan(600_000);
  });
});

describe('koperator broker pods keep their replay', () => {
  it('a koperator loop beside the fights is in loops, never in fights, and the fights are unchanged', async () => {
    const kop = simulateCluster({
      seed: 7,
      start: '2026-11-09T14:00:00Z',
      scenarios: ['scaleops-loop', 'manual-delete'],
      noiseRatio: 0.3,
    });
    const sim = simulateFights({
      seed: 7,
      start: '2026-11-09T14:00:00Z',
      level: 'RequestResponse',
      fights: variedFights(new Rng(7).fork('fights')),
    });
    const all = [...kop.audit, ...sim.audit];
    const body = encodeAudit('audit-jsonl', all, { gzip: true });
    const objects = (async function* () {
      yield { name: 'audit.gz', size: body.length, open: async () => Readable.from([body]) };
    })();
    const facts = await collectFacts(objects, createIngestStats());
    const result = analyzeFacts(facts, defaultAnalysisOptions());
    expect(result.loops.map((l) => [l.kafkaCluster, l.brokerId, l.count])).toEqual(
      kop.truth.loops.map((l) => [l.kafkaCluster, l.brokerId, l.count]),
    );
    const fights = findFights(facts, defaultAnalysisOptions());
    expect(mistakes(sim.truth, fights)).toEqual([]);
    const brokerNames = new Set(kop.truth.recreations.map((r) => r.kafkaCluster));
    expect(
      fights.filter((f) => brokerNames.has(f.target.name) || f.target.resource === 'kafkaclusters'),
    ).toEqual([]);
  });
});
