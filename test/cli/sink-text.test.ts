// What local-pipeline prints for each sink, table-driven over the payload shapes.
import {
  chatAsRead,
  readMrkdwn,
  slackAsRead,
  withoutEmulatorLinks,
  withoutEmulatorLinksDeep,
} from '../../lib/cli/sink-text';

const EMU = 'http://127.0.0.1:36397';
const NOTE = '(link left out: it pointed into the emulator, which has stopped)';

describe('readMrkdwn', () => {
  it.each([
    ['*Broker*\nkafka/a broker 5', 'Broker\nkafka/a broker 5'],
    ['`external-mutation-revert`', 'external-mutation-revert'],
    ['<https://r.example.com/x|Full report>', 'Full report (https://r.example.com/x)'],
    ['a * b * c', 'a * b * c'], // not emphasis
    ['price *2* each', 'price 2 each'],
  ])('%p → %p', (text, read) => {
    expect(readMrkdwn(text)).toBe(read);
  });
});

describe('withoutEmulatorLinks', () => {
  it.each([
    [`<${EMU}/b/r.html?X-Amz-Signature=abc|Full report>`, `Full report ${NOTE}`],
    [`Read the full report: ${EMU}/b/r.html?X=1`, `Read the full report: ${NOTE}`],
    [`[report](${EMU}/b/r.html)`, `report ${NOTE}`],
    ['https://reports.example.com/r.html', 'https://reports.example.com/r.html'], // a real front stays
    ['http://127.0.0.1:9999/other', 'http://127.0.0.1:9999/other'], // another port is not the emulator
    // A link left out has no lifetime to tell, on its line or the next (the email's layout).
    [
      `<${EMU}/r.html|Full report> (link valid until 2026-12-07 20:05:13 UTC) · alert a1`,
      `Full report ${NOTE} · alert a1`,
    ],
    [
      `Full report: ${EMU}/r.html\n     (link valid until 2026-12-07 20:05:13 UTC)\n\nAlert a1`,
      `Full report: ${NOTE}\n\nAlert a1`,
    ],
    [
      `<${EMU}/r.html|Full report> _(link valid until 2026-12-07 20:05 UTC at the latest, sooner if the session ends)_`,
      `Full report ${NOTE}`,
    ],
    // A real link keeps its lifetime.
    [
      '<https://r.example.com/x|Full report> (link valid until 2026-12-07 UTC)',
      '<https://r.example.com/x|Full report> (link valid until 2026-12-07 UTC)',
    ],
  ])('%p', (text, want) => {
    expect(withoutEmulatorLinks(text, EMU)).toBe(want);
  });

  it('reaches every string of a JSON value', () => {
    const raw = { report: { url: `${EMU}/b/r.json?sig=1`, uri: 's3://b/r.json' }, list: [`${EMU}/x`] };
    expect(JSON.stringify(withoutEmulatorLinksDeep(raw, EMU))).not.toContain(EMU);
    expect(withoutEmulatorLinksDeep(raw, EMU)).toMatchObject({ report: { uri: 's3://b/r.json' } });
  });
});

describe('as read', () => {
  it('a Slack message: header, section text, fields as "Label: value", context on one line', () => {
    const payload = {
      text: 'fallback',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Loop started: a broker 5' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':rotating_light: *Loop started* (critical)' },
          fields: [
            { type: 'mrkdwn', text: '*Broker*\nkafka/a broker 5' },
            { type: 'mrkdwn', text: '*Count*\n9' },
          ],
        },
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: 'alert `x1`' },
            { type: 'mrkdwn', text: 'window w' },
          ],
        },
      ],
    };
    expect(slackAsRead(payload)).toBe(
      [
        'LOOP STARTED: A BROKER 5',
        '',
        ':rotating_light: Loop started (critical)',
        'Broker: kafka/a broker 5',
        'Count: 9',
        '',
        '────',
        '',
        'alert x1 · window w',
      ].join('\n'),
    );
    expect(slackAsRead({ text: '*only* text' })).toBe('only text');
  });

  it('a chat notification: title, description, next steps', () => {
    const n = {
      content: { title: 'T', description: '*Broker* a\n*Class* `c`', nextSteps: ['do x', 'read y'] },
    };
    expect(chatAsRead(n)).toBe(
      ['T', '', 'Broker a', 'Class c', '', 'Next steps:', '  - do x', '  - read y'].join('\n'),
    );
  });
});
