import type { AuditEvent } from './audit';
import type { OperatorLine } from './operator-line';

/** Where a record was read: a file path or s3:// URI, and its 1-based line (or record number). */
export interface SourceRef {
  source: string;
  line: number;
}

/** The container a record was unwrapped from; counted per format in the run summary. */
export type FormatName =
  | 'audit-jsonl'
  | 'audit-eventlist'
  | 'eks-cloudwatch-export'
  | 'eks-firehose-cwl'
  | 'fluent-bit'
  | 'aks-diagnostic'
  | 'gke-logentry'
  | 'zap-json'
  | 'cri'
  | 'fluent-bit-operator';

export type LogRecord =
  | {
      kind: 'audit';
      event: AuditEvent;
      format: FormatName;
      at: SourceRef;
      /** The CloudWatch Logs log group it was delivered from (a subscription payload's `logGroup`), if any. */
      logGroup?: string;
    }
  | {
      kind: 'operator';
      line: OperatorLine;
      format: FormatName;
      at: SourceRef;
      /** As an audit record's: Container Insights' or a named group (eksOperatorLogs) names its cluster. */
      logGroup?: string;
    };
