// One koperator (zap) log line, normalised across encoders and wrappers:
// `ts` is always RFC 3339 UTC, and `fields` holds every other key as logged.
export interface OperatorLine {
  ts: string;
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}
