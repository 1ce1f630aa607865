import { alertDelaySeconds, decisiveEventAt } from '../../lib/alerts/event-time';
import type { AlertEvent } from '../../lib/alerts/types';
import { memoryUsedPercent } from '../../lib/aws/observability';
import { loopEvent, recreationEvent } from '../notify/fixtures';

describe('memoryUsedPercent', () => {
  it.each([
    ['half of 1,024 MB', { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' }, 512 * 1024, 50],
    ['a tenth of a percent kept', { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1769' }, 1500 * 1024, 84.8],
    [
      'over the size (the moment before Lambda ends it)',
      { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256' },
      300 * 1024,
      117.2,
    ],
    ['outside Lambda: nothing', {}, 512 * 1024, null],
    ['a size that is no number: nothing', { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: 'big' }, 512 * 1024, null],
  ])('%s', (_name, env, rssKb, want) => {
    expect(memoryUsedPercent(env, rssKb)).toBe(want);
  });
});

describe('alert delay', () => {
  const now = Date.parse('2026-11-02T10:41:00.000Z');

  it.each<[string, AlertEvent, string]>([
    ["a loop: its last recreation's deletion", loopEvent, '2026-11-02T10:40:14.691760Z'],
    ['a recreation: its deletion', recreationEvent, '2026-11-02T10:40:14.691760Z'],
  ])('%s', (_name, ev, at) => {
    expect(decisiveEventAt(ev)).toBe(at);
    expect(alertDelaySeconds(ev, now)).toBeCloseTo((now - Date.parse(at)) / 1000, 3);
  });

  it('says nothing for an event ahead of the clock or a time that does not parse', () => {
    expect(alertDelaySeconds(loopEvent, Date.parse('2026-11-02T10:00:00Z'))).toBeNull();
    const bad = { ...loopEvent, loop: { ...loopEvent.loop, lastAt: 'soon' } };
    expect(alertDelaySeconds(bad, now)).toBeNull();
  });
});
