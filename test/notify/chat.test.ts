// The chat topic's message: Amazon Q Developer custom notification and the email text.
import {
  CHAT_LIMITS,
  buildChatNotification,
  buildChatSnsMessage,
  chatSafe,
  parseEksClusterArns,
} from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { alertAttributes, alertSubject, toAlertMessage, type AlertMessage } from '../../lib/notify/message';
import { chatSchemaProblems } from '../support/chat-schema';
import { ctx, loopEvent, recreation, recreationEvent } from './fixtures';

const EKS = { 'eks-prod': 'arn:aws:eks:eu-west-1:123456789012:cluster/prod' };

function huge(): AlertMessage {
  const fields = Array.from({ length: 400 }, (_, i) => ({
    path: `metadata.annotations.a${i}`,
    from: 'x'.repeat(3000),
    to: 'y'.repeat(3000),
    by: 'hook/h.example.com',
  }));
  return toAlertMessage({ ...recreationEvent, recreation: { ...recreation, fields } }, ctx);
}

describe('Amazon Q Developer custom notification', () => {
  it('names broker and cause in the title, fields and link in the description, the recommendation as next step', () => {
    const n = buildChatNotification(toAlertMessage(loopEvent, ctx), { eksClusterArns: EKS });
    expect(n).toMatchObject({ version: '1.0', source: 'custom', id: 'id-loop' });
    expect(n.content.textType).toBe('client-markdown');
    expect(n.content.title).toBe(
      ':rotating_light: Recreation loop started: kafka/pipeline-kafka broker 4, koperator reverts an outside change (scaleops-mutating-webhook-configuration/pods.scaleops.sh)',
    );
    expect(n.content.description).toContain(
      '• `spec.containers[name=kafka].resources.requests.cpu`: `2 → 1200m` (by scaleops-mutating-webhook-configuration/pods.scaleops.sh)',
    );
    expect(n.content.description).toContain(
      `*Full report* ${ctx.report.url} (link valid until 2026-11-03 11:31:00 UTC at the latest, sooner if the AWS session that signed it ends first)`,
    );
    expect(n.content.nextSteps).toEqual([
      'Exclude the kafka namespace from the ScaleOps webhook, or set these requests in the KafkaCluster.',
      // The fixture's loop reverts a webhook's write: the fix would end it (1.4 s: deletion to create).
      'Reason to upgrade: with koperator 0.30.0-rc1, the 12 recreations of this loop would not have happened ' +
        "(its intent diff leaves that writer's values alone); the latest cost 1.4 broker-seconds of downtime.",
      `Read the full report: ${ctx.report.url}`,
    ]);
    expect(n.metadata).toMatchObject({
      threadId: 'koperator-audit-thread-loop',
      eventType: 'loop-started',
      relatedResources: [EKS['eks-prod']],
    });
    expect(n.content.keywords).toEqual([
      'external-mutation-revert',
      'loop-started',
      'critical',
      'pipeline-kafka',
      'eks-prod',
    ]);
    expect(chatSchemaProblems(JSON.stringify(n))).toEqual([]);
  });

  it('names no related resource for a cluster without an EKS ARN, and no s3:// URI without an HTTPS link', () => {
    const n = buildChatNotification(
      toAlertMessage(recreationEvent, { ...ctx, report: { uri: 's3://b/r.json' } }),
    );
    expect(n.metadata.relatedResources).toEqual([]);
    expect(JSON.stringify(n)).not.toContain('s3://');
    expect(n.content.description).toContain('*Full report* none linked');
    expect(n.content.nextSteps).toHaveLength(1);
  });

  it('threads a loop without a stored thread (an older pending alert) by its broker and start, stably', () => {
    const { threadId: _omit, ...older } = loopEvent;
    const a = buildChatNotification(toAlertMessage(older, ctx));
    const b = buildChatNotification(toAlertMessage({ ...older, event: 'loop-ended', id: 'other' }, ctx));
    expect(a.metadata.threadId).toMatch(/^koperator-audit-[0-9a-f]{24}$/);
    expect(b.metadata.threadId).toBe(a.metadata.threadId);
  });

  it('keeps every field within the caps and the link whole when the finding is huge', () => {
    const m = huge();
    const n = buildChatNotification(m);
    expect(chatSchemaProblems(JSON.stringify(n))).toEqual([]);
    expect(n.content.description.length).toBeLessThanOrEqual(CHAT_LIMITS.descriptionChars);
    expect(n.content.description).toMatch(
      /• … \d+ more in the report\n\*Full report\* https:\/\/\S+ \(link valid/,
    );
  });

  it.each([
    ['a Slack broadcast', '<!channel>', '‹!channel›'],
    ['a Slack link', '<https://evil.example|click>', '‹https://evil.example|click›'],
    ['a Teams/Chime mention', '@oncall', '@\u200boncall'],
    ['a code span break-out', 'a`b', "a'b"],
    ['a new list line', 'a\n• fake', 'a • fake'],
  ])('neutralises %s from the logs', (_name, input, output) => expect(chatSafe(input)).toBe(output));

  it('parses name=arn pairs and refuses anything else', () => {
    expect(parseEksClusterArns(' prod = arn:aws:eks:eu-west-1:123456789012:cluster/prod ,')).toEqual({
      prod: 'arn:aws:eks:eu-west-1:123456789012:cluster/prod',
    });
    expect(parseEksClusterArns('')).toEqual({});
    expect(() => parseEksClusterArns('arn:aws:eks:eu-west-1:123456789012:cluster/prod')).toThrow(/name/);
    expect(() => parseEksClusterArns('prod=arn:aws:iam::123456789012:role/x')).toThrow(/EKS_CLUSTER_ARNS/);
  });
});

describe('the chat topic publish', () => {
  const parts = (m: AlertMessage) => ({
    chat: buildChatNotification(m),
    email: buildEmailText(m),
    subject: alertSubject(m),
    attributes: alertAttributes(m),
  });

  it('is one MessageStructure json message: the notification as default, readable text for email', () => {
    const m = toAlertMessage(recreationEvent, ctx);
    const msg = buildChatSnsMessage(m, parts(m));
    const split = JSON.parse(msg.message) as { default: string; email: string };
    expect(Object.keys(split).sort()).toEqual(['default', 'email']);
    expect(JSON.parse(split.default)).toEqual(buildChatNotification(m));
    expect(split.email).toBe(buildEmailText(m));
    expect(split.email).toContain('Deleted by: system:serviceaccount:kafka:kafka-operator');
    expect(split.email).toContain(
      '  - spec.containers[name=kafka].resources.requests.cpu: 2 → 1200m (by scaleops-mutating-webhook-configuration/pods.scaleops.sh)',
    );
    expect(split.email).toContain(
      `Full report: ${ctx.report.url}\n  (link valid until 2026-11-03 11:31:00 UTC at the latest, sooner if the AWS session that signed it ends first)`,
    );
    expect(msg.attributes).toEqual(alertAttributes(m));
  });

  it('fits SNS’s 256 KiB however large the finding: the email lists 40 fields, each change cut to a line', () => {
    const m = huge();
    const msg = buildChatSnsMessage(m, parts(m));
    expect(Buffer.byteLength(msg.message)).toBeLessThan(64 * 1024);
    const email = (JSON.parse(msg.message) as { email: string }).email;
    expect(email).toContain('  ... and 360 more in the report');
    expect(email).toMatch(/: x{50,}… → y{50,}… \(by hook\/h\.example\.com\)/);
    expect(email).toContain(`Full report: ${ctx.report.url}`);
  });
});
