// NiFiKop's log lines (zap JSON, production encoder as NiFiKop configures it): keys `level`,
// `time` (ISO 8601), `logger` (`controllers.NifiCluster`), `caller`, `msg`, then the call's own
// keys, as in the lines users quote in konpyutaika/nifikop issues #346 and #600. The `caller`
// line numbers here are illustrative (they move with every release); nothing should key on them.
import type { OperatorLine } from '../../lib/model/operator-line';
import { fmtMillis, type Micros } from '../time';

export const NIFIKOP_LOGGER = 'controllers.NifiCluster';

export type NifikopKeys = ReadonlyArray<readonly [string, unknown]>;

export class NifikopLog {
  readonly lines: OperatorLine[] = [];

  line(
    at: Micros,
    level: 'debug' | 'info' | 'error',
    msg: string,
    keys: NifikopKeys = [],
    caller = 'nifi/nifi.go:700',
  ): OperatorLine {
    const fields: Record<string, unknown> = { logger: NIFIKOP_LOGGER, caller };
    for (const [k, v] of keys) fields[k] = v;
    const line: OperatorLine = { ts: fmtMillis(at), level, msg, fields };
    this.lines.push(line);
    return line;
  }
}

/** One line as NiFiKop writes it: `time`, not koperator's `ts`. */
export function renderNifikopLine(line: OperatorLine): string {
  const { logger, caller, ...rest } = line.fields as Record<string, unknown>;
  return JSON.stringify({ level: line.level, time: line.ts, logger, caller, msg: line.msg, ...rest });
}
