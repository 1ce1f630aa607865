import { hourOf, hourStart, hoursInWindow, partitionFactsByHour } from '../../lib/facts/partition';
import type { OperatorFact } from '../../lib/model/facts';

describe('facts by hour', () => {
  it.each([
    ['2026-11-02T10:59:59.999999Z', '2026-11-02-10'],
    ['2026-11-02T11:00:00+01:00', '2026-11-02-10'],
    ['not a time', null],
  ])('hour of %s is %s', (at, hour) => expect(hourOf(at)).toBe(hour));

  it.each([
    ['2026-11-02-10', '2026-11-02T10:00:00.000Z'],
    ['2026-12-31-23', '2026-12-31T23:00:00.000Z'],
  ])('hour %s starts at %s', (hour, start) => expect(hourStart(hour).toISOString()).toBe(start));

  it('refuses what is not an hour partition', () => {
    expect(() => hourStart('2026-11-02T10')).toThrow(/not an hour partition/);
  });

  it('lists every hour overlapping a window', () => {
    expect(hoursInWindow(new Date('2026-11-02T08:30:00Z'), new Date('2026-11-02T10:00:00Z'))).toEqual([
      '2026-11-02-08',
      '2026-11-02-09',
      '2026-11-02-10',
    ]);
  });

  it('splits facts by hour and sets untimed ones apart', () => {
    const f = (at: string): OperatorFact => ({
      type: 'operator',
      at,
      src: { source: 's', line: 1 },
      msg: 'm',
      level: 'info',
      kafkaCluster: null,
      namespace: null,
      pod: null,
      brokerId: null,
      fields: {},
    });
    const { byHour, untimed } = partitionFactsByHour([
      f('2026-11-02T10:01:00Z'),
      f('2026-11-02T11:00:00Z'),
      f('2026-11-02T10:59:00Z'),
      f('?'),
    ]);
    expect([...byHour.entries()].map(([h, l]) => [h, l.length])).toEqual([
      ['2026-11-02-10', 2],
      ['2026-11-02-11', 1],
    ]);
    expect(untimed).toHaveLength(1);
  });
});
