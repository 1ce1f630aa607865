// A drift's alert through every channel (SNS JSON and attributes, Slack, chat topic, email,
// EventBridge): each names the pod, who, when, the write, the fields declared → written,
// whether it still stands and whether koperator before its fix would have reverted it.
import type { DriftAlert } from '../../lib/alerts/types';
import type { Drift } from '../../lib/model/findings';
import { buildChatNotification, CHAT_LIMITS, chatSafe } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { buildEventBridgeEntry, DETAIL_TYPES } from '../../lib/notify/eventbridge';
import {
  buildSnsMessage,
  parseAlertMessage,
  toAlertMessage,
  type DriftAlertMessage,
} from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { chatSchemaProblems } from '../support/chat-schema';

const imageSwap: Drift = {
  namespace: 'kafka',
  kafkaCluster: 'events',
  brokerId: '0',
  pod: { name: 'events-0-xklrp', uid: 'a3c1e0f2-0000-4000-8000-000000000001' },
  at: '2026-12-01T21:59:13.512345Z',
  by: 'bob@corp.example',
  verb: 'patch',
  subresource: '',
  kind: 'image',
  fields: [
    {
      path: 'spec.containers[name=kafka].image',
      declared: 'ghcr.io/adobe/kafka:2.13-3.9.1',
      to: 'ghcr.io/adobe/kafka:2.13-4.0.0',
    },
  ],
  severity: 'tamper',
  ended: null,
  preFixWouldRevert: true,
  evidence: ['9b0c6a52-1c1e-4f55-9f0e-2d3c1a7b8e01'],
};

const debugOver: Drift = {
  ...imageSwap,
  pod: { name: 'events-1-n7l72', uid: null },
  brokerId: '1',
  by: 'carol@corp.example',
  verb: 'update',
  subresource: 'ephemeralcontainers',
  kind: 'ephemeral-container',
  fields: [
    {
      path: 'spec.ephemeralContainers[name=debugger-65rkw]',
      declared: null,
      to: { name: 'debugger-65rkw', image: 'busybox:1.36' },
    },
  ],
  ended: { at: '2026-12-01T22:03:00.000001Z', how: 'pod-deleted' },
  preFixWouldRevert: false,
};

const window = { from: '2026-12-01T21:00:00Z', to: '2026-12-01T22:10:00Z' };
const report = { uri: 's3://b/r.json', url: 'https://reports.example.com/r.html' };
const alertOf = (d: Drift, id: string): DriftAlert => ({
  kind: 'drift',
  event: 'drift-detected',
  id,
  cluster: 'prod',
  drift: d,
});

/** Every channel's text for one drift, by channel. */
function channels(d: Drift): Record<string, string> {
  const m = toAlertMessage(alertOf(d, 'd1'), { window, report });
  return {
    sns: JSON.stringify(buildSnsMessage(m)),
    slack: JSON.stringify(buildSlackPayload(m)),
    chat: JSON.stringify(buildChatNotification(m)),
    email: buildEmailText(m),
    eventbridge: JSON.stringify(buildEventBridgeEntry(m, 'default')),
  };
}

describe('drift alert messages', () => {
  it.each([
    ['a standing image swap', imageSwap, 'critical', 'stands'],
    ['a debug container, pod since deleted', debugOver, 'warning', 'pod-deleted'],
  ])('SNS: %s: severity, subject, attributes, and the finding read back', (_n, d, severity, status) => {
    const m = toAlertMessage(alertOf(d, 'd1'), { window, report });
    expect(m).toMatchObject({ findingType: 'drift', event: 'drift-detected', severity });
    const sns = buildSnsMessage(m);
    expect(sns.subject).toBe(
      `[prod] live drift: kafka/events broker ${d.brokerId} (${d.kind} by ${d.by}, ${status})`,
    );
    expect(Object.fromEntries(Object.entries(sns.attributes).map(([k, v]) => [k, v.StringValue]))).toEqual({
      event: 'drift-detected',
      classification: d.kind,
      severity,
      driftSeverity: 'tamper',
      namespace: 'kafka',
      kafkaCluster: 'events',
      cluster: 'prod',
    });
    const back = parseAlertMessage(sns.body) as DriftAlertMessage;
    expect(back.finding).toEqual({ ...d, cluster: 'prod' });
  });

  it.each([
    ['standing', imageSwap, ['still stands', 'would have reverted it', 'patch pod']],
    [
      'ended',
      debugOver,
      [
        'the pod was deleted at 2026-12-01T22:03:00.000001Z',
        'would not have reverted',
        'update pods/ephemeralcontainers',
      ],
    ],
  ])(
    'every channel names pod, who, when, the write, declared → written, status and pre-fix (%s)',
    (_n, d, words) => {
      const f = d.fields[0]!;
      const value = typeof f.to === 'string' ? f.to : 'debugger-65rkw';
      for (const [channel, text] of Object.entries(channels(d))) {
        const missing = [
          d.pod.name,
          d.by,
          d.at,
          f.path,
          value,
          ...(channel === 'sns' || channel === 'eventbridge' ? [] : words),
        ].filter((w) => !text.includes(channel === 'chat' ? chatSafe(w) : w));
        expect({ channel, missing }).toEqual({ channel, missing: [] });
      }
    },
  );

  it('human channels say "declared → written" and give the drift recommendation', () => {
    const m = toAlertMessage(alertOf(imageSwap, 'd1'), { window, report });
    expect(buildEmailText(m)).toContain('Fields (declared -> written):');
    expect(buildEmailText(m)).toContain('ghcr.io/adobe/kafka:2.13-3.9.1 → ghcr.io/adobe/kafka:2.13-4.0.0');
    const slack = JSON.stringify(buildSlackPayload(m));
    expect(slack).toContain('Fields (declared → written)');
    expect(slack).toContain('re-creates it as declared');
    const chat = buildChatNotification(m);
    expect(chat.content.title).toContain('image changed out of band, still stands');
    expect(chat.content.nextSteps[0]).toContain('re-creates it as declared');
    expect(chat.metadata.additionalContext).toMatchObject({
      pod: 'events-0-xklrp',
      stands: 'true',
      driftSeverity: 'tamper',
    });
    expect(chat.content.description.length).toBeLessThanOrEqual(CHAT_LIMITS.descriptionChars);
    // AWS's custom notification schema, for both drifts.
    for (const d of [imageSwap, debugOver])
      expect(
        chatSchemaProblems(
          JSON.stringify(buildChatNotification(toAlertMessage(alertOf(d, 'd'), { window, report }))),
        ),
      ).toEqual([]);
  });

  it('EventBridge: its own detail type, the alert JSON as detail', () => {
    const m = toAlertMessage(alertOf(imageSwap, 'd1'), { window, report });
    const e = buildEventBridgeEntry(m, 'default');
    expect(e.DetailType).toBe(DETAIL_TYPES['drift-detected']);
    expect((JSON.parse(e.Detail) as DriftAlertMessage).finding.pod.name).toBe('events-0-xklrp');
  });

  it('a huge debug container is trimmed to fit SNS, the pod and who kept', () => {
    const big: Drift = {
      ...debugOver,
      fields: [{ ...debugOver.fields[0]!, to: { name: 'x', command: ['sh', '-c', 'y'.repeat(300_000)] } }],
    };
    const sns = buildSnsMessage(toAlertMessage(alertOf(big, 'd2'), { window, report }));
    expect(Buffer.byteLength(sns.body)).toBeLessThan(256 * 1024);
    const back = parseAlertMessage(sns.body) as DriftAlertMessage;
    expect(back.truncated).toBeDefined();
    expect(back.finding.pod.name).toBe(big.pod.name);
    expect(back.finding.by).toBe(big.by);
    expect(back.finding.fields[0]!.path).toBe(big.fields[0]!.path);
  });

  it('a user name from the logs is text, not markup, in Slack and chat', () => {
    const hostile = { ...imageSwap, by: '<!channel> @here `x`' };
    const m = toAlertMessage(alertOf(hostile, 'd3'), { window, report });
    expect(JSON.stringify(buildSlackPayload(m))).not.toContain('<!channel>');
    const chat = JSON.stringify(buildChatNotification(m));
    expect(chat).not.toContain('<!channel>');
    expect(chat).not.toContain('@here');
  });
});
