// (De)serialisation of the alert state object. The state decides what is announced, so a
// state this code does not understand is an error, never an empty state: an empty state
// would re-announce every loop in the window.
import { ALERT_STATE_VERSION, type AlertState } from './types';
import { emptyAlertState } from './diff';

export class AlertStateError extends Error {
  override name = 'AlertStateError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function encodeAlertState(state: AlertState): string {
  return JSON.stringify(state, null, 1) + '\n';
}

export function decodeAlertState(text: string | null, cluster: string): AlertState {
  if (text === null) return emptyAlertState(cluster);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new AlertStateError('alert state is not JSON');
  }
  if (!isRecord(v) || v.version !== ALERT_STATE_VERSION) {
    throw new AlertStateError(
      `alert state has version ${isRecord(v) ? String(v.version) : '?'}; expected ${ALERT_STATE_VERSION}`,
    );
  }
  if (!Array.isArray(v.loops) || !Array.isArray(v.recreations) || !Array.isArray(v.pending)) {
    throw new AlertStateError('alert state lacks loops, recreations or pending');
  }
  if (v.cluster !== cluster)
    throw new AlertStateError(`alert state belongs to cluster ${String(v.cluster)}, not ${cluster}`);
  return v as unknown as AlertState;
}
