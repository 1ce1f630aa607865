// What NiFiKop decides about a node pod, version by version: the steps reconcileNifiPod
// (konpyutaika/nifikop, pkg/resources/nifi/nifi.go) runs on the desired and live pods around
// k8s-objectmatcher's PatchMaker.Calculate, then Calculate itself (three-way strategic merge
// patch, re-derived as a two-way patch from the live pod to the live pod with the patch applied),
// then the version's reading of the patch. Pure functions over plain pod JSON; inputs are not
// mutated. The shared machinery (typed round trip, strategic merge patches, the toleration merge
// koperator and NiFiKop have in common) is lib/k8s/* and lib/koperator/tolerations.ts.
//
// `changed` means NiFiKop deletes the pod at this reconcile (after its in-sync gates when the
// patch is empty or, from 1.15, order-only); the rolling-upgrade gates (another NiFi pod
// terminating, pending or not ready) only postpone that delete and are not modelled here.

import { diffFields } from '../k8s/field-diff';
import { cloneJson, getIn, isObject, type JsonObject } from '../k8s/json-value';
import { LAST_APPLIED_ANNOTATION } from '../k8s/last-applied';
import { stripNulls } from '../k8s/normalize';
import { APPLY, strategicMerge } from '../k8s/smp-merge';
import {
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  isEmptyPatch,
  type Patch,
} from '../k8s/strategic-merge';
import { typedPod } from '../k8s/typed-pod';
import { LIVE_LAST_APPLIED_MARKER, type FieldDiff } from '../koperator/pod-diff';
import { mergeTolerations } from '../koperator/tolerations';
import { NIFIKOP_VERSION_RANGES, nifikopVersionRange, type NifikopSteps } from './versions';

/** The container NiFiKop's Istio and Zarf steps look at (pod.go: ContainerName). */
export const NIFI_CONTAINER = 'nifi';
export const ISTIO_REV_ANNOTATION = 'istio.io/rev';
export const PROMETHEUS_PORT_ANNOTATION = 'prometheus.io/port';
export const ZARF_AGENT_LABEL = 'zarf-agent';

export interface NifikopPods {
  /** The decoded `banzaicloud.com/last-applied` annotation of the live pod (objectmatcher's original). */
  lastApplied: unknown;
  /** The pod NiFiKop generates now from the NifiCluster (before any step). */
  desired: unknown;
  /** The live pod. */
  live: unknown;
}

/** The NifiCluster status NiFiKop reads before it accepts an empty (or order-only) patch. */
export interface NifikopGates {
  /** status.nodesState[nodeId].configurationState == ConfigInSync (default true). */
  configInSync?: boolean;
  /** k8sutil.IsPodTerminatedOrShutdown(live pod) (default false). */
  terminatedOrShutdown?: boolean;
}

export interface NifikopDecision {
  /** NiFiKop deletes the pod. */
  changed: boolean;
  /** The patch Calculate returned (after its $setElementOrder re-check). */
  patch: Patch;
  /** What the patch would change: `from` the desired (declared) value, `to` the live one. */
  fields: FieldDiff[];
  /** The steps this version ran, in order, as what they did to these pods. */
  steps: string[];
  /** The patch is non-empty and only `$setElementOrder/…` under `spec`. */
  orderOnly: boolean;
  /** Calculate failed (a malformed pod), or a step panicked. */
  error?: string;
  /** The version range that decided. */
  range: string;
}

// ---- the steps, each on plain JSON pods it may mutate (callers pass copies) ----

function metaMap(pod: JsonObject, key: 'labels' | 'annotations'): JsonObject | null {
  const meta = pod.metadata;
  if (!isObject(meta)) return null;
  const m = meta[key];
  return isObject(m) ? m : null;
}

function hasKey(m: JsonObject | null, key: string): boolean {
  return m !== null && Object.prototype.hasOwnProperty.call(m, key);
}

/** Go's `delete(pod.Annotations, key)`; a map left empty is then not written (omitempty). */
function deleteAnnotation(pod: JsonObject, key: string): boolean {
  const annotations = metaMap(pod, 'annotations');
  if (!hasKey(annotations, key)) return false;
  delete (annotations as JsonObject)[key];
  if (Object.keys(annotations as JsonObject).length === 0) delete (pod.metadata as JsonObject).annotations;
  return true;
}

function containerList(pod: JsonObject, field: 'containers' | 'initContainers'): JsonObject[] {
  const list = getIn(pod, ['spec', field]);
  return Array.isArray(list) ? (list.filter(isObject) as JsonObject[]) : [];
}

function nameOf(c: JsonObject): string {
  return typeof c.name === 'string' ? c.name : '';
}

function setSpec(pod: JsonObject, key: string, value: unknown): void {
  if (!isObject(pod.spec)) pod.spec = {};
  (pod.spec as JsonObject)[key] = value;
}

/**
 * PR #476: "If there are extra (init)containers from webhook injections we need to add them":
 * when the live pod has more, the live list is appended to the desired one and the first of
 * each name kept (desired ones first). Returns what it did, or null.
 */
export function mergeInjectedContainers(
  desired: JsonObject,
  live: JsonObject,
  field: 'containers' | 'initContainers',
): string | null {
  const want = containerList(desired, field);
  const have = containerList(live, field);
  if (have.length <= want.length) return null;
  const seen = new Set<string>();
  const merged: JsonObject[] = [];
  for (const c of [...want, ...have]) {
    if (seen.has(nameOf(c))) continue;
    seen.add(nameOf(c));
    merged.push(c);
  }
  setSpec(desired, field, merged);
  const added = merged.slice(want.length).map(nameOf);
  return `${field}: live pod has ${have.length}, desired ${want.length}: merged by name (+${added.join(', ') || 'none'})`;
}

/**
 * PR #476, for a live pod annotated `istio.io/rev`: `prometheus.io/port` out of both pods, and
 * every live `nifi` container given the desired `nifi` container's liveness probe (the last
 * desired `nifi` wins; none, or one without a probe, removes the live probe). The readiness
 * and startup probes are left as they are.
 */
export function istioStep(desired: JsonObject, live: JsonObject): string | null {
  if (!hasKey(metaMap(live, 'annotations'), ISTIO_REV_ANNOTATION)) return null;
  deleteAnnotation(live, PROMETHEUS_PORT_ANNOTATION);
  deleteAnnotation(desired, PROMETHEUS_PORT_ANNOTATION);
  let probe: unknown;
  for (const c of containerList(desired, 'containers'))
    if (nameOf(c) === NIFI_CONTAINER) probe = c.livenessProbe;
  for (const c of containerList(live, 'containers')) {
    if (nameOf(c) !== NIFI_CONTAINER) continue;
    if (probe === undefined || probe === null) delete c.livenessProbe;
    else c.livenessProbe = cloneJson(probe);
  }
  return `istio.io/rev: ${PROMETHEUS_PORT_ANNOTATION} removed from both pods, desired ${NIFI_CONTAINER} liveness probe copied onto the live one`;
}

/** Thrown where NiFiKop's Go code panics (slice bounds): controller-runtime turns it into a reconcile error. */
export class NifikopPanic extends Error {}

/**
 * PR #500, for a live pod labelled `zarf-agent`: the live `nifi` image, split on `/`, less its
 * first part (Zarf's registry host) and with its last part cut at `-zarf`, is "the image before
 * Zarf"; a desired `nifi` image equal to it is replaced by the live image. Any other image (an
 * init container's, a sidecar's, or a desired image written with its registry host) still differs.
 */
export function zarfStep(desired: JsonObject, live: JsonObject): string | null {
  if (!hasKey(metaMap(live, 'labels'), ZARF_AGENT_LABEL)) return null;
  let oldImage = '';
  let currentImage = '';
  for (const c of containerList(live, 'containers')) {
    if (nameOf(c) !== NIFI_CONTAINER) continue;
    const image = typeof c.image === 'string' ? c.image : '';
    const chunks = image.split('/');
    if (chunks.length < 2)
      throw new NifikopPanic(`runtime error: slice bounds out of range [1:0] (image ${image})`);
    const oldTag = chunks[chunks.length - 1].split('-zarf')[0];
    oldImage = `${chunks.slice(1, -1).join('/')}/${oldTag}`;
    currentImage = image;
  }
  let replaced = false;
  for (const c of containerList(desired, 'containers')) {
    if (nameOf(c) !== NIFI_CONTAINER) continue;
    const image = typeof c.image === 'string' ? c.image : '';
    if (image === oldImage) {
      c.image = currentImage;
      replaced = true;
    }
  }
  return replaced
    ? `zarf-agent: desired ${NIFI_CONTAINER} image ${oldImage} taken as the live ${currentImage}`
    : `zarf-agent: live ${NIFI_CONTAINER} image ${currentImage || '(none)'} is not the desired one rewritten (${oldImage || 'nothing'}): kept`;
}

const LINKERD_ANNOTATION_PREFIXES = ['linkerd.io/', 'config.linkerd.io/'];
const LINKERD_VOLUME_PREFIXES = ['linkerd-', 'kube-api-access-'];

export function isLinkerdInjected(live: JsonObject): boolean {
  const annotations = metaMap(live, 'annotations');
  if (hasKey(annotations, 'linkerd.io/proxy-version')) return true;
  const inject = annotations?.['linkerd.io/inject'];
  if (inject === 'enabled' || inject === 'true') return true;
  return containerList(live, 'containers').some((c) => nameOf(c) === 'linkerd-proxy');
}

function startsWithAny(s: string, prefixes: string[]): boolean {
  return prefixes.some((p) => s.startsWith(p));
}

/** Live volume mounts named `linkerd-*`/`kube-api-access-*` appended to the desired container of the same name, by mount name. */
function unionMounts(desired: JsonObject, live: JsonObject, field: 'containers' | 'initContainers'): number {
  const byName = new Map<string, JsonObject>();
  for (const c of containerList(desired, field)) byName.set(nameOf(c), c); // Go: the last index of a name
  let added = 0;
  for (const sc of containerList(live, field)) {
    const dc = byName.get(nameOf(sc));
    if (dc === undefined) continue;
    const mounts = Array.isArray(dc.volumeMounts) ? dc.volumeMounts : [];
    const have = new Set(mounts.filter(isObject).map((m) => String(m.name ?? '')));
    const extra: unknown[] = [];
    for (const m of Array.isArray(sc.volumeMounts) ? sc.volumeMounts : []) {
      const name = isObject(m) && typeof m.name === 'string' ? m.name : '';
      if (!startsWithAny(name, LINKERD_VOLUME_PREFIXES) || have.has(name)) continue;
      extra.push(cloneJson(m));
      have.add(name);
    }
    if (extra.length > 0) {
      dc.volumeMounts = [...mounts, ...extra];
      added += extra.length;
    }
  }
  return added;
}

/** PR #607 (meshAwareMerge), for a Linkerd-injected live pod. */
export function linkerdStep(desired: JsonObject, live: JsonObject): string | null {
  if (!isLinkerdInjected(live)) return null;
  const liveAnnotations = metaMap(live, 'annotations') ?? {};
  const copied = Object.keys(liveAnnotations).filter((k) => startsWithAny(k, LINKERD_ANNOTATION_PREFIXES));
  if (copied.length > 0) {
    if (!isObject(desired.metadata)) desired.metadata = {};
    const meta = desired.metadata as JsonObject;
    const annotations = isObject(meta.annotations) ? meta.annotations : (meta.annotations = {});
    for (const k of copied) (annotations as JsonObject)[k] = liveAnnotations[k];
  }
  const want = getIn(desired, ['spec', 'volumes']);
  const volumes = Array.isArray(want) ? [...want] : [];
  const have = new Set(volumes.filter(isObject).map((v) => String(v.name ?? '')));
  let volumesAdded = 0;
  const liveVolumes = getIn(live, ['spec', 'volumes']);
  for (const v of Array.isArray(liveVolumes) ? liveVolumes : []) {
    const name = isObject(v) && typeof v.name === 'string' ? v.name : '';
    if (!startsWithAny(name, LINKERD_VOLUME_PREFIXES) || have.has(name)) continue;
    volumes.push(cloneJson(v));
    have.add(name);
    volumesAdded++;
  }
  if (volumesAdded > 0) setSpec(desired, 'volumes', volumes);
  const mounts = unionMounts(desired, live, 'containers') + unionMounts(desired, live, 'initContainers');
  return `linkerd: ${copied.length} annotations, ${volumesAdded} volumes, ${mounts} volume mounts merged into the desired pod`;
}

/** PR #607: the patch's only top-level key is `spec`, and every key under it is `$setElementOrder/…`. */
export function isOrderOnlyPatch(patch: Patch): boolean {
  const keys = Object.keys(patch);
  if (keys.length !== 1 || !isObject(patch.spec)) return false;
  const spec = Object.keys(patch.spec);
  return spec.length > 0 && spec.every((k) => k.startsWith('$setElementOrder/'));
}

/**
 * A re-ordering names no field (diffFields pairs list elements by key): each `$setElementOrder/…`
 * under `spec` is reported as the list, `from` the order the patch sets (the desired one, by merge
 * key), `to` the live order.
 */
export function orderFields(patch: Patch, current: unknown): FieldDiff[] {
  const spec = patch.spec;
  if (!isObject(spec)) return [];
  const out: FieldDiff[] = [];
  for (const [k, v] of Object.entries(spec)) {
    if (!k.startsWith('$setElementOrder/') || !Array.isArray(v)) continue;
    const list = k.slice('$setElementOrder/'.length);
    const key = (e: unknown): unknown => (isObject(e) ? (Object.values(e)[0] ?? null) : e);
    const live = getIn(current, ['spec', list]);
    out.push({
      path: `spec.${list}`,
      from: v.map(key),
      to: Array.isArray(live) ? live.map((e) => (isObject(e) && 'name' in e ? e.name : key(e))) : null,
    });
  }
  return out;
}

// ---- Calculate, as objectmatcher v1.8.0 runs it on the two pods ----

function withoutLastApplied(pod: JsonObject): JsonObject {
  const annotations = metaMap(pod, 'annotations');
  if (!hasKey(annotations, LAST_APPLIED_ANNOTATION)) return pod;
  deleteAnnotation(pod, LAST_APPLIED_ANNOTATION);
  return pod;
}

/** The live pod carries its last-applied annotation whenever there is a last-applied state (see pod-diff.ts). */
function withLastApplied(pod: JsonObject): JsonObject {
  if (!isObject(pod.metadata)) pod.metadata = {};
  const meta = pod.metadata as JsonObject;
  if (!isObject(meta.annotations)) meta.annotations = {};
  (meta.annotations as JsonObject)[LAST_APPLIED_ANNOTATION] = LIVE_LAST_APPLIED_MARKER;
  return pod;
}

interface Calculated {
  patch: Patch;
  patched: unknown;
  current: unknown;
}

/**
 * objectmatcher's Calculate(current, modified, opts…): marshal both, run the options, drop nulls
 * and empty strings, three-way patch against the original, and re-derive a non-empty patch as
 * the two-way patch from current to current-with-patch.
 *
 * The options on a Pod: IgnoreStatusFields deletes `status` from current and modified (not from
 * the original, so a three-way patch may carry `status: null`, which the re-derivation drops:
 * no decision changes); IgnoreVolumeClaimTemplateTypeMetaAndStatus only rewrites
 * `spec.volumeClaimTemplates` (a Pod has none: no effect); IgnorePDBSelector only acts on a
 * `policy/*` PodDisruptionBudget (no effect). Only the first is applied, for the patch's sake.
 */
function calculate(original: unknown, desired: JsonObject, live: JsonObject, options: boolean): Calculated {
  const m = withoutLastApplied(desired);
  const c = original === null || original === undefined ? live : withLastApplied(live);
  if (options) {
    delete m.status;
    delete c.status;
  }
  const o = original;
  const mm = stripNulls(m);
  const cc = stripNulls(c);
  const raw = createThreeWayMergePatch(o, mm, cc);
  if (isEmptyPatch(raw)) return { patch: raw, patched: cc, current: cc };
  const patched = strategicMerge(cc, raw, APPLY);
  return { patch: createTwoWayMergePatch(cc, patched), patched, current: cc };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What NiFiKop of this version decides about the live pod. */
export function nifikopDecision(
  version: string,
  pods: NifikopPods,
  gates: NifikopGates = {},
): NifikopDecision {
  const range = nifikopVersionRange(version);
  return decide(range.label, range.steps, pods, gates);
}

function decide(
  rangeLabel: string,
  s: NifikopSteps,
  pods: NifikopPods,
  gates: NifikopGates,
): NifikopDecision {
  const steps: string[] = [];
  const result = (d: Omit<NifikopDecision, 'steps' | 'range'>): NifikopDecision => ({
    ...d,
    steps,
    range: rangeLabel,
  });
  let desired: JsonObject;
  let live: JsonObject;
  try {
    // The Go structs: everything below runs on corev1.Pod values, which is the typed round trip.
    desired = cloneJson(typedPod(pods.desired, 'objectmatcher'));
    live = cloneJson(typedPod(pods.live, 'objectmatcher'));
  } catch (e) {
    return failed(s, steps, rangeLabel, e);
  }
  const merged = mergeTolerations(desired, live) as JsonObject;
  if (merged !== desired) {
    desired = merged;
    steps.push('tolerations: live tolerations appended to the declared ones, duplicates dropped');
  }
  try {
    if (s.mergeInjectedContainers) {
      for (const field of ['initContainers', 'containers'] as const) {
        const note = mergeInjectedContainers(desired, live, field);
        if (note !== null) steps.push(note);
      }
    }
    for (const [on, step] of [
      [s.istio, istioStep],
      [s.zarf, zarfStep],
      [s.linkerd, linkerdStep],
    ] as const) {
      if (!on) continue;
      const note = step(desired, live);
      if (note !== null) steps.push(note);
    }
  } catch (e) {
    // A panic in the reconcile: no delete (controller-runtime reports it as an error).
    steps.push(`panic: ${errorText(e)}: no delete`);
    return result({ changed: false, patch: {}, fields: [], orderOnly: false, error: errorText(e) });
  }
  if (s.calculateOptions) steps.push('Calculate options: status ignored (no other effect on a Pod)');
  let calc: Calculated;
  try {
    calc = calculate(pods.lastApplied, desired, live, s.calculateOptions);
  } catch (e) {
    return failed(s, steps, rangeLabel, e);
  }
  const configInSync = gates.configInSync ?? true;
  const terminated = gates.terminatedOrShutdown ?? false;
  const gatesPass = configInSync && !terminated;
  if (isEmptyPatch(calc.patch)) {
    if (!gatesPass)
      steps.push('empty patch, but the node is not ConfigInSync or the pod is terminated: delete');
    return result({ changed: !gatesPass, patch: calc.patch, fields: [], orderOnly: false });
  }
  const orderOnly = isOrderOnlyPatch(calc.patch);
  const fields = diffFields(calc.current, calc.patched).map((f) => ({
    path: f.path,
    from: f.after,
    to: f.before,
  }));
  if (orderOnly && s.orderOnlyInSync) {
    steps.push(
      gatesPass
        ? 'patch is order-only ($setElementOrder): in sync'
        : 'patch is order-only, but the node is not ConfigInSync or the pod is terminated: delete',
    );
    return result({ changed: !gatesPass, patch: calc.patch, fields, orderOnly });
  }
  return result({ changed: true, patch: calc.patch, fields, orderOnly });
}

function failed(s: NifikopSteps, steps: string[], range: string, e: unknown): NifikopDecision {
  const error = errorText(e);
  steps.push(
    s.calculateErrorDeletes
      ? `Calculate failed (${error}): falls through to the delete`
      : `Calculate failed (${error}): reconcile error, no delete`,
  );
  return { changed: s.calculateErrorDeletes, patch: {}, fields: [], steps, orderOnly: false, error, range };
}

export interface RestartByVersion {
  /** The version range (`<1.12`, `1.12-1.13`, `1.14`, `>=1.15`). */
  range: string;
  /** A released version in it. */
  representative: string;
  restart: boolean;
  decision: NifikopDecision;
}

/** For each range of NiFiKop versions that decides differently, whether it would delete the pod. */
export function wouldRestartByVersion(pods: NifikopPods, gates: NifikopGates = {}): RestartByVersion[] {
  return NIFIKOP_VERSION_RANGES.map((r) => {
    const decision = decide(r.label, r.steps, pods, gates);
    return { range: r.label, representative: r.representative, restart: decision.changed, decision };
  });
}

/** The oldest version range from which the pod would no longer be deleted, or null if none. */
export function firstVersionInSync(pods: NifikopPods, gates: NifikopGates = {}): string | null {
  const rows = wouldRestartByVersion(pods, gates);
  for (let i = 0; i < rows.length; i++) {
    if (rows.slice(i).every((r) => !r.restart)) return rows[i].representative;
  }
  return null;
}
