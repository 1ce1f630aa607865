// The advice a single recreation's alert gives, as every channel words it: the writer's own
// remedy for how it wrote, and a broker removal said as what it is.
import { DOWNSCALE_EVIDENCE } from '../../lib/analyze/removal';
import type { Recreation } from '../../lib/model/findings';
import { toAlertMessage } from '../../lib/notify/message';
import { recommendationFor, recommendationOf, removalRecommendation } from '../../lib/notify/words';
import { ctx, recreation, recreationEvent } from './fixtures';

const adviceFor = (r: Recreation): string =>
  recommendationOf(toAlertMessage({ ...recreationEvent, recreation: r }, { ...ctx }));

describe("a single recreation's advice", () => {
  it.each([
    [
      'a webhook at admission: exclude the pods from it',
      'admission' as const,
      'istio-sidecar-injector/sidecar-injector.istio.io',
      'spec.containers[name=kafka].env',
      /at admission.*exclude the Kafka namespace or these pods from istio-sidecar-injector/i,
    ],
    [
      "an autoscaler resizing in place: the autoscaler's own setting, no webhook exclusion",
      'resize' as const,
      'system:serviceaccount:kube-system:vpa-updater',
      'spec.containers[name=kafka].resources.requests.cpu',
      /resizes .* in place.*updateMode/,
    ],
    [
      "a person's patch: ask them to stop",
      'write' as const,
      'alice@example.com',
      'spec.containers[name=kafka].image',
      /alice@example.com changes .* on the running pod.*stop alice@example.com/i,
    ],
  ])('%s', (_name, via, by, path, said) => {
    const advice = adviceFor({ ...recreation, fields: [{ path, from: 'a', to: 'b', by, via }] });
    expect(advice).toMatch(said);
    expect(advice).not.toBe(recommendationFor('external-mutation-revert'));
    if (via !== 'admission') expect(advice).not.toMatch(/namespaceSelector|exclude the Kafka namespace/);
  });

  it('keeps the general advice when no record names the writer', () => {
    const advice = adviceFor({ ...recreation, fields: [{ path: 'spec.x', from: 'a', to: 'b', by: null }] });
    expect(advice).toBe(recommendationFor('external-mutation-revert'));
  });

  it('says a broker removed by a downscale is one, not an intent change to check for a roll', () => {
    const removal: Recreation = {
      ...recreation,
      classification: 'intent-change',
      createdPod: null,
      fields: [],
      evidence: [`${DOWNSCALE_EVIDENCE} broker 4 left spec.brokers`],
    };
    expect(adviceFor(removal)).toBe(removalRecommendation());
    expect(adviceFor({ ...removal, evidence: [] })).toBe(recommendationFor('intent-change'));
  });
});
