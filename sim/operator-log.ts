// koperator's log lines (zap JSON, production encoder). Keys come in the encoder's order:
// level, ts, msg, the controller-runtime context (controller, controllerGroup, controllerKind,
// KafkaCluster {name, namespace}, namespace, name, reconcileID), the resource reconciler's
// values (component, clusterName, clusterNamespace, kind), then the call's own keys.
// Older operators logged `logger: controllers.KafkaCluster`, `Request.Namespace` and
// `Request.Name` instead of the context, and an epoch-float `ts` (see renderZapLine).
import type { OperatorLine } from '../lib/model/operator-line';
import { epochSeconds, fmtMillis, parseTime, type Micros } from './time';

export type OperatorLogStyle = 'current' | 'legacy';

export interface ReconcileContext {
  cluster: string;
  namespace: string;
  reconcileID: string;
}

export type LogKeys = ReadonlyArray<readonly [string, unknown]>;

export interface LineOptions {
  level?: 'info' | 'debug' | 'error';
  /** Adds component/clusterName/clusterNamespace/kind, as lines from the kafka resource reconciler carry. */
  resourceKind?: string;
}

export class OperatorLog {
  readonly lines: OperatorLine[] = [];

  constructor(private readonly style: OperatorLogStyle) {}

  line(
    at: Micros,
    ctx: ReconcileContext,
    msg: string,
    keys: LogKeys = [],
    opts: LineOptions = {},
  ): OperatorLine {
    const fields: Record<string, unknown> = {};
    if (this.style === 'legacy') {
      fields.logger = 'controllers.KafkaCluster';
      fields['Request.Namespace'] = ctx.namespace;
      fields['Request.Name'] = ctx.cluster;
    } else {
      fields.controller = 'KafkaCluster';
      fields.controllerGroup = 'kafka.banzaicloud.io';
      fields.controllerKind = 'KafkaCluster';
      fields.KafkaCluster = { name: ctx.cluster, namespace: ctx.namespace };
      fields.namespace = ctx.namespace;
      fields.name = ctx.cluster;
      fields.reconcileID = ctx.reconcileID;
    }
    if (opts.resourceKind) {
      fields.component = 'kafka';
      fields.clusterName = ctx.cluster;
      fields.clusterNamespace = ctx.namespace;
      fields.kind = opts.resourceKind;
    }
    for (const [k, v] of keys) fields[k] = v;
    const line: OperatorLine = { ts: fmtMillis(at), level: opts.level ?? 'info', msg, fields };
    this.lines.push(line);
    return line;
  }

  /** The tainted-restart message changed wording between versions. */
  taintedMessage(): string {
    return this.style === 'legacy'
      ? 'pod has tainted labels, deleting it'
      : 'pod has tainted labels, attempting to delete';
  }
}

/**
 * One line as the operator would have written it. `epochTs` gives the older encoder's float
 * seconds instead of ISO 8601 (the normalised OperatorLine always carries RFC 3339).
 */
export function renderZapLine(line: OperatorLine, opts: { epochTs?: boolean } = {}): string {
  const ts = opts.epochTs ? epochSeconds(parseTime(line.ts)) : line.ts;
  return JSON.stringify({ level: line.level, ts, msg: line.msg, ...line.fields });
}
