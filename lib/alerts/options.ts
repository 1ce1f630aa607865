// Alerting settings from the function's environment (serverless.yml params end up there).
import { CLASSIFICATIONS, type Classification } from '../model/findings';
import type { AlertOptions } from './types';

export function defaultAlertOptions(): AlertOptions {
  return {
    escalationFactor: 2,
    recreationClasses: ['external-mutation-revert', 'unknown'],
    alertLoopMembers: false,
    loopMaxGapSeconds: 600,
  };
}

export class AlertOptionsError extends Error {
  override name = 'AlertOptionsError';
}

/**
 * Parses ALERT_ESCALATION_FACTOR, ALERT_RECREATION_CLASSES (comma list, or `none`),
 * ALERT_LOOP_MEMBERS and LOOP_MAX_GAP_SECONDS. A wrong value throws at cold start
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
  const classes = env.ALERT_RECREATION_CLASSES;
  if (classes !== undefined && classes !== '') {
    if (classes.trim() === 'none') {
      o.recreationClasses = [];
    } else {
      const list = classes
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '');
      for (const c of list) {
        if (!(CLASSIFICATIONS as readonly string[]).includes(c)) {
          throw new AlertOptionsError(
            `ALERT_RECREATION_CLASSES: unknown class ${c} (known: ${CLASSIFICATIONS.join(', ')})`,
          );
        }
      }
      o.recreationClasses = list as Classification[];
    }
  }
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
