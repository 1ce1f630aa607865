// Advice for a NiFiKop restart loop: the version whose steps keep the pod, and each injector's opt-out.
import { injectorsOf, nifikopRecommendation } from '../../lib/nifikop/recommendation';
import { DESIRED, edit, istio, linkerd, live, mirror, states, zarf } from './fixtures';

const LIVE = live(DESIRED);
const HTTP_READINESS = edit(DESIRED, (p) => {
  p.spec!.containers[0].readinessProbe = { httpGet: { path: '/nifi-api', port: 8080 } };
});

describe('nifikopRecommendation', () => {
  it('finds the injectors on the live pod', () => {
    expect(injectorsOf(istio(LIVE))).toEqual(['istio']);
    expect(injectorsOf(linkerd(zarf(LIVE)))).toEqual(['linkerd', 'zarf']);
    expect(injectorsOf(LIVE)).toEqual([]);
  });

  it('Zarf on 1.13: upgrade to 1.14, or keep Zarf off the pods', () => {
    const r = nifikopRecommendation(states(DESIRED, zarf(LIVE)), '1.13.0');
    expect(r.upgradeTo).toBe('1.14.0');
    expect(r.text).toBe(
      "NiFiKop 1.14.0 or later keeps this pod (PR #500 (CHANGELOG v1.14.0)); label the NiFi pods `zarf.dev/agent: ignore` (NifiCluster `spec.pod.labels`), or write the image as Zarf's registry holds it.",
    );
  });

  it('no upgrade advice when the running version already has the steps', () => {
    const r = nifikopRecommendation(states(DESIRED, linkerd(LIVE)), '1.16.0');
    expect(r.upgradeTo).toBeNull();
  });

  it('Istio HTTP readiness rewrite: no version helps; the rewrite can be turned off', () => {
    const r = nifikopRecommendation(states(HTTP_READINESS, istio(live(HTTP_READINESS))), '1.17.0');
    expect(r.upgradeTo).toBeNull();
    expect(r.text).toContain('no NiFiKop version keeps this pod');
    expect(r.text).toContain('sidecar.istio.io/rewriteAppHTTPProbers: "false"');
    expect(r.text).toContain('sidecar.istio.io/inject: "false"');
  });

  it('an unknown rewriter: nothing but the plain statement', () => {
    expect(nifikopRecommendation(states(DESIRED, mirror(LIVE))).text).toBe(
      'no NiFiKop version keeps this pod: the difference is not one its steps tolerate.',
    );
  });
});
