// An alert of a run that read no operator log line says so in every sink, as the next step
// that would give its cause the operator's own words; an alert of a run that did read them
// says nothing of it.
import { toAlertMessage, buildSnsMessage, parseAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { ctx, loopEvent, recreationEvent } from './fixtures';

const STEP =
  /No koperator log line reached the analysis: this cause comes from the audit log alone.*eksOperatorLogs/s;

const sinks: [string, (m: ReturnType<typeof toAlertMessage>) => string][] = [
  ['Slack', (m) => JSON.stringify(buildSlackPayload(m))],
  ['chat', (m) => JSON.stringify(buildChatNotification(m, {}))],
  ['email', (m) => buildEmailText(m)],
];

describe.each(sinks)('%s', (_, render) => {
  it.each([
    ['a loop', loopEvent],
    ['a recreation', recreationEvent],
  ])('%s without operator logs says so; with them it does not', (_label, event) => {
    expect(render(toAlertMessage(event, { ...ctx, operatorLogs: 'absent' }))).toMatch(STEP);
    expect(render(toAlertMessage(event, ctx))).not.toMatch(/No koperator log line/);
  });

  it("a NiFiKop node's loop names NiFiKop's logs, not koperator's", () => {
    const nifi = { ...loopEvent, loop: { ...loopEvent.loop, operator: 'nifikop' } };
    const text = render(toAlertMessage(nifi, { ...ctx, operatorLogs: 'absent' }));
    expect(text).toMatch(/No NiFiKop log line reached the analysis.*NiFiKop's own diff/s);
    expect(text).not.toMatch(/No koperator log line/);
  });
});

it('the SNS message carries operatorLogs for machines, and only when absent', () => {
  const m = toAlertMessage(loopEvent, { ...ctx, operatorLogs: 'absent' });
  expect(JSON.parse(buildSnsMessage(m).body).operatorLogs).toBe('absent');
  expect(parseAlertMessage(buildSnsMessage(m).body)).toEqual(m);
  expect(JSON.parse(buildSnsMessage(toAlertMessage(loopEvent, ctx)).body)).not.toHaveProperty('operatorLogs');
});
