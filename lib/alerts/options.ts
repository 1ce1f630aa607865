// Alerting settings from the function's environment (serverless.yml params end up there).
import {
  CLASSIFICATIONS,
  DRIFT_SEVERITIES,
  type Classification,
  type DriftSeverity,
} from '../model/findings';
import type { AlertOptions } from './types';

export function defaultAlertOptions(): AlertOptions {
  return {
    escalationFactor: 2,
    recreationClasses: ['external-mutation-revert', 'unknown'],
    alertLoopMembers: false,
    // A person's image swap, debug container or changed command is what nobody else reports;
    // an autoscaler's resize or a label change goes to the reports and Athena.
    driftSeverities: ['tamper'],
    loopMaxGapSeconds: 600,
  };
}

export class AlertOptionsError extends Error {
  override name = 'AlertOptionsError';
}

/**
 * Parses ALERT_ESCALATION_FACTOR, ALERT_RECREATION_CLASSES and ALERT_DRIFT_SEVERITIES
 * (comma lists, or `none`), ALERT_LOOP_MEMBERS and LOOP_MAX_GAP_SECONDS. A wrong value throws at cold start
 * rather than alerting on a setting nobody asked for.
 */
export function alertOptionsFromEnv(env: Record<string, string | undefined>): AlertOptions {
  const o = defaultAlertOptions();
  const factor = env.ALERT_ESCALATION_FACTOR;
  if (factor !== undefined && factor !== '') {
    const n = Number(factor);
    if (!Number.isFinite(n) || n <= 1)
      throw new AlertOptionsError(`ALERT_ESCALATION_FACTOR must be a number > 1, got ${factor}`);
    o.escalationFactor = n;
  }
  const classes = listOf(env, 'ALERT_RECREATION_CLASSES', 'class', CLASSIFICATIONS);
  if (classes) o.recreationClasses = classes as Classification[];
  const severities = listOf(env, 'ALERT_DRIFT_SEVERITIES', 'severity', DRIFT_SEVERITIES);
  if (severities) o.driftSeverities = severities as DriftSeverity[];
  const members = env.ALERT_LOOP_MEMBERS;
  if (members !== undefined && members !== '') {
    if (members !== 'true' && members !== 'false')
      throw new AlertOptionsError(`ALERT_LOOP_MEMBERS must be true or false, got ${members}`);
    o.alertLoopMembers = members === 'true';
  }
  const gap = env.LOOP_MAX_GAP_SECONDS;
  if (gap !== undefined && gap !== '') {
    const n = Number(gap);
    if (!Number.isFinite(n) || n <= 0)
      throw new AlertOptionsError(`LOOP_MAX_GAP_SECONDS must be a positive number, got ${gap}`);
    o.loopMaxGapSeconds = n;
  }
  return o;
}

/** A comma list of known names, or `none` for the empty list; undefined when unset. */
function listOf(
  env: Record<string, string | undefined>,
  name: string,
  what: string,
  known: readonly string[],
): string[] | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  if (text.trim() === 'none') return [];
  const list = text
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  for (const c of list) {
    if (!known.includes(c))
      throw new AlertOptionsError(`${name}: unknown ${what} ${c} (known: ${known.join(', ')})`);
  }
  return list;
}
