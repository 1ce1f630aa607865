// Strategic-merge metadata for the Pod type: the `patchStrategy` / `patchMergeKey` struct tags
// of k8s.io/api core/v1 and apimachinery meta/v1 (ObjectMeta), as of Kubernetes 1.36.
// A path here is the object keys from the Pod root with list indexes left out, so
// ['spec', 'containers', 'env'] is the env list of any container.
// Anything not listed is a plain map (diffed key by key) or an atomic list (replaced whole):
// strategicpatch treats a list without a patch strategy as atomic.

export type ListStrategy = { kind: 'merge'; key: string } | { kind: 'set' } | { kind: 'atomic' };

/** Fields of Container that are merged by key; EphemeralContainerCommon repeats them. */
const CONTAINER_LISTS: ReadonlyArray<[string, string]> = [
  ['ports', 'containerPort'],
  ['env', 'name'],
  ['volumeMounts', 'mountPath'],
  ['volumeDevices', 'devicePath'],
];

/** The schema as a tree of object keys: a lookup walks the path, with no string built per call. */
interface SchemaNode {
  children: Map<string, SchemaNode>;
  /** Set on list fields with a patch strategy. */
  strategy?: ListStrategy;
  retainKeys?: boolean;
}

const ROOT: SchemaNode = { children: new Map() };

function nodeFor(path: readonly string[]): SchemaNode {
  let node = ROOT;
  for (const k of path) {
    let next = node.children.get(k);
    if (!next) node.children.set(k, (next = { children: new Map() }));
    node = next;
  }
  return node;
}

function find(path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = ROOT;
  for (let i = 0; i < path.length && node; i++) node = node.children.get(path[i]);
  return node;
}

function merge(path: string[], mergeKey: string, retainKeys = false): void {
  const node = nodeFor(path);
  node.strategy = { kind: 'merge', key: mergeKey };
  if (retainKeys) node.retainKeys = true;
}

merge(['metadata', 'ownerReferences'], 'uid');
nodeFor(['metadata', 'finalizers']).strategy = { kind: 'set' };

for (const c of ['containers', 'initContainers', 'ephemeralContainers']) {
  merge(['spec', c], 'name');
  for (const [list, k] of CONTAINER_LISTS) merge(['spec', c, list], k);
}
merge(['spec', 'volumes'], 'name', true);
merge(['spec', 'imagePullSecrets'], 'name');
merge(['spec', 'hostAliases'], 'ip');
merge(['spec', 'topologySpreadConstraints'], 'topologyKey');
merge(['spec', 'schedulingGates'], 'name');
merge(['spec', 'resourceClaims'], 'name', true);
merge(['spec', 'evictionResponders'], 'name');

merge(['status', 'conditions'], 'type');
merge(['status', 'podIPs'], 'ip');
merge(['status', 'hostIPs'], 'ip');
merge(['status', 'resourceClaimStatuses'], 'name', true);
merge(['status', 'nodeAllocatableResourceClaimStatuses'], 'resourceClaimName');
// Tagged inside ContainerStatus, but containerStatuses itself is atomic, so these only
// matter to a caller that looks them up directly.
for (const s of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
  merge(['status', s, 'volumeMounts'], 'mountPath');
  merge(['status', s, 'allocatedResourcesStatus'], 'name');
}

/** How strategicpatch treats the list at `path` (object keys from the Pod root, list indexes omitted). */
export function listStrategy(path: string[]): ListStrategy {
  return find(path)?.strategy ?? ATOMIC;
}

const ATOMIC: ListStrategy = { kind: 'atomic' };

/**
 * True for lists tagged `patchStrategy:"merge,retainKeys"` (volumes, resourceClaims): their
 * elements carry a `$retainKeys` directive so a patch can switch a volume's source type.
 */
export function hasRetainKeys(path: string[]): boolean {
  return find(path)?.retainKeys === true;
}
