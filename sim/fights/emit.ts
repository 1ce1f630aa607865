// What every fight scenario writes with: the audit events of one request at the level the
// cluster's policy gives it, and the actors of the controllers that fight.
import type { AuditEvent, AuditLevel } from '../../lib/model/audit';
import {
  auditRequest,
  serviceAccountActor,
  humanActor,
  nodeActor,
  type Actor,
  type ApiRequest,
} from '../audit-event';
import type { Rng } from '../rng';
import type { Micros } from '../time';

export type FightLevel = 'RequestResponse' | 'Metadata';

export class FightSink {
  readonly audit: AuditEvent[] = [];

  constructor(
    readonly rng: Rng,
    /** Level of custom resources and, when Metadata, of every write the fights rest on. */
    readonly level: FightLevel,
  ) {}

  /** Emits one request; returns its ResponseComplete event (audit ID and times). */
  emit(r: Omit<ApiRequest, 'level'> & { level?: AuditLevel }): AuditEvent {
    const level = r.level ?? this.levelOf(r);
    const rec = auditRequest(this.rng, { ...r, level });
    this.audit.push(...rec.events);
    return rec.events[rec.events.length - 1];
  }

  /** Pods stay at RequestResponse (as on managed clusters); the rest follows the chosen level. */
  private levelOf(r: Omit<ApiRequest, 'level'>): AuditLevel {
    if (r.resource === 'pods') return r.subresource === 'status' ? 'Request' : 'RequestResponse';
    if (r.resource === 'events' || r.resource === 'leases') return 'Metadata';
    if (r.subresource === 'status') return this.level === 'Metadata' ? 'Metadata' : 'Request';
    if (r.apiGroup && !['apps', 'admissionregistration.k8s.io', 'autoscaling'].includes(r.apiGroup))
      return 'Metadata';
    return this.level;
  }

  ms(lo: number, hi: number): Micros {
    return this.rng.int(lo, hi) * 1000;
  }
}

export function sa(rng: Rng, user: string, agent: string): Actor {
  const m = /^system:serviceaccount:([^:]+):(.+)$/.exec(user);
  if (!m) return humanActor(user, '10.1.2.3');
  return serviceAccountActor(rng, m[1], m[2], {
    userAgent: agent,
    sourceIP: `10.20.${rng.int(0, 200)}.${rng.int(2, 250)}`,
  });
}

export function kubelet(node: string): Actor {
  return nodeActor(node, '10.20.0.9', 'v1.31.4-eks-1a2b3c4');
}

export { humanActor };
