// summary.fixImpact against a count made by hand, here, from the truth's recreations and the
// raw audit events: the rules of drift.md written out again, independently of
// lib/analyze/fix-impact.ts, lib/analyze/readiness.ts and the projection.
import { promises as fs } from 'fs';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { createIngestStats, readObject } from '../../lib/ingest';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { listLocal } from '../../lib/sources/local';
import { describeWithCorpus, SCENARIOS, SHARED_CORPUS } from '../support/shared-corpus';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
/** From a real kube-apiserver: a person's image swap that the pre-fix operator reverted. */
const DRIFT = path.join(SHARED_CORPUS, 'drift');

interface TruthRecreation {
  namespace: string;
  classification: string;
  deletedPod: { deletedAt: string };
  createdPod: { name: string; createdAt: string } | null;
  fields: Array<{ by: string | null }>;
  wouldRestart: { intentDiff: boolean } | null;
}

const VPA_UPDATER = 'system:serviceaccount:kube-system:vpa-updater';

/** `configuration/webhook`: no user name in these corpora has a slash and no `@` or `:`. */
function byMachine(by: string | null): boolean {
  if (by === null) return false;
  if (by === VPA_UPDATER) return true;
  return by.includes('/') && !by.includes('@') && !by.includes(':');
}

/** First Ready=True pod status write per `namespace/name`, read straight off the audit events. */
async function firstReadyWrites(input: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const stats = createIngestStats();
  for await (const obj of listLocal(input)) {
    for await (const rec of readObject(obj, stats)) {
      if (rec.kind !== 'audit') continue;
      const e = rec.event;
      const code = e.responseStatus?.code;
      if (e.stage !== 'ResponseComplete' || e.objectRef?.resource !== 'pods') continue;
      if (e.objectRef.subresource !== 'status' || (typeof code === 'number' && (code < 200 || code > 299)))
        continue;
      const body = e.requestObject as { status?: { conditions?: Array<{ type?: string; status?: string }> } };
      const ready = body?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      if (!ready) continue;
      const key = `${e.objectRef.namespace}/${e.objectRef.name}`;
      const t = Date.parse(e.requestReceivedTimestamp);
      if (!out.has(key) || t < out.get(key)!) out.set(key, t);
    }
  }
  return out;
}

async function handCount(dir: string, logs: string) {
  const truth = JSON.parse(await fs.readFile(path.join(dir, 'expected.json'), 'utf8')) as {
    recreations: TruthRecreation[];
  };
  const readyAt = await firstReadyWrites(logs);
  let avoidable = 0;
  let tampers = 0;
  let downtime = 0;
  let avoidableDowntime = 0;
  let anyReady = false;
  for (const r of truth.recreations) {
    const revert = r.classification === 'external-mutation-revert' && r.wouldRestart?.intentDiff === false;
    const isAvoidable = revert && r.fields.length > 0 && r.fields.every((f) => byMachine(f.by));
    if (isAvoidable) avoidable++;
    else if (revert && r.fields.some((f) => f.by !== null && !byMachine(f.by))) tampers++;
    if (!r.createdPod) continue;
    const ready = readyAt.get(`${r.namespace}/${r.createdPod.name}`);
    if (ready !== undefined) anyReady = true;
    const end = ready ?? Date.parse(r.createdPod.createdAt);
    const seconds = (end - Date.parse(r.deletedPod.deletedAt)) / 1000;
    downtime += seconds;
    if (isAvoidable) avoidableDowntime += seconds;
  }
  return {
    // A downscale (the contract: intent-change, no successor, no fields) is no recreation.
    recreations: truth.recreations.filter(
      (r) => !(r.createdPod === null && r.classification === 'intent-change' && r.fields.length === 0),
    ).length,
    avoidable,
    tampers,
    downtime,
    avoidableDowntime,
    from: anyReady ? 'ready' : 'create',
  };
}

const corpora: Array<[string, string, string]> = [
  ['examples', EXAMPLES, path.join(EXAMPLES, 'logs')],
  ['shared scenario corpus', SCENARIOS, SCENARIOS],
  ['shared drift corpus', DRIFT, DRIFT],
];

for (const [name, dir, logs] of corpora) {
  describeWithCorpus(dir, `fix impact on the ${name}`, () => {
    it('equals the hand count from the truth’s recreations and the raw status writes', async () => {
      const [hand, doc] = await Promise.all([
        handCount(dir, logs),
        analyzeInputs([logs], defaultAnalysisOptions(), {}),
      ]);
      const fi = doc.summary.fixImpact as Record<string, unknown>;
      // The corpora must exercise what is counted, or the equalities below say little.
      expect(hand.avoidable + hand.tampers).toBeGreaterThan(0);
      expect(hand.from).toBe('ready');
      expect({
        recreations: fi.recreations,
        avoidableWithFix: fi.avoidableWithFix,
        revertedTampers: fi.revertedTampers,
        downtimeFrom: fi.downtimeFrom,
      }).toEqual({
        recreations: hand.recreations,
        avoidableWithFix: hand.avoidable,
        revertedTampers: hand.tampers,
        downtimeFrom: hand.from,
      });
      // Rounded to 0.1 s by the analysis; summed from milliseconds here.
      expect(Math.abs((fi.downtimeSeconds as number) - hand.downtime)).toBeLessThanOrEqual(0.1);
      expect(Math.abs((fi.avoidableDowntimeSeconds as number) - hand.avoidableDowntime)).toBeLessThanOrEqual(
        0.1,
      );
    });
  });
}
