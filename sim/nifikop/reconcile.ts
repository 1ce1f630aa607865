// The simulator's own model of NiFiKop's reconcileNifiPod (konpyutaika/nifikop,
// pkg/resources/nifi/nifi.go), version by version, to state the ground truth. Written from
// NiFiKop's source and changelog at each boundary, on the simulator's own diff model (../diff.ts:
// declared values against live ones, merge-keyed lists matched by key) and its own reading of
// apimachinery's `$setElementOrder` (a re-ordering the three-way patch asks for), so that the
// truth does not inherit a bug of lib/nifikop or lib/k8s.
//
// Around objectmatcher's Calculate, each version does (desired: the pod NiFiKop generates now;
// live: the pod the API server holds):
//  - every version: koperator's toleration merge (the live tolerations after the declared ones);
//  - 1.12 (PR #476): when the live pod has more containers (or init containers) than the desired
//    one, the live ones are appended to the desired list, the first of each name kept; for a
//    live pod annotated `istio.io/rev`, `prometheus.io/port` is dropped from both pods and the
//    live `nifi` container gets the desired one's liveness probe; Calculate ignores `status`;
//  - 1.14 (PR #500): for a live pod labelled `zarf-agent`, a desired `nifi` image equal to the
//    live one less Zarf's registry host and `-zarf…` tag suffix is taken as the live image (an
//    image with no `/` makes the Go code index out of range: a panic, no delete);
//  - 1.15 (PR #607): for a Linkerd-injected live pod, its `linkerd.io/`/`config.linkerd.io/`
//    annotations, `linkerd-*`/`kube-api-access-*` volumes and mounts join the desired pod; a
//    patch that only re-orders top-level spec lists counts as in sync; a Calculate error no
//    longer falls through to the delete.
// An empty patch still deletes when the node's configuration is out of sync (ConfigOutOfSync).
import type { Pod } from 'kubernetes-types/core/v1';
import {
  declaredDeletions,
  deltaPatch,
  threeWayDelta,
  twoWayDiff,
  withLiveTolerations,
  type DiffEntry,
} from '../diff';
import {
  clone,
  deepEqual,
  isObject,
  sortKeys,
  stripNullsAndEmpty,
  toJson,
  type JsonObject,
  type JsonValue,
} from '../json';
import { withoutLastApplied } from '../operator';
import { formatPath, getPath, mergeKeyOf, type PathSegment } from '../paths';
import { lastAppliedOf } from '../pods';

type Version = readonly [number, number, number];

export interface NifikopRange {
  label: '<1.12' | '1.12-1.13' | '1.14' | '>=1.15';
  from: Version;
  /** PR #476: injected (init) containers merged, Istio's annotation and liveness probe, status ignored. */
  istio: boolean;
  /** PR #500. */
  zarf: boolean;
  /** PR #607: Linkerd's marks merged, an order-only patch in sync, a Calculate error not a delete. */
  linkerd: boolean;
}

export const NIFIKOP_RANGES: readonly NifikopRange[] = [
  { label: '<1.12', from: [0, 0, 0], istio: false, zarf: false, linkerd: false },
  { label: '1.12-1.13', from: [1, 12, 0], istio: true, zarf: false, linkerd: false },
  { label: '1.14', from: [1, 14, 0], istio: true, zarf: true, linkerd: false },
  { label: '>=1.15', from: [1, 15, 0], istio: true, zarf: true, linkerd: true },
];

function versionOf(text: string): Version {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) throw new Error(`simulator: not a NiFiKop version: ${text}`);
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

const atLeast = (v: Version, w: Version): boolean =>
  v[0] !== w[0] ? v[0] > w[0] : v[1] !== w[1] ? v[1] > w[1] : v[2] >= w[2];

/** The range of NiFiKop versions `version` (`1.13.0`, `v1.16.0-release`) belongs to. */
export function rangeOf(version: string): NifikopRange {
  const v = versionOf(version);
  return [...NIFIKOP_RANGES].reverse().find((r) => atLeast(v, r.from))!;
}

/** A field the patch would set: `from` the declared value, `to` the live one (a re-ordering: the merge keys in each order). */
export interface ModelField {
  path: string;
  from: unknown;
  to: unknown;
}

export interface ModelDecision {
  range: NifikopRange['label'];
  /** NiFiKop deletes the pod at this reconcile. */
  deletes: boolean;
  fields: ModelField[];
  /** The patch only re-orders top-level spec lists. */
  orderOnly: boolean;
  /** The patch as the `resource diffs` line logs it. */
  patch: JsonObject;
  /** The pods the steps made of the desired and live ones (objectmatcher's Modified and Current, which the debug line logs). */
  modified: JsonObject;
  current: JsonObject;
  /** A panic in the steps (Zarf on an image with no `/`): no delete. */
  panic?: string;
}

export interface ModelPods {
  /** The live pod's last-applied state (objectmatcher's original). */
  original: JsonObject;
  desired: Pod;
  live: Pod;
}

// ---- the steps, on plain JSON copies ----

const NIFI = 'nifi';

function containersOf(pod: JsonObject, list: 'containers' | 'initContainers'): JsonObject[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec[list]) ? (spec[list] as JsonValue[]).filter(isObject) : [];
}

function mapOf(pod: JsonObject, key: 'labels' | 'annotations'): JsonObject {
  const meta = isObject(pod.metadata) ? pod.metadata : (pod.metadata = {});
  return isObject(meta[key]) ? (meta[key] as JsonObject) : ((meta[key] = {}) as JsonObject);
}

/** `for _, c := range current.Spec.X { if !found(c.Name) { desired.Spec.X = append(desired.Spec.X, c) } }`, when live has more. */
function appendInjected(desired: JsonObject, live: JsonObject): void {
  for (const list of ['initContainers', 'containers'] as const) {
    const mine = containersOf(desired, list);
    const theirs = containersOf(live, list);
    if (theirs.length <= mine.length) continue;
    const names = new Set(mine.map((c) => c.name));
    const extra = theirs.filter((c) => !names.has(c.name) && (names.add(c.name), true));
    (desired.spec as JsonObject)[list] = [...mine, ...clone(extra)];
  }
}

function istioRewrite(desired: JsonObject, live: JsonObject): void {
  if (!('istio.io/rev' in mapOf(live, 'annotations'))) return;
  for (const pod of [desired, live]) delete mapOf(pod, 'annotations')['prometheus.io/port'];
  const declared = containersOf(desired, 'containers')
    .filter((c) => c.name === NIFI)
    .pop()?.livenessProbe;
  for (const c of containersOf(live, 'containers').filter((x) => x.name === NIFI)) {
    if (declared === undefined) delete c.livenessProbe;
    else c.livenessProbe = clone(declared);
  }
}

/** Zarf's rewrite undone: `<host>/<path>/<name>:<tag>-zarf-<crc>` back to `<path>/<name>:<tag>`. */
function zarfRewrite(desired: JsonObject, live: JsonObject): string | null {
  if (!('zarf-agent' in mapOf(live, 'labels'))) return null;
  let before = '';
  let rewritten = '';
  for (const c of containersOf(live, 'containers').filter((x) => x.name === NIFI)) {
    rewritten = String(c.image ?? '');
    const parts = rewritten.split('/');
    if (parts.length < 2) return `index out of range: image ${rewritten} has no "/"`;
    // Go: strings.Join(chunks[1:len(chunks)-1], "/") + "/" + oldTag, a leading "/" when the path is empty.
    before = `${parts.slice(1, -1).join('/')}/${parts[parts.length - 1].split('-zarf')[0]}`;
  }
  for (const c of containersOf(desired, 'containers'))
    if (c.name === NIFI && c.image === before) c.image = rewritten;
  return null;
}

const LINKERD_NAME = /^(?:linkerd-|kube-api-access-)/;

function linkerdInjected(live: JsonObject): boolean {
  const a = mapOf(live, 'annotations');
  return (
    'linkerd.io/proxy-version' in a ||
    a['linkerd.io/inject'] === 'enabled' ||
    a['linkerd.io/inject'] === 'true' ||
    containersOf(live, 'containers').some((c) => c.name === 'linkerd-proxy')
  );
}

function linkerdMerge(desired: JsonObject, live: JsonObject): void {
  if (!linkerdInjected(live)) return;
  const annotations = mapOf(desired, 'annotations');
  for (const [k, v] of Object.entries(mapOf(live, 'annotations')))
    if (k.startsWith('linkerd.io/') || k.startsWith('config.linkerd.io/')) annotations[k] = v;
  const spec = desired.spec as JsonObject;
  const addNamed = (into: JsonValue[], from: JsonValue | undefined): JsonValue[] => {
    const have = new Set(into.filter(isObject).map((x) => x.name));
    const more = (Array.isArray(from) ? from : [])
      .filter(isObject)
      .filter((x) => typeof x.name === 'string' && LINKERD_NAME.test(x.name) && !have.has(x.name));
    return more.length > 0 ? [...into, ...clone(more)] : into;
  };
  const volumes = addNamed(
    Array.isArray(spec.volumes) ? spec.volumes : [],
    (live.spec as JsonObject).volumes,
  );
  if (volumes.length > 0) spec.volumes = volumes;
  for (const list of ['containers', 'initContainers'] as const)
    for (const lc of containersOf(live, list)) {
      const dc = containersOf(desired, list)
        .filter((c) => c.name === lc.name)
        .pop();
      if (!dc) continue;
      const mounts = addNamed(Array.isArray(dc.volumeMounts) ? dc.volumeMounts : [], lc.volumeMounts);
      if (mounts.length > 0) dc.volumeMounts = mounts;
    }
}

// ---- what Calculate's patch holds ----

const keyOf = (e: JsonValue, mk: string): unknown => (isObject(e) ? e[mk] : undefined);

/**
 * apimachinery's mergeSortedSlice: the live pod's elements the patch does not name, in live
 * order, interleaved with the patch's, in the patch's order; a live-only element goes before a
 * patch element only when the live pod already had it first.
 */
function patchedOrder(liveKeys: unknown[], desiredKeys: unknown[]): unknown[] {
  const liveOnly = liveKeys.filter((k) => !desiredKeys.includes(k));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < liveOnly.length || j < desiredKeys.length) {
    const li = i < liveOnly.length ? liveKeys.indexOf(liveOnly[i]) : -1;
    const ri = j < desiredKeys.length ? liveKeys.indexOf(desiredKeys[j]) : -1;
    const takeLive = j >= desiredKeys.length || (i < liveOnly.length && li >= 0 && ri >= 0 && li < ri);
    out.push(takeLive ? liveOnly[i++] : desiredKeys[j++]);
  }
  return out;
}

/** Every merge-keyed list whose order the patch would change, at any depth. */
type Reordering = ModelField & { depth: number; key: string };

function reorderings(declared: JsonValue, live: JsonValue, segs: PathSegment[], out: Reordering[]): void {
  if (isObject(declared) && isObject(live)) {
    for (const k of Object.keys(declared)) reorderings(declared[k], live[k], [...segs, { key: k }], out);
    return;
  }
  if (!Array.isArray(declared) || !Array.isArray(live)) return;
  const mk = mergeKeyOf(segs);
  if (mk === null) return;
  const want = declared.map((e) => keyOf(e, mk));
  const have = live.map((e) => keyOf(e, mk));
  // isOrderSame: the same length and the same key at every index.
  if (!deepEqual(want, have)) {
    const order = patchedOrder(have, want).filter((k) => have.includes(k));
    if (!deepEqual(order, have))
      out.push({ path: formatPath(segs), from: order, to: have, depth: segs.length, key: mk });
  }
  for (const e of declared) {
    const k = keyOf(e, mk);
    const match = live.find((x) => keyOf(x, mk) === k);
    if (match !== undefined && (typeof k === 'string' || typeof k === 'number'))
      reorderings(e, match, [...segs, { mergeKey: mk, value: k }], out);
  }
}

const value = (v: JsonValue | undefined): unknown => (v === undefined ? null : v);

/**
 * A map the desired pod declares and the live pod lacks (or the other way) is a field per leaf,
 * as the contract's paths name them (`livenessProbe.tcpSocket.port`, not `livenessProbe.tcpSocket`);
 * a list element stays one field.
 */
function leaves(d: DiffEntry): ModelField[] {
  const last = d.segments[d.segments.length - 1];
  const map =
    isObject(d.from) && d.to === undefined ? d.from : isObject(d.to) && d.from === undefined ? d.to : null;
  if (map === null || last === undefined || !('key' in last) || Object.keys(map).length === 0)
    return [{ path: d.path, from: value(d.from), to: value(d.to) }];
  return Object.entries(map).flatMap(([k, v]) => {
    const segments = [...d.segments, { key: k }];
    const side = d.from === undefined ? { from: undefined, to: v } : { from: v, to: undefined };
    return leaves({ path: formatPath(segments), segments, ...side });
  });
}

/** What NiFiKop of this range decides about the node's live pod. */
export function reconcileModel(range: NifikopRange, pods: ModelPods, configInSync: boolean): ModelDecision {
  const current = sortKeys(stripNullsAndEmpty(withoutLastApplied(toJson(pods.live)))) as JsonObject;
  let modified = withLiveTolerations(lastAppliedOf(pods.desired), current);
  modified = clone(modified);
  if (!isObject(modified.spec)) modified.spec = {};
  let panic: string | null = null;
  if (range.istio) {
    appendInjected(modified, current);
    istioRewrite(modified, current);
  }
  if (range.zarf) panic = zarfRewrite(modified, current);
  if (range.linkerd && panic === null) linkerdMerge(modified, current);
  if (panic !== null)
    return {
      range: range.label,
      modified,
      current,
      deletes: false,
      fields: [],
      orderOnly: false,
      patch: {},
      panic,
    };
  if (range.istio) {
    delete modified.status;
    delete current.status;
  }
  const clean = (p: JsonObject): JsonObject => sortKeys(stripNullsAndEmpty(p)) as JsonObject;
  const [m, c] = [clean(modified), clean(current)];
  // What the live pod holds and the desired pod sets otherwise, and what the desired pod stopped
  // declaring that the live pod still holds.
  const delta: DiffEntry[] = [
    ...threeWayDelta(m, c),
    ...declaredDeletions(pods.original, m).filter((d) => getPath(c, d.segments) !== undefined),
  ];
  const order: Reordering[] = [];
  reorderings(m, c, [], order);
  const fields: ModelField[] = [
    ...delta.flatMap(leaves),
    ...order.map(({ path, from, to }) => ({ path, from, to })),
  ];
  const patch = deltaPatch(delta, m);
  for (const o of order.filter((x) => x.depth === 2)) {
    const spec = isObject(patch.spec) ? patch.spec : (patch.spec = {});
    spec[`$setElementOrder/${o.path.slice('spec.'.length)}`] = (o.from as JsonValue[]).map((k) => ({
      [o.key]: k,
    }));
  }
  const orderOnly = delta.length === 0 && order.length > 0 && order.every((o) => o.depth === 2);
  const inSync = fields.length === 0 || (orderOnly && range.linkerd);
  return {
    range: range.label,
    modified: m,
    current: c,
    deletes: !inSync || !configInSync,
    fields,
    orderOnly,
    patch,
  };
}

/** What the NifiCluster's spec changed since the pod was created (an intent change's fields). */
export function specChange(original: JsonObject, desired: Pod): ModelField[] {
  return twoWayDiff(original, lastAppliedOf(desired)).map((d) => ({
    path: d.path,
    from: value(d.from),
    to: value(d.to),
  }));
}

/**
 * For each range of versions that decides differently, whether its diff would delete the pod
 * (the contract's `wouldRestart`: the diff's answer, as koperator's; a node out of sync is
 * deleted by every version alike).
 */
export function restartByRange(pods: ModelPods): Record<string, boolean> {
  return Object.fromEntries(NIFIKOP_RANGES.map((r) => [r.label, reconcileModel(r, pods, true).deletes]));
}
