// A fight's alert through every channel (SNS JSON, Slack, chat topic, email, EventBridge): the
// object fought over, who fights, the fields, the recommendation and the report link, within
// each channel's limits, with names from the logs kept as text.
import type { FightAlert } from '../../lib/alerts/types';
import { buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { buildEventBridgeEntry } from '../../lib/notify/eventbridge';
import {
  buildSnsMessage,
  parseAlertMessage,
  toAlertMessage,
  type FightAlertMessage,
} from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';

const alert: FightAlert = {
  kind: 'fight',
  event: 'fight-started',
  id: 'f1',
  cluster: 'prod',
  threadId: 'koperator-audit-thread-f1',
  totalCount: 9,
  fight: {
    kind: 'recreate-loop',
    namespace: 'payments-db',
    target: { apiGroup: 'postgresql.cnpg.io', resource: 'clusters', name: 'pg-ledger', slot: 'pg-ledger-2' },
    writers: ['system:serviceaccount:cnpg-system:cnpg-manager'],
    mutators: ['pod-identity-webhook/iam-for-pods.amazonaws.com'],
    fields: ['spec.containers[name=postgres].env[name=AWS_ROLE_ARN]', 'spec.volumes[name=aws-iam-token]'],
    count: 9,
    firstAt: '2026-11-09T15:05:01.255723Z',
    lastAt: '2026-11-09T15:09:00.355521Z',
    periodSeconds: 30,
    active: true,
    recommendation: 'Make the webhook skip the instance pods <!channel>.',
    evidence: ['24c21cd6-d447-4e88-8b1b-c49e6e133c6c'],
  },
};

const report = { uri: 's3://b/r.json', url: 'https://reports.example.com/r.html' };
const message = toAlertMessage(alert, {
  window: { from: '2026-11-09T15:00:00Z', to: '2026-11-09T16:00:00Z' },
  report,
});

describe('fight alert messages', () => {
  it('SNS: a fight finding, critical while active, subject and attributes naming the object and kind', () => {
    expect(message).toMatchObject({
      findingType: 'fight',
      severity: 'critical',
      totalCount: 9,
      threadId: alert.threadId,
    });
    const sns = buildSnsMessage(message);
    expect(sns.subject).toBe(
      '[prod] fight started: recreate-loop payments-db/clusters/pg-ledger [pg-ledger-2] (9x)',
    );
    expect(sns.attributes.classification.StringValue).toBe('recreate-loop');
    expect(sns.attributes.event.StringValue).toBe('fight-started');
    const back = parseAlertMessage(sns.body) as FightAlertMessage;
    expect(back.finding.fields).toEqual(alert.fight.fields);
  });

  it('SNS: trimmed to fit, the paths kept', () => {
    const big = toAlertMessage(
      {
        ...alert,
        fight: {
          ...alert.fight,
          fields: Array.from({ length: 5000 }, (_, i) => `spec.x${i}.${'y'.repeat(60)}`),
        },
      },
      { window: { from: 'a', to: 'b' }, report },
    );
    const sns = buildSnsMessage(big, 64 * 1024);
    expect(Buffer.byteLength(sns.body)).toBeLessThanOrEqual(64 * 1024);
    expect((JSON.parse(sns.body) as FightAlertMessage).truncated).toContain('fields');
  });

  it('Slack: the fight, who fights, the fields, the recommendation escaped, the report link', () => {
    const p = buildSlackPayload(message);
    const text = JSON.stringify(p.blocks);
    expect(p.blocks[0]).toMatchObject({ type: 'header' });
    expect(text).toContain('recreate-loop over payments-db/clusters/pg-ledger [pg-ledger-2]');
    expect(text).toContain('cnpg-manager');
    expect(text).toContain('pod-identity-webhook/iam-for-pods.amazonaws.com');
    expect(text).toContain('AWS_ROLE_ARN');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('<https://reports.example.com/r.html|Full report>');
  });

  it('chat topic: one thread per fight, the kind and object in title and context', () => {
    const n = buildChatNotification(message);
    expect(n.metadata.threadId).toBe(alert.threadId);
    expect(n.content.title).toContain('recreate-loop over payments-db/clusters/pg-ledger');
    expect(n.content.nextSteps[0]).toContain('Make the webhook skip the instance pods');
    expect(n.metadata.additionalContext).toMatchObject({ kind: 'recreate-loop', namespace: 'payments-db' });
    expect(n.content.description).toContain('https://reports.example.com/r.html');
  });

  it('email and EventBridge: the same facts in words, and a detail type of their own', () => {
    const email = buildEmailText(message);
    expect(email).toContain('Controller fight started: recreate-loop over payments-db/clusters/pg-ledger');
    expect(email).toContain('Kind:      recreate-loop');
    expect(email).toContain('Count:     9 cycle(s)');
    expect(email).toContain('spec.volumes[name=aws-iam-token]');
    expect(email).toContain('Make the webhook skip the instance pods');
    expect(buildEventBridgeEntry(message, 'bus').DetailType).toBe('Controller Fight Started');
  });
});
