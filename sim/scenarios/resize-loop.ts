// A VPA updater in InPlaceOrRecreate mode (or ScaleOps' in-place rightsizing) resizes a broker
// in place through `pods/resize`, and resizes each successor again at its next update cycle
// (the updater's default loop is one minute). koperator before the fix reverts every resize by
// re-creating the pod: a revert loop with no webhook in it. Each resize is sent in one of the
// forms a client may use, in turn, so every form is attributed within one loop.
import { CLUSTERS } from '../fixtures';
import { RESIZE_FORMS, resizePod } from '../kube';
import { operatorRestart } from '../operator';
import { secs, vpaUpdater, type Scenario } from './common';

export const resizeLoop: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const updater = vpaUpdater(world);
  const brokerId = '4';
  const rounds = RESIZE_FORMS.length + rng.int(0, 2);
  let at = start;
  for (let i = 0; i < rounds; i++) {
    const pod = world.broker(CLUSTERS.search, brokerId);
    const cpu = `${rng.pick([1600, 1700, 1800, 1900])}m`;
    const resize = resizePod(world, pod, updater, at, 'kafka', cpu, RESIZE_FORMS[i % RESIZE_FORMS.length]);
    const r = operatorRestart(world, CLUSTERS.search, brokerId, resize.doneAt + secs(rng, 0.6, 2.5));
    // The successor is ready; the updater's next cycle finds it off its recommendation again.
    at = r.readyAt + secs(rng, 40, 60);
  }
  return at;
};
