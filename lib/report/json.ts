// The JSON view is the contract document itself (shared/spec/findings-contract.md).
// Objects are rebuilt key by key rather than passed to JSON.stringify as they are, so
// the output has the contract's key order whatever built the objects, and internal
// extras never leak into what the checks and other tools parse.
import type {
  CreatedPod,
  Drift,
  FieldChange,
  Fight,
  FindingsDocument,
  Loop,
  Recreation,
} from '../model/findings';
import { identityOf } from '../operators/registry';

/** Names the document for tools that read it (findings-contract.md); bumped only on a breaking change. */
export const FINDINGS_SCHEMA = 'koperator-audit/findings';
export const FINDINGS_VERSION = 1;

export function renderJson(doc: FindingsDocument): string {
  const ordered = {
    schema: FINDINGS_SCHEMA,
    version: FINDINGS_VERSION,
    recreations: doc.recreations.map(orderRecreation),
    loops: doc.loops.map(orderLoop),
    fights: (doc.fights ?? []).map(orderFight),
    drifts: (doc.drifts ?? []).map(orderDrift),
    // inputErrors always present too: an empty list is the all-clear, a missing key is not.
    summary: { ...doc.summary, inputErrors: doc.summary.inputErrors ?? [] },
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/**
 * The member's keys: koperator's `kafkaCluster`/`brokerId`; another operator's `operator` and
 * its own words (NiFiKop: `nifiCluster`/`nodeId`) in their place (findings-contract.md).
 */
function memberKeys(f: Pick<Recreation, 'operator' | 'kafkaCluster' | 'brokerId'>): Record<string, string> {
  if (!f.operator) return { kafkaCluster: f.kafkaCluster, brokerId: f.brokerId };
  const keys = identityOf(f.operator).findingKeys;
  return { operator: f.operator, [keys.cluster]: f.kafkaCluster, [keys.unit]: f.brokerId };
}

export function orderRecreation(r: Recreation): Recreation {
  return {
    namespace: r.namespace,
    ...(memberKeys(r) as Pick<Recreation, 'kafkaCluster' | 'brokerId'>),
    deletedPod: {
      name: r.deletedPod.name,
      uid: r.deletedPod.uid,
      deletedAt: r.deletedPod.deletedAt,
      deletedBy: r.deletedPod.deletedBy,
    },
    createdPod: r.createdPod ? orderCreatedPod(r.createdPod) : null,
    classification: r.classification,
    fields: r.fields.map(orderField),
    // An operator replayed by version answers for each range (findings-contract.md).
    wouldRestart: (r.wouldRestartByVersion ??
      (r.wouldRestart
        ? { threeWayMerge: r.wouldRestart.threeWayMerge, intentDiff: r.wouldRestart.intentDiff }
        : null)) as Recreation['wouldRestart'],
    evidence: r.evidence,
  };
}

function orderCreatedPod(p: CreatedPod): CreatedPod {
  const out: CreatedPod = { name: p.name, uid: p.uid, createdAt: p.createdAt };
  // Not a contract key: where the downtime of summary.fixImpact ends.
  if (p.readyAt !== undefined) out.readyAt = p.readyAt;
  return out;
}

function orderField(f: FieldChange): FieldChange {
  // `undefined` would silently drop the key; the contract always has from/to/by.
  const via = f.via ? { via: f.via } : {};
  return { path: f.path, from: f.from ?? null, to: f.to ?? null, by: f.by ?? null, ...via };
}

function orderLoop(l: Loop): Loop {
  return {
    namespace: l.namespace,
    ...(memberKeys(l) as Pick<Loop, 'kafkaCluster' | 'brokerId'>),
    classification: l.classification,
    count: l.count,
    firstAt: l.firstAt,
    lastAt: l.lastAt,
    periodSeconds: l.periodSeconds,
    fields: l.fields,
    mutators: l.mutators,
    active: l.active,
    // Not a contract key; the checks ignore it, people read it.
    recommendation: l.recommendation,
    ...(l.stoppedByVersion !== undefined ? { stoppedByVersion: l.stoppedByVersion } : {}),
  };
}

function orderFight(f: Fight): Fight {
  const target: Fight['target'] = {
    apiGroup: f.target.apiGroup,
    resource: f.target.resource,
    name: f.target.name,
  };
  if (f.target.slot !== undefined) target.slot = f.target.slot;
  return {
    kind: f.kind,
    namespace: f.namespace,
    target,
    writers: f.writers,
    mutators: f.mutators,
    fields: f.fields,
    count: f.count,
    firstAt: f.firstAt,
    lastAt: f.lastAt,
    periodSeconds: f.periodSeconds,
    active: f.active,
    recommendation: f.recommendation,
    evidence: f.evidence,
  };
}

export function orderDrift(d: Drift): Drift {
  return {
    namespace: d.namespace,
    kafkaCluster: d.kafkaCluster,
    brokerId: d.brokerId,
    pod: { name: d.pod.name, uid: d.pod.uid },
    at: d.at,
    by: d.by,
    verb: d.verb,
    subresource: d.subresource,
    kind: d.kind,
    fields: d.fields.map((f) => ({ path: f.path, declared: f.declared ?? null, to: f.to ?? null })),
    severity: d.severity,
    ended: d.ended ? { at: d.ended.at, how: d.ended.how } : null,
    preFixWouldRevert: d.preFixWouldRevert,
    evidence: d.evidence,
  };
}
