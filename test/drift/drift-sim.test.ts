// The simulator's drift scenarios (an image swap by a person that stands, another controller's
// annotation, a debug container, a declared label removed, an image swap put back by a later
// write, one ended by a pre-fix recreation, and an autoscaler's in-place resize), written in
// every container format the readers accept and at both audit levels: the drifts must match
// the simulator's truth by drift.md's rules, and the recreations the contract's.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { simulateCluster } from '../../sim';
import { AUDIT_CONTAINERS, encodeAudit, encodeOperator } from '../../sim/encode';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';
import { driftMistakes } from '../support/drift-match';

const START = '2026-11-03T08:00:00Z';

/**
 * The truth's drifts with `at` as the container logs it: GKE's LogEntry keeps one time, the
 * API server's response time, which the reader gives as both of the event's times.
 */
function asLogged(container: string, sim: ReturnType<typeof simulateCluster>, bytes: Buffer) {
  if (container !== 'gke-logentry') return sim.truth.drifts;
  const done = new Map(
    sim.audit.filter((e) => e.stage === 'ResponseComplete').map((e) => [e.auditID, e.stageTimestamp]),
  );
  // Nor does it keep objectRef's uid: a uid no entry shows is null (drift.md).
  const text = bytes.toString('utf8');
  return sim.truth.drifts.map((d) => ({
    ...d,
    at: done.get(d.evidence[0]) ?? d.at,
    pod: { ...d.pod, uid: d.pod.uid && text.includes(d.pod.uid) ? d.pod.uid : null },
  }));
}
const SCENARIOS = ['live-drift', 'inplace-resize', 'manual-delete'] as const;

describe.each(['RequestResponse', 'Metadata'] as const)('drift scenarios, audit level %s', (auditLevel) => {
  const sim = simulateCluster({
    seed: 11,
    start: START,
    auditLevel,
    noiseRatio: 0.3,
    scenarios: [...SCENARIOS],
  });

  it('the truth holds every kind of drift the scenarios make', () => {
    const kinds = sim.truth.drifts.map((d) => `${d.kind}/${d.severity}/${d.ended?.how ?? 'stands'}`).sort();
    expect(kinds).toEqual(
      auditLevel === 'RequestResponse'
        ? [
            'ephemeral-container/tamper/stands',
            'image/tamper/pod-deleted',
            'image/tamper/reverted',
            'image/tamper/stands',
            'metadata/change/stands',
            'resources/autoscaler/pod-deleted',
          ]
        : // Without bodies only what the subresource says is reported (drift.md, "Metadata level").
          ['ephemeral-container/tamper/stands', 'resources/autoscaler/pod-deleted'],
    );
  });

  it.each(AUDIT_CONTAINERS.map((c) => [c]))('%s', async (container) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'drift-sim-'));
    try {
      const bytes = Buffer.from(encodeAudit(container, sim.audit));
      writeFileSync(path.join(dir, 'audit'), bytes);
      writeFileSync(path.join(dir, 'operator'), encodeOperator('zap-json', sim.operator));
      const doc = await analyzeInputs([dir], defaultAnalysisOptions(), {});
      expect(driftMistakes(asLogged(container, sim, bytes), doc.drifts ?? [])).toEqual([]);
      expect(contractMistakes(sim.truth as ExpectedDocument, doc)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
