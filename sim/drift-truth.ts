// The live-drift truth (drift.md), from what the scenarios did: each out-of-band write to a
// running broker pod as the scenario made it, ended by its own revert or by the pod's first
// deletion after it (whatever deleted it). At Metadata level only what drift.md still reports
// from a bodiless write is kept: ephemeral containers and resizes, with no fields.
import type { Drift, DriftField, DriftKind, DriftSeverity } from '../lib/model/findings';
import type { SimRecreation } from './truth';
import { fmtMicros, type Micros } from './time';
import type { LivePod } from './world';

export interface SimDrift {
  pod: LivePod;
  at: Micros;
  auditID: string;
  by: string;
  verb: 'patch' | 'update';
  subresource: '' | 'ephemeralcontainers' | 'resize';
  kind: DriftKind;
  severity: DriftSeverity;
  fields: DriftField[];
  preFixWouldRevert: boolean;
  revertedBy?: { at: Micros; auditID: string };
}

export function buildDriftTruth(
  drifts: readonly SimDrift[],
  recreations: readonly SimRecreation[],
  podsAtMetadata: (namespace: string) => boolean,
  /** Whether the logs ever show this text (a uid they never print is null in the truth). */
  shown: (text: string) => boolean,
): Drift[] {
  return drifts
    .filter((d) => !podsAtMetadata(d.pod.namespace) || d.subresource !== '')
    .map((d): Drift => {
      const bodies = !podsAtMetadata(d.pod.namespace);
      const deletion = recreations
        .filter((r) => r.deleted.pod.uid === d.pod.uid && r.deleted.at > d.at)
        .sort((a, b) => a.deleted.at - b.deleted.at)[0];
      const reverted = bodies ? d.revertedBy : undefined;
      const ended =
        reverted && (!deletion || reverted.at < deletion.deleted.at)
          ? { at: fmtMicros(reverted.at), how: 'reverted' as const, auditID: reverted.auditID }
          : deletion
            ? {
                at: fmtMicros(deletion.deleted.at),
                how: 'pod-deleted' as const,
                auditID: deletion.deleted.auditID,
              }
            : null;
      return {
        namespace: d.pod.namespace,
        kafkaCluster: d.pod.cluster,
        brokerId: d.pod.brokerId,
        pod: { name: d.pod.name, uid: shown(d.pod.uid) ? d.pod.uid : null },
        at: fmtMicros(d.at),
        by: d.by,
        verb: d.verb,
        subresource: d.subresource,
        kind: d.kind,
        fields: bodies ? d.fields : [],
        severity: d.severity,
        ended: ended ? { at: ended.at, how: ended.how } : null,
        preFixWouldRevert: d.preFixWouldRevert,
        evidence: ended ? [d.auditID, ended.auditID] : [d.auditID],
      };
    })
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
