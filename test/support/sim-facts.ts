// The facts of a simulated cluster, projected as the pipeline projects records.
import { projectRecord } from '../../lib/facts/project';
import type { Fact } from '../../lib/model/facts';
import type { simulateCluster } from '../../sim';

const at = { source: 'sim', line: 0 };

export function simulatedFacts(sim: ReturnType<typeof simulateCluster>): Fact[] {
  const facts: Fact[] = [];
  for (const event of sim.audit) {
    const f = projectRecord({ kind: 'audit', event, format: 'audit-jsonl', at });
    if (f) facts.push(f);
  }
  for (const line of sim.operator) {
    const f = projectRecord({ kind: 'operator', line, format: 'zap-json', at });
    if (f) facts.push(f);
  }
  return facts;
}
