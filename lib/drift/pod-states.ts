// The pod just before and just after each write to a broker pod (drift.md, "What counts").
// "Just before" is what the previous successful write left, found by resourceVersion rather
// than by log order: a write that changed nothing keeps its version, so its state before is
// the one stored with that version; any other write follows the newest version below its own.
// Writes logged without a pod body are replayed where the body they sent allows it (a patch
// at Request level, an `EphemeralContainers` list), else their state is unknown.
import { applyWrite, isObject } from '../analyze/states';
import type { PodWriteFact } from '../model/facts';

export type Pod = Record<string, unknown>;

export interface WriteStates {
  write: PodWriteFact;
  /** The pod before the write; null where the data holds no earlier state. */
  before: Pod | null;
  /** The pod as the write left it; null where it shows no body and none can be replayed. */
  after: Pod | null;
}

interface Stored {
  version: bigint | null;
  text: string | null;
  pod: Pod;
}

/** Each write of `writes` (in the order they took effect) with its states, the create's response first. */
export function statesOfWrites(created: unknown, writes: PodWriteFact[]): WriteStates[] {
  const stored: Stored[] = [];
  let latest: Pod | null = null;
  const remember = (pod: Pod, fromServer: boolean) => {
    const text = fromServer ? resourceVersionOf(pod) : null;
    stored.push({ version: numericVersion(text), text, pod });
    latest = pod;
  };
  if (isObject(created)) remember(created, true);
  const out: WriteStates[] = [];
  for (const w of writes) {
    const body = isObject(w.response) ? w.response : null;
    let after: Pod | null = body;
    if (!after) after = replayed(w, latest);
    const before = body ? previousOf(body, stored, latest) : latest;
    out.push({ write: w, before, after });
    if (after) remember(after, body !== null);
  }
  return out;
}

/** The state a write without a pod body leaves, where its own body tells. */
function replayed(w: PodWriteFact, latest: Pod | null): Pod | null {
  if (w.ephemeralContainers) {
    if (!latest) return null;
    const spec = isObject(latest.spec) ? latest.spec : {};
    return { ...latest, spec: { ...spec, ephemeralContainers: w.ephemeralContainers } };
  }
  if (w.verb === 'patch' && w.request !== undefined && latest) return applyWrite(latest, w);
  if (w.verb === 'update' && isObject(w.request) && w.request.kind === 'Pod') return w.request;
  return null;
}

function previousOf(body: Pod, stored: Stored[], latest: Pod | null): Pod | null {
  const text = resourceVersionOf(body);
  if (text === null) return latest;
  for (let i = stored.length - 1; i >= 0; i--) if (stored[i].text === text) return stored[i].pod;
  const version = numericVersion(text);
  if (version === null) return latest;
  let best: Stored | null = null;
  for (const s of stored) {
    if (s.version === null || s.version >= version) continue;
    if (!best || s.version >= best.version!) best = s;
  }
  return best ? best.pod : latest;
}

function resourceVersionOf(pod: Pod): string | null {
  const meta = pod.metadata;
  return isObject(meta) && typeof meta.resourceVersion === 'string' && meta.resourceVersion !== ''
    ? meta.resourceVersion
    : null;
}

/** etcd's revision: opaque to clients, but a decimal counter on every real API server. */
function numericVersion(text: string | null): bigint | null {
  return text !== null && /^\d{1,30}$/.test(text) ? BigInt(text) : null;
}
