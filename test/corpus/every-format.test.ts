// One simulated cluster, written in every container format the readers accept, must give
// the same findings as its truth: the formats change the bytes, never the answer. NiFiKop runs
// beside koperator (its lines keep its own `time` key in every operator-log container).
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { simulateCluster, type SimOptions } from '../../sim';
import { AUDIT_CONTAINERS, encodeAudit, encodeOperator, type OperatorContainer } from '../../sim/encode';
import { allOperators, contractMistakes, type ExpectedDocument } from '../support/contract-match';

async function mistakesFor(
  sim: ReturnType<typeof simulateCluster>,
  audit: (typeof AUDIT_CONTAINERS)[number],
  operator: OperatorContainer,
): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'every-format-'));
  try {
    writeFileSync(path.join(dir, 'audit'), encodeAudit(audit, sim.audit));
    writeFileSync(path.join(dir, 'operator'), encodeOperator(operator, sim.operator));
    // No --nifikop-version: the version is read from NiFiKop's Deployment in the audit log.
    const doc = await analyzeInputs([dir], defaultAnalysisOptions(), {});
    const learned = doc.recreations.find((r) => r.operator === 'nifikop')?.evidence ?? [];
    if (
      !learned.some((e) =>
        e.startsWith(`NiFiKop ${NIFIKOP_VERSION} (replayed as 1.12-1.13), read from its image`),
      )
    )
      return [`NiFiKop's version not read from its image: ${learned.join('; ')}`];
    return contractMistakes(
      allOperators(sim.truth as ExpectedDocument & { nifikop?: ExpectedDocument }),
      doc,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const START = '2026-11-03T08:00:00Z';
const NIFIKOP_VERSION = '1.13.0';
// Two scenarios 1.13 decides on: Linkerd's container order (an order-only patch) and a config
// change; debug lines for the states a Metadata-level log lacks.
const nifikop = (debug: boolean): SimOptions['nifikop'] => ({
  version: NIFIKOP_VERSION,
  scenarios: ['linkerd', 'config-change'],
  debug,
});

describe.each(['RequestResponse', 'Metadata'] as const)(
  'every audit container, audit level %s',
  (auditLevel) => {
    // A pretty-printed EventList is one document; keep it under the 8 MiB record cap.
    const small: Partial<SimOptions> = {
      scenarios: ['scaleops-loop', 'eviction', 'inplace-resize'],
      noiseRatio: 0.2,
    };
    it.each(AUDIT_CONTAINERS.map((c) => [c]))('%s', async (container) => {
      const opts = container === 'audit-eventlist-pretty' ? small : {};
      const sim = simulateCluster({
        seed: 3,
        start: START,
        auditLevel,
        nifikop: nifikop(auditLevel === 'Metadata'),
        ...opts,
      });
      expect(await mistakesFor(sim, container, 'zap-json')).toEqual([]);
    });
  },
);

describe('every operator-log container', () => {
  const sim = simulateCluster({ seed: 4, start: START, auditLevel: 'Metadata', nifikop: nifikop(true) });
  it.each(['cri', 'fluent-bit-operator', 'zap-json-epoch'] as const)('%s', async (container) => {
    expect(await mistakesFor(sim, 'audit-jsonl', container)).toEqual([]);
  });
});
