import { alertOptionsFromEnv, defaultAlertOptions } from '../../lib/alerts/options';

describe('alertOptionsFromEnv', () => {
  it('defaults: doubling escalates; external-mutation-revert and unknown recreations; loop members quiet', () => {
    expect(alertOptionsFromEnv({})).toEqual(defaultAlertOptions());
    expect(defaultAlertOptions()).toMatchObject({
      escalationFactor: 2,
      recreationClasses: ['external-mutation-revert', 'unknown'],
      alertLoopMembers: false,
      driftSeverities: ['tamper'],
    });
  });

  it.each([
    [{ ALERT_ESCALATION_FACTOR: '3' }, { escalationFactor: 3 }],
    [
      { ALERT_RECREATION_CLASSES: 'intent-change, external-deletion' },
      { recreationClasses: ['intent-change', 'external-deletion'] },
    ],
    [{ ALERT_RECREATION_CLASSES: 'none' }, { recreationClasses: [] }],
    [{ ALERT_LOOP_MEMBERS: 'true' }, { alertLoopMembers: true }],
    [{ ALERT_DRIFT_SEVERITIES: 'tamper, change' }, { driftSeverities: ['tamper', 'change'] }],
    [{ ALERT_DRIFT_SEVERITIES: 'none' }, { driftSeverities: [] }],
    [{ LOOP_MAX_GAP_SECONDS: '300' }, { loopMaxGapSeconds: 300 }],
  ])('%j', (env, expected) => {
    expect(alertOptionsFromEnv(env)).toMatchObject(expected);
  });

  it.each([
    [{ ALERT_ESCALATION_FACTOR: '1' }, /> 1/],
    [{ ALERT_ESCALATION_FACTOR: 'two' }, /> 1/],
    [{ ALERT_RECREATION_CLASSES: 'revert' }, /unknown class revert/],
    [{ ALERT_LOOP_MEMBERS: 'yes' }, /true or false/],
    [{ ALERT_DRIFT_SEVERITIES: 'tamper,critical' }, /ALERT_DRIFT_SEVERITIES: unknown severity critical/],
  ])('rejects %j', (env, message) => {
    expect(() => alertOptionsFromEnv(env)).toThrow(message);
  });
});
