// Lookups over a simulated audit log, shared by the simulator's tests.
import type { AuditEvent } from '../../lib/model/audit';
import { parseTime } from '../../sim/time';

export type Json = Record<string, unknown>;

export function isJson(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function meta(obj: unknown): Json {
  return isJson(obj) && isJson(obj.metadata) ? obj.metadata : {};
}

export class AuditIndex {
  readonly complete: AuditEvent[];
  readonly byID = new Map<string, AuditEvent[]>();

  constructor(readonly events: readonly AuditEvent[]) {
    for (const e of events) {
      const list = this.byID.get(e.auditID) ?? [];
      list.push(e);
      this.byID.set(e.auditID, list);
    }
    this.complete = events.filter((e) => e.stage === 'ResponseComplete');
  }

  final(auditID: string): AuditEvent | undefined {
    return this.byID.get(auditID)?.find((e) => e.stage === 'ResponseComplete');
  }

  podWrites(namespace: string, name: string): AuditEvent[] {
    return this.complete.filter(
      (e) =>
        e.objectRef?.resource === 'pods' &&
        e.objectRef.namespace === namespace &&
        e.objectRef.name === name &&
        e.verb !== 'get',
    );
  }

  /** The create whose stored pod (or, at Metadata level, whose following binding) is `name`. */
  createOf(namespace: string, name: string): AuditEvent | undefined {
    const direct = this.complete.find(
      (e) =>
        e.verb === 'create' &&
        e.objectRef?.resource === 'pods' &&
        !e.objectRef.subresource &&
        e.objectRef.namespace === namespace &&
        meta(e.responseObject).name === name,
    );
    if (direct) return direct;
    const binding = this.complete.find(
      (e) =>
        e.objectRef?.subresource === 'binding' &&
        e.objectRef.namespace === namespace &&
        e.objectRef.name === name,
    );
    if (!binding) return undefined;
    const at = parseTime(binding.requestReceivedTimestamp);
    const generateName = name.slice(0, -5);
    return this.complete
      .filter(
        (e) =>
          e.verb === 'create' &&
          e.objectRef?.resource === 'pods' &&
          !e.objectRef.subresource &&
          e.objectRef.namespace === namespace &&
          parseTime(e.stageTimestamp) <= at &&
          (e.user.username ?? '').length > 0 &&
          (meta(e.requestObject).generateName === undefined ||
            meta(e.requestObject).generateName === generateName),
      )
      .sort((a, b) => parseTime(b.stageTimestamp) - parseTime(a.stageTimestamp))[0];
  }
}
