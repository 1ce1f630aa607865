// The digit-by-digit reading of UTC times must give exactly what the Date.parse path gives.
import { epochMicros, utcMicros } from '../../lib/analyze/time';

function viaDateParse(t: string): number {
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return NaN;
  const frac = /\.(\d+)/.exec(t);
  return ms * 1000 + (frac ? Number((frac[1] + '000000').slice(3, 6)) : 0);
}

describe('epochMicros', () => {
  test.each([
    ['2026-11-02T00:00:27.109848Z', true],
    ['2026-11-02T00:00:27Z', true],
    ['2026-11-02T00:00:27.5Z', true],
    ['2026-11-02T00:00:27.123Z', true],
    ['2026-11-02T00:00:27.123456789Z', true],
    ['2026-11-02T23:59:59.999999Z', true],
    ['2026-02-29T00:00:00Z', false], // day past 28: left to Date.parse
    ['2026-11-02T00:00:27+01:00', false],
    ['2026-11-02T00:00:27.Z', false],
    ['2026-11-02T00:00:27.12a4Z', false],
    ['2026-13-02T00:00:27Z', false],
    ['2026-11-02T24:00:00Z', false],
    ['2026-11-02 00:00:27Z', false],
    ['', false],
  ])('%s (fast path: %s)', (t, fast) => {
    expect(utcMicros(t) !== null).toBe(fast);
    expect(epochMicros(t)).toEqual(viaDateParse(t));
  });

  test('agrees with Date.parse on many times with 0 to 9 fraction digits', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const base = new Date(rand() * 4e12).toISOString().slice(0, 19);
      const digits = Math.floor(rand() * 10);
      const frac = String(Math.floor(rand() * 1e9))
        .padStart(9, '0')
        .slice(0, digits);
      const t = `${base}${digits ? `.${frac}` : ''}Z`;
      expect(epochMicros(t)).toBe(viaDateParse(t));
    }
  });
});
