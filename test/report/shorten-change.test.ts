// A change cut to a column keeps what changed: table-driven over the shapes field values take.
import { keepWindow, shortenChange } from '../../lib/report/shorten-change';

describe('shortenChange', () => {
  it.each([
    // What the issue saw: both ends cut to `ghcr.io/adobe/kafka:2.1…`, the change hidden.
    [
      'an image tag',
      'ghcr.io/adobe/kafka:2.13-3.7.0',
      'ghcr.io/adobe/kafka:2.13-3.7.1',
      24,
      ['…/adobe/kafka:2.13-3.7.0', '…/adobe/kafka:2.13-3.7.1'],
    ],
    [
      'a registry',
      'registry-a.example.com/kafka:3.7',
      'registry-b.example.com/kafka:3.7',
      20,
      ['registry-a.example.…', 'registry-b.example.…'],
    ],
    ['short values stay whole', '1', '630m', 24, ['1', '630m']],
    ['one long, one short', 'a-very-long-value-that-does-not-fit', 'short', 12, ['a-very-long…', 'short']],
    [
      'a middle change',
      'prefix-prefix-prefix-AAA-suffix-suffix-suffix',
      'prefix-prefix-prefix-BBB-suffix-suffix-suffix',
      15,
      ['…efix-AAA-suff…', '…efix-BBB-suff…'],
    ],
    [
      'equal values keep their end',
      'x'.repeat(30) + 'END',
      'x'.repeat(30) + 'END',
      10,
      ['…xxxxxxEND', '…xxxxxxEND'],
    ],
  ])('%s', (_name, from, to, max, want) => {
    const got = shortenChange(from, to, max);
    expect(got).toEqual(want);
    for (const v of got) expect([...v].length).toBeLessThanOrEqual(max);
    // Whenever the two differ, what is shown differs too.
    if (from !== to) expect(got[0]).not.toBe(got[1]);
  });

  it('a difference longer than the room shows its beginning', () => {
    expect(keepWindow([...'aaaa0123456789bbbb'], 4, 14, 8)).toBe('…012345…');
  });
});
