import type { Fact } from '../model/facts';
import type { LogRecord } from '../model/record';

// Placeholder until the analysis core lands (issue 3).
export function projectRecord(_rec: LogRecord): Fact | null {
  return null;
}
