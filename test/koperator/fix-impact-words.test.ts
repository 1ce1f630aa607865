import type { FixImpact } from '../../lib/analyze/fix-impact';
import {
  brokerTime,
  fixImpactBasis,
  fixImpactHeadline,
  fixImpactTampers,
} from '../../lib/koperator/fix-impact-words';

const impact = (over: Partial<FixImpact>): FixImpact => ({
  recreations: 0,
  avoidableWithFix: 0,
  revertedTampers: 0,
  downtimeSeconds: 0,
  avoidableDowntimeSeconds: 0,
  downtimeFrom: 'ready',
  readyUnseen: 0,
  withoutSuccessor: 0,
  autoscalerUsers: [],
  ...over,
});

describe('fix impact in words', () => {
  it.each<[Partial<FixImpact>, string]>([
    [
      { recreations: 2983, avoidableWithFix: 2801, avoidableDowntimeSeconds: 3.2 * 3600 + 60 },
      'with koperator 0.30.0-rc1, 2,801 of 2,983 recreations (94 %) would not have happened: 3.2 broker-hours of restarts',
    ],
    [
      { recreations: 26, avoidableWithFix: 18, avoidableDowntimeSeconds: 100.6 },
      'with koperator 0.30.0-rc1, 18 of 26 recreations (69 %) would not have happened: 1.7 broker-minutes of restarts',
    ],
    [
      { recreations: 1, avoidableWithFix: 1, avoidableDowntimeSeconds: 5 },
      'with koperator 0.30.0-rc1, 1 of 1 recreation (100 %) would not have happened: 5 broker-seconds of restarts',
    ],
    [
      { recreations: 4, avoidableWithFix: 0 },
      'with koperator 0.30.0-rc1, 0 of 4 recreations (0 %) would not have happened',
    ],
    [
      { recreations: 2983, avoidableWithFix: 2982, avoidableDowntimeSeconds: 12_345 * 3600 },
      'with koperator 0.30.0-rc1, 2,982 of 2,983 recreations (99 %) would not have happened: 12,345 broker-hours of restarts',
    ],
    [
      { recreations: 2983, avoidableWithFix: 1, avoidableDowntimeSeconds: 9.96 },
      'with koperator 0.30.0-rc1, 1 of 2,983 recreations (<1 %) would not have happened: 10 broker-seconds of restarts',
    ],
  ])('headline of %j', (over, text) => {
    expect(fixImpactHeadline(impact(over))).toBe(text);
  });

  it.each<[Partial<FixImpact>, string]>([
    [
      { downtimeSeconds: 403.7 },
      "downtime from each deletion to the successor pod's first Ready=True status write; 6.7 broker-minutes of downtime in all",
    ],
    [
      { downtimeFrom: 'create', downtimeSeconds: 30, withoutSuccessor: 1 },
      "downtime from each deletion to the successor pod's create (the logs carry no pod status); 1 with no successor seen, not counted; 30 broker-seconds of downtime in all",
    ],
    [
      { downtimeSeconds: 7200, readyUnseen: 6 },
      "downtime from each deletion to the successor pod's first Ready=True status write; 6 never seen ready, counted to the create (a lower bound); 2 broker-hours of downtime in all",
    ],
  ])('basis of %j', (over, text) => {
    expect(fixImpactBasis(impact(over))).toBe(text);
  });

  it.each<[number, string | null]>([
    [0, null],
    [
      1,
      "1 recreation reverted a person's or another controller's write; with 0.30.0-rc1 that change would stand instead",
    ],
    [
      3,
      "3 recreations reverted a person's or another controller's write; with 0.30.0-rc1 those changes would stand instead",
    ],
  ])('%d reverted tampers', (n, text) => {
    expect(fixImpactTampers(impact({ revertedTampers: n }))).toBe(text);
  });

  it.each([
    [0, '0 broker-seconds'],
    [59.94, '59.9 broker-seconds'],
    [60, '1 broker-minute'],
    [3599, '60 broker-minutes'],
    [3600, '1 broker-hour'],
    [1, '1 broker-second'],
  ])('%d s is %s', (s, text) => {
    expect(brokerTime(s)).toBe(text);
  });
});
