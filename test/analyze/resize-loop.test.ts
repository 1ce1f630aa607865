// An autoscaler that resizes broker pods in place (pods/resize) at every update cycle makes a
// revert loop under koperator before the fix, with no webhook in it: the simulator's updater
// resizes each successor again, in every write form a client may send, and the analysis finds
// every recreation, the loop, its writer and how it wrote, and advises the autoscaler's own
// setting rather than a webhook exclusion.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { simulateCluster } from '../../sim';
import { RESIZE_FORMS } from '../../sim/kube';
import { contractMistakes, type ExpectedDocument } from '../support/contract-match';
import { simulatedFacts } from '../support/sim-facts';

const UPDATER = 'system:serviceaccount:kube-system:vpa-updater';

describe.each(['RequestResponse', 'Metadata'] as const)(
  'an in-place resize loop, audit level %s',
  (auditLevel) => {
    it.each([1, 2, 5])('seed %d', (seed) => {
      const sim = simulateCluster({
        seed,
        start: '2026-11-03T08:00:00Z',
        auditLevel,
        scenarios: ['resize-loop'],
      });
      const result = analyzeFacts(simulatedFacts(sim), defaultAnalysisOptions());
      expect(contractMistakes(sim.truth as ExpectedDocument, { ...result, summary: {} })).toEqual([]);

      const reverts = result.recreations.filter((r) => r.classification === 'external-mutation-revert');
      expect(reverts.length).toBeGreaterThanOrEqual(RESIZE_FORMS.length);
      for (const r of reverts)
        expect(r.fields.map((f) => [f.path, f.by, f.via])).toEqual([
          ['spec.containers[name=kafka].resources.requests.cpu', UPDATER, 'resize'],
        ]);

      expect(result.loops).toHaveLength(1);
      const [loop] = result.loops;
      expect(loop.mutators).toEqual([UPDATER]);
      expect(loop.recommendation).toMatch(/in place \(a write to the pod's resize subresource\)/);
      expect(loop.recommendation).toMatch(/updateMode to "Off"/);
      expect(loop.recommendation).not.toMatch(/namespaceSelector|at every pod create;/);
    });
  },
);
