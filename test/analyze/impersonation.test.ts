// A request made through impersonation (`kubectl --as`) is the impersonated user's, wherever a
// finding names a user (findings-contract.md, "Users"): here a recreation's deleter, and the
// user behind a reverted field.
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { FactStore } from '../../lib/facts/store';
import { created, event, factsOf, OPERATOR, storedPod } from '../drift/broker-pod-events';

const ADMIN = 'kubernetes-admin';

describe('impersonated requests in recreations', () => {
  it.each([
    ['impersonated', { as: 'bob@corp.example' }, 'bob@corp.example'],
    ['not impersonated', {}, ADMIN],
  ])('a delete %s names its user', (_n, as, deleter) => {
    const events = [
      created(),
      event('delete', { user: ADMIN, second: 10, response: storedPod('101'), ...as }),
    ];
    const { recreations } = analyzeFacts(FactStore.of(factsOf(events)), defaultAnalysisOptions());
    expect(recreations.map((r) => [r.classification, r.deletedPod.deletedBy])).toEqual([
      ['external-deletion', deleter],
    ]);
  });

  it('names the impersonated user as the one who set a reverted field', () => {
    const swapped = storedPod('101', (p) => (p.spec.containers[0].image = 'ghcr.io/adobe/kafka:2.13-4.0.0'));
    const events = [
      created(),
      event('patch', {
        user: ADMIN,
        as: 'bob@corp.example',
        second: 5,
        request: { spec: { containers: [{ name: 'kafka', image: 'ghcr.io/adobe/kafka:2.13-4.0.0' }] } },
        response: swapped,
      }),
      event('delete', { user: OPERATOR, second: 9, response: swapped }),
    ];
    const { recreations } = analyzeFacts(FactStore.of(factsOf(events)), defaultAnalysisOptions());
    expect(recreations.map((r) => [r.classification, r.fields.map((f) => [f.path, f.by])])).toEqual([
      ['external-mutation-revert', [['spec.containers[name=kafka].image', 'bob@corp.example']]],
    ]);
  });
});
