import { parseDurationSeconds } from '../../lib/config/duration';

describe('parseDurationSeconds', () => {
  it.each([
    ['90', 90],
    ['90s', 90],
    ['10m', 600],
    ['1h30m', 5400],
    ['1d', 86400],
    ['250ms', 0.25],
  ])('%s is %d seconds', (text, seconds) => {
    expect(parseDurationSeconds(text)).toBe(seconds);
  });

  it.each(['', 'ten minutes', '10x', '5m garbage', 'm'])('rejects %p', (text) => {
    expect(parseDurationSeconds(text)).toBeNull();
  });
});
