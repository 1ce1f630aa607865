// The raw records an alert rests on reach people (Slack, email) and machines (the SNS JSON).
import { buildSnsMessage, parseAlertMessage, toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { buildEmailText } from '../../lib/notify/email';
import { ctx, loopEvent } from './fixtures';

const sources = [
  { object: 's3://logs-bucket/logs/_eks/2026/11/02/06/x-1', line: 12, auditID: 'a1' },
  { object: 's3://logs-bucket/logs/_eks/2026/11/02/06/x-2', line: 3, auditID: 'a2' },
  { object: 's3://logs-bucket/logs/_eks/2026/11/02/06/x-1', line: 14, auditID: 'a3' },
];
// Each object once, without the s3:// scheme no mail client opens.
const SAID =
  'Sources: logs-bucket/logs/_eks/2026/11/02/06/x-1 lines 12, 14 (requests a1, a3); ' +
  'logs-bucket/logs/_eks/2026/11/02/06/x-2 line 3 (request a2)';

it.each([
  ['Slack', (m: ReturnType<typeof toAlertMessage>) => JSON.stringify(buildSlackPayload(m))],
  ['email', (m: ReturnType<typeof toAlertMessage>) => buildEmailText(m)],
])('%s names each source object, line and request id; none when the run found none', (_, render) => {
  expect(render(toAlertMessage(loopEvent, { ...ctx, sources }))).toContain(SAID);
  expect(render(toAlertMessage(loopEvent, ctx))).not.toContain('Sources:');
});

it('the SNS message carries them as data', () => {
  const m = toAlertMessage(loopEvent, { ...ctx, sources });
  const body = buildSnsMessage(m).body;
  expect(JSON.parse(body).sources).toEqual(sources);
  expect(parseAlertMessage(body)).toEqual(m);
});
