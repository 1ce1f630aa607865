// NiFiKop versions and which steps around objectmatcher's Calculate each runs in
// reconcileNifiPod (konpyutaika/nifikop, pkg/resources/nifi/nifi.go). Read from its source; see
// README.md in this folder for the files and versions each line was read from.
//
// Boundaries (CHANGELOG.md of konpyutaika/nifikop for 1.12.0 and 1.14.0, issue 30 for 1.15.0):
//   < 1.12      the plain three-way diff after the toleration merge (koperator's code).
//   1.12, 1.13  PR #476: Calculate options; webhook-injected containers and init containers merged
//               into the desired pod by name when the live pod has more (every pod); for a live
//               pod annotated `istio.io/rev`, `prometheus.io/port` dropped from both pods and the
//               desired liveness probe of the `nifi` container copied onto the live one.
//   1.14        PR #500: Zarf's image rewrite of the `nifi` container tolerated (`zarf-agent` label).
//   >= 1.15     PR #607: Linkerd-injected annotations, volumes and mounts merged into the desired
//               pod; a patch whose only top-level key is `spec`, with only `$setElementOrder/…`
//               keys, counts as in sync (with the same gates as an empty patch).

export interface NifikopSteps {
  /** Calculate(current, desired, IgnoreStatusFields, IgnoreVolumeClaimTemplateTypeMetaAndStatus, IgnorePDBSelector). */
  calculateOptions: boolean;
  /** Live init containers and containers appended to the desired ones (deduplicated by name) when the live pod has more. */
  mergeInjectedContainers: boolean;
  /** For a live pod annotated `istio.io/rev`: `prometheus.io/port` out of both; desired `nifi` liveness probe onto the live one. */
  istio: boolean;
  /** For a live pod labelled `zarf-agent`: the desired `nifi` image set to the live one when it is the live one without Zarf's host and `-zarf…` tag suffix. */
  zarf: boolean;
  /** For a Linkerd-injected live pod: its `linkerd.io/`, `config.linkerd.io/` annotations, `linkerd-*`/`kube-api-access-*` volumes and mounts merged into the desired pod. */
  linkerd: boolean;
  /** A non-empty patch of `$setElementOrder/…` keys under `spec` only counts as in sync. */
  orderOnlyInSync: boolean;
  /**
   * An error from Calculate falls through to the delete (logged `could not match pod objects`).
   * True in the plain versions read; the PR #607 code returns the error instead (no delete).
   * Where between them it changed is not known (the 1.12 and 1.14 sources were not available):
   * assumed to change with 1.15. A guess.
   */
  calculateErrorDeletes: boolean;
}

export interface NifikopVersionRange {
  /** Short name of the range. */
  label: string;
  /** First version of the range (inclusive). */
  from: string;
  /** A released version inside the range, used when a question is asked per range. */
  representative: string;
  /** Where its steps come from. */
  source: string;
  steps: NifikopSteps;
}

const PLAIN: NifikopSteps = {
  calculateOptions: false,
  mergeInjectedContainers: false,
  istio: false,
  zarf: false,
  linkerd: false,
  orderOnlyInSync: false,
  calculateErrorDeletes: true,
};

/** The ranges of NiFiKop versions whose reconcileNifiPod decides differently, oldest first. */
export const NIFIKOP_VERSION_RANGES: readonly NifikopVersionRange[] = [
  {
    label: '<1.12',
    from: '0.0.0',
    representative: '1.11.4',
    source: 'pkg/resources/nifi/nifi.go before PR #476 (plain Calculate, no options)',
    steps: PLAIN,
  },
  {
    label: '1.12-1.13',
    from: '1.12.0',
    representative: '1.12.0',
    source: 'PR #476 (CHANGELOG v1.12.0)',
    steps: { ...PLAIN, calculateOptions: true, mergeInjectedContainers: true, istio: true },
  },
  {
    label: '1.14',
    from: '1.14.0',
    representative: '1.14.0',
    source: 'PR #500 (CHANGELOG v1.14.0)',
    steps: { ...PLAIN, calculateOptions: true, mergeInjectedContainers: true, istio: true, zarf: true },
  },
  {
    label: '>=1.15',
    from: '1.15.0',
    representative: '1.15.0',
    source: 'PR #607 (issue #603)',
    steps: {
      calculateOptions: true,
      mergeInjectedContainers: true,
      istio: true,
      zarf: true,
      linkerd: true,
      orderOnlyInSync: true,
      calculateErrorDeletes: false,
    },
  },
];

export type SemVer = [number, number, number];

/**
 * A NiFiKop version from a version string or an image tag: `1.15.0`, `v1.16.0-release`,
 * `1.17`. Returns null when no `major.minor` can be read.
 */
export function parseNifikopVersion(text: string): SemVer | null {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (m === null) return null;
  return [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])];
}

/**
 * NiFiKop's version from its operator image (`ghcr.io/konpyutaika/docker-images/nifikop:v1.17.0-release`),
 * null for another image or a tag with no version (`latest`, a digest only).
 */
export function nifikopImageVersion(image: string): string | null {
  const m = /(?:^|\/)nifikop:([^@/:]+)(?:@.*)?$/.exec(image.trim());
  const v = m ? parseNifikopVersion(m[1]) : null;
  return v ? v.join('.') : null;
}

function compare(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The range a version falls in; throws on a version that cannot be read. */
export function nifikopVersionRange(version: string): NifikopVersionRange {
  const v = parseNifikopVersion(version);
  if (v === null) throw new Error(`not a NiFiKop version: ${JSON.stringify(version)}`);
  let found = NIFIKOP_VERSION_RANGES[0];
  for (const r of NIFIKOP_VERSION_RANGES) {
    const from = parseNifikopVersion(r.from) as SemVer;
    if (compare(v, from) >= 0) found = r;
  }
  return found;
}

export function nifikopSteps(version: string): NifikopSteps {
  return nifikopVersionRange(version).steps;
}
