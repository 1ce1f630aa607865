// Autoscalers that rewrite pods' resources, recognised by the names they write under, and each
// one's own switch for a set of pods. An autoscaler's webhook configuration is managed by the
// autoscaler itself (its chart or operator puts a hand-edited namespaceSelector back), and its
// in-place resizes come from its updater, not from a webhook at all: the remedy that lasts is the
// autoscaler's own setting.

export interface KnownAutoscaler {
  name: string;
  /** A field's writer (`fields[].by`: a `configuration/webhook`, a user, or explain-pod's marker name). */
  writes: RegExp;
  /** How to stop it writing these pods, as an imperative clause. */
  offSwitch: string;
  /**
   * What the other switch leaves running, where one looks enough and is not: said beside the
   * off switch for the mechanism it concerns.
   */
  caveat?: { admission?: string; resize?: string };
}

export const KNOWN_AUTOSCALERS: readonly KnownAutoscaler[] = [
  {
    name: 'the Vertical Pod Autoscaler',
    // The updater (in-place resizes and evictions), the admission controller's webhook
    // (vpa-webhook-config/vpa.k8s.io) and explain-pod's name for its marks on a pod.
    writes:
      /(^system:serviceaccount:[^:]+:vpa-(updater|admission-controller)$)|(^vpa-webhook-config\/)|(\/vpa\.k8s\.io$)|(^Vertical Pod Autoscaler)/,
    offSwitch:
      'set that VerticalPodAutoscaler\'s updatePolicy.updateMode to "Off", or give the broker container a ' +
      'resourcePolicy.containerPolicies entry with mode: "Off"',
    caveat: {
      // VPA's quick start: every mode but Off assigns requests at pod creation.
      admission:
        'its admission controller sets the requests at every pod create in every mode but "Off", "Initial" included',
      resize:
        '"Initial" stops the in-place resizes, but its admission controller then sets the requests at every pod create, ' +
        'which koperator before the fix reverts the same way',
    },
  },
  {
    name: 'ScaleOps',
    writes: /scaleops/i,
    offSwitch:
      "turn ScaleOps' automation off for these pods in ScaleOps' own policy for the Kafka workload or namespace",
  },
  {
    name: 'PerfectScale',
    writes: /perfectscale|psc-autoscaler/i,
    offSwitch:
      'disable its automation for the Kafka namespace (a NamespaceAutomationConfig, or a WorkloadAutomationConfig for ' +
      'the workload, with automation.operational.automationMode: Disabled)',
  },
];

/** The known autoscaler behind a writer, or null. */
export function knownAutoscaler(by: string): KnownAutoscaler | null {
  return KNOWN_AUTOSCALERS.find((a) => a.writes.test(by)) ?? null;
}
