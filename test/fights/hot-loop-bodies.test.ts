// fights.md's hot-loop rule, however the writer sends its object: a server-side apply, a
// whole-object JSON merge patch (a typed Go object marshalled: no kind, no apiVersion), a
// strategic-merge patch of the whole spec (a directive, no name) each carrying a fresh hash
// annotation, every ~11 s for 35 writes, are one hot loop each. A plain update (its request
// is already defaulted) and a patch of one field (the response has much the body never
// meant to set) are not hot loops, however often they come.
import { Readable } from 'stream';
import type { AuditEvent } from '../../lib/model/audit';
import type { Fight } from '../../lib/model/findings';
import { findFights } from '../../lib/fights';
import { createIngestStats } from '../../lib/ingest/stats';
import { collectFacts } from '../../lib/pipeline/analyze-inputs';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { simulateFights, type HotLoopSend } from '../../sim/fights';
import { encodeAudit } from '../../sim/encode';

async function fightsOf(events: AuditEvent[]): Promise<Fight[]> {
  const body = encodeAudit('audit-jsonl', events, { gzip: true });
  const objects = (async function* () {
    yield { name: 'audit.jsonl.gz', size: body.length, open: async () => Readable.from([body]) };
  })();
  return findFights(await collectFacts(objects, createIngestStats()), defaultAnalysisOptions());
}

function simulate(send: HotLoopSend) {
  return simulateFights({
    seed: 21,
    start: '2026-11-09T15:00:00Z',
    level: 'RequestResponse',
    fights: [
      {
        kind: 'hot-loop',
        spec: {
          namespace: 'monitoring',
          name: 'vmstorage-archive',
          user: 'system:serviceaccount:monitoring:vm-operator',
          container: 'vmstorage',
          writes: 35,
          periodSeconds: 11,
          send,
        },
      },
    ],
  });
}

describe('a hot loop is found however it is sent', () => {
  it.each<{ send: HotLoopSend }>([{ send: 'apply' }, { send: 'merge' }, { send: 'strategic-merge' }])(
    '$send patches of the whole object: one hot loop with every defaulted field',
    async ({ send }) => {
      const sim = simulate(send);
      const [truth] = sim.truth;
      const patches = sim.audit.filter((e) => e.verb === 'patch' && e.stage === 'ResponseComplete');
      expect(patches).toHaveLength(35);
      // The shapes under test: only apply names its kind.
      const typed = patches.filter((e) => (e.requestObject as { kind?: string }).kind !== undefined);
      expect(typed.length).toBe(send === 'apply' ? 35 : 0);

      const got = await fightsOf(sim.audit);
      expect(got).toHaveLength(1);
      const [f] = got;
      expect(f).toMatchObject({
        kind: 'hot-loop',
        namespace: 'monitoring',
        target: { apiGroup: 'apps', resource: 'statefulsets', name: 'vmstorage-archive' },
        writers: ['system:serviceaccount:monitoring:vm-operator'],
        count: 35,
        firstAt: truth.firstAt,
        lastAt: truth.lastAt,
      });
      expect([...f.fields].sort()).toEqual([...truth.fields].sort());
      expect(f.periodSeconds).toBeGreaterThan(10);
      expect(f.periodSeconds).toBeLessThan(12);
    },
  );

  it.each<{ send: HotLoopSend; why: string }>([
    { send: 'update', why: 'a plain update carries the already-defaulted object' },
    { send: 'replicas-only', why: 'a patch of one field is not the whole object' },
  ])('$send writes every 11 s are not a hot loop: $why', async ({ send }) => {
    const sim = simulate(send);
    expect(sim.truth).toEqual([]);
    const writes = sim.audit.filter(
      (e) => e.user.username?.endsWith(':vm-operator') && e.stage === 'ResponseComplete',
    );
    expect(writes).toHaveLength(35);
    // Each response still has what the request lacks or the writer re-sends the same values:
    // only the body's shape tells these apart from the loop above.
    const generations = writes.map(
      (e) => (e.responseObject as { metadata: { generation: number } }).metadata.generation,
    );
    expect(generations[34] - generations[0]).toBe(34);
    expect(await fightsOf(sim.audit)).toEqual([]);
  });
});
