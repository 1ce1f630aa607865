// The advice for a revert loop names how each writer changed the pod and gives that writer's own
// remedy: a webhook is excluded from the pods, an autoscaler is told by its own setting (never a
// webhook exclusion), a person or controller is asked to stop, an unknown writer is looked up.
import { loopRecommendation, type WrittenField } from '../../lib/koperator/recommendation';

const CPU = 'spec.containers[name=kafka].resources.requests.cpu';
const AFFINITY = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution';
const VPA_UPDATER = 'system:serviceaccount:kube-system:vpa-updater';

describe('loopRecommendation, external-mutation-revert', () => {
  it.each<[string, WrittenField[], RegExp[], RegExp[]]>([
    [
      'a webhook at admission',
      [{ path: AFFINITY, by: 'spread/affinity.spread.example.com', via: 'admission' }],
      [
        /^spread\/affinity\.spread\.example\.com rewrites spec\.affinity\S+ at admission, at every pod create;/,
        /whose successor the webhook rewrites again/,
        /Exclude the Kafka namespace or these pods from spread\/affinity\.spread\.example\.com \(its namespaceSelector or objectSelector\)/,
        /declare the same values in the KafkaCluster/,
      ],
      [/resize/, /updateMode/],
    ],
    [
      "the VPA updater's in-place resize",
      [{ path: CPU, by: VPA_UPDATER, via: 'resize' }],
      [
        /resizes spec\.containers\[name=kafka\]\.resources\.requests\.cpu in place \(a write to the pod's resize subresource\), and resizes each new broker pod again/,
        /whose successor the autoscaler resizes again/,
        /updateMode to "Off"/,
        /containerPolicies entry with mode: "Off"/,
        /"Initial" stops the in-place resizes, but its admission controller then sets the requests at every pod create/,
      ],
      [/at every pod create;/, /namespaceSelector/, /declare the same values/],
    ],
    [
      "the VPA admission controller's webhook",
      [{ path: CPU, by: 'vpa-webhook-config/vpa.k8s.io', via: 'admission' }],
      [/at admission, at every pod create/, /updateMode to "Off"/, /"Initial" included/],
      [/namespaceSelector/, /declare the same values/],
    ],
    [
      "an unknown autoscaler's resize",
      [{ path: CPU, by: 'system:serviceaccount:rightsizing:resizer', via: 'resize' }],
      [/in place/, /Turn off the in-place resizing of these pods in that autoscaler's own settings/],
      [/namespaceSelector/, /updateMode/],
    ],
    [
      'ScaleOps',
      [{ path: CPU, by: 'system:serviceaccount:scaleops-system:scaleops-updater', via: 'resize' }],
      [/ScaleOps' own policy/],
      [/namespaceSelector/],
    ],
    [
      "a person's patch",
      [{ path: CPU, by: 'alice@example.com', via: 'write' }],
      [
        /alice@example\.com changes \S+ on the running pod \(a patch or update of the pod\)/,
        /Stop alice@example\.com writing/,
      ],
      [/at every pod create/, /namespaceSelector/, /successor/],
    ],
    [
      'no known writer',
      [{ path: CPU, by: null }],
      [/^no record shows who changes spec\.containers/, /Find who writes these fields in the audit log/],
      [/namespaceSelector/],
    ],
    [
      'two writers, each with its own remedy',
      [
        { path: CPU, by: VPA_UPDATER, via: 'resize' },
        { path: AFFINITY, by: 'spread/affinity.spread.example.com', via: 'admission' },
      ],
      [
        /vpa-updater resizes .*; spread\/affinity\.spread\.example\.com rewrites/,
        /updateMode/,
        /namespaceSelector/,
      ],
      [],
    ],
  ])('%s', (_name, written, must, mustNot) => {
    const text = loopRecommendation('external-mutation-revert', written);
    for (const re of must) expect(text).toMatch(re);
    for (const re of mustNot) expect(text).not.toMatch(re);
    expect(text).toMatch(/move to the intent-aware operator \(0\.30\.0-rc1 or later\)\.$/);
  });
});
