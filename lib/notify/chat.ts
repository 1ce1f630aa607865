// Amazon Q Developer in chat applications (formerly AWS Chatbot) custom notifications: the
// only SNS messages it shows in Slack, Teams or Chime. AWS's schema: `version` "1.0" and
// `source` "custom" required; `content.textType` "client-markdown" the only text type;
// `metadata.threadId` groups a loop's updates in one thread. AWS does not publish length
// limits per field, so this module keeps to the tightest renderer it lands in (a Slack
// section holds 3,000 characters) and to SNS's 256 KiB per message.
import { createHash } from 'crypto';
import type { AlertMessage } from './message';
import type { Classification } from '../model/findings';
import { fightLabel } from '../fights/key';
import { driftStatusWords, driftWriteWords, preFixWords } from './drift-words';
import {
  brokerOf,
  changersOf,
  classOf,
  changesOf,
  countOf,
  periodOf,
  titleOf,
  recommendationOf,
  reportLinkOf,
  upgradeReasonOf,
  operatorLogsStepOf,
  valueText,
} from './words';

export interface ChatNotification {
  version: '1.0';
  source: 'custom';
  id: string;
  content: {
    textType: 'client-markdown';
    title: string;
    description: string;
    nextSteps: string[];
    keywords: string[];
  };
  metadata: {
    threadId: string;
    summary: string;
    eventType: string;
    relatedResources: string[];
    additionalContext: Record<string, string>;
  };
}

/** The caps this module keeps to (see the header); the end-to-end test checks every message against them. */
export const CHAT_LIMITS = {
  titleChars: 250,
  descriptionChars: 3000,
  nextStepChars: 1000,
  nextSteps: 5,
  keywordChars: 75,
  keywords: 10,
  summaryChars: 250,
  threadIdChars: 128,
  contextValueChars: 256,
  messageBytes: 256 * 1024,
} as const;

export interface ChatContext {
  /** EKS cluster ARN by Kubernetes cluster name (the name the logs are filed under). */
  eksClusterArns?: Readonly<Record<string, string>>;
}

const SEVERITY_MARK: Record<AlertMessage['severity'], string> = {
  critical: ':rotating_light:',
  warning: ':warning:',
  info: ':information_source:',
};

const CAUSE_WORDS: Record<Classification, string> = {
  'external-mutation-revert': 'koperator reverts an outside change',
  'intent-change': 'KafkaCluster spec changed',
  'config-change': 'broker config changed',
  'tainted-restart': 'tainted broker',
  'container-terminated': 'container terminated',
  'external-deletion': 'deleted by someone else',
  unknown: 'cause not in the logs',
};

function cut(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}

/**
 * Names from the logs are data, not markup: a backtick would end a code span, angle
 * brackets make Slack mentions and links (`<!channel>`, `<url|text>`), a newline would
 * start a list item, and `@name` mentions someone in Teams and Chime, so `@` gets a
 * zero-width space after it.
 */
export function chatSafe(s: string): string {
  return (
    s
      // Control characters (newlines would start list items) and bidi overrides (which
      // reorder what a reader sees) become spaces.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ')
      .replace(/`/g, "'")
      .replace(/</g, '‹')
      .replace(/>/g, '›')
      .replace(/@/g, '@\u200b')
  );
}

/** Change lines (change-lines.ts) come already cut to their own length. */
const CHANGE_CODE_MAX = 160;

function code(v: unknown, max = 120): string {
  return '`' + chatSafe(valueText(v, max)) + '`';
}

function threadIdOf(m: AlertMessage): string {
  if (m.findingType === 'loop' && m.threadId) return m.threadId;
  // Pending alerts from older versions carry no thread: derive one from the loop's broker
  // and start; a single recreation is its own thread.
  if (m.findingType === 'fight') return m.threadId;
  const f = m.finding;
  const key =
    m.findingType === 'loop'
      ? [m.cluster, f.namespace, m.finding.kafkaCluster, m.finding.brokerId, m.finding.firstAt]
      : [m.cluster, m.id];
  return 'koperator-audit-' + createHash('sha256').update(key.join('\u0000')).digest('hex').slice(0, 24);
}

function descriptionOf(m: AlertMessage, budget: number): string {
  const link = reportLinkOf(m.report);
  const who = changersOf(m);
  const broker = `*${m.findingType === 'fight' ? 'Fight' : 'Broker'}* ${chatSafe(brokerOf(m))} in cluster ${chatSafe(m.cluster)}`;
  // A drift is one write: its pod, the write and how it stands take the place of count and period.
  const head =
    m.findingType === 'drift'
      ? [
          broker,
          `*Kind* ${code(classOf(m))} · *Severity* ${m.severity}`,
          `*Who* ${chatSafe(m.finding.by)}`,
          `*Pod* ${code(m.finding.pod.name)} · *Write* ${chatSafe(driftWriteWords(m.finding))} at ${chatSafe(m.finding.at)}`,
          `*Status* ${chatSafe(driftStatusWords(m.finding))}; ${chatSafe(preFixWords(m.finding))}`,
        ]
      : [
          broker,
          `*${m.findingType === 'fight' ? 'Kind' : 'Class'}* ${code(classOf(m))} · *Count* ${countOf(m)} · *Severity* ${m.severity}`,
          `*Period* ${chatSafe(periodOf(m))}`,
          m.findingType === 'recreation'
            ? `*Who* deleted by ${chatSafe(m.finding.deletedPod.deletedBy ?? 'unknown')}${who.length > 0 ? `; changed by ${who.map(chatSafe).join(', ')}` : ''}`
            : `*Who* ${who.length > 0 ? who.map(chatSafe).join(', ') : 'unknown'}`,
        ];
  const fieldsTitle =
    m.findingType === 'drift' ? '*Fields (declared → written)*' : '*Fields (from → to, by whom)*';
  const tail = [
    link
      ? `*Full report* ${link.url}${link.lifetime ? ` (${link.lifetime})` : ''}`
      : '*Full report* none linked (the run wrote no report, or links are not configured)',
  ];
  const fixed = [...head, fieldsTitle, ...tail].join('\n').length + 1;
  // The fields fill what the header and the link leave; the link is never cut.
  const lines: string[] = [];
  let used = 0;
  const changes = changesOf(m);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const by = c.by ? ` (by ${chatSafe(c.by)})` : '';
    const changed = c.lines ?? [];
    const line =
      changed.length === 0
        ? `• ${code(c.path)}`
        : changed.length === 1
          ? `• ${code(c.path)}: ${code(changed[0], CHANGE_CODE_MAX)}${by}`
          : [`• ${code(c.path)}${by}`, ...changed.map((l) => `    ${code(l, CHANGE_CODE_MAX)}`)].join('\n');
    const more = `• … ${changes.length - i} more in the report`;
    if (fixed + used + line.length + 1 + more.length + 1 > budget) {
      lines.push(more);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  // Whatever is cut, it is never the link: a cut URL is a broken one.
  const whole = tail.join('\n');
  // A URL longer than the whole description cannot be shown at all: say so, never cut it.
  const tailText =
    whole.length < budget
      ? whole
      : `*Full report* its link (${link?.url.length ?? 0} characters) is longer than a chat message holds: see the email or the alerts topic`;
  const rest = [...head, ...(lines.length > 0 ? [fieldsTitle, ...lines] : [])].join('\n');
  return `${cut(rest, Math.max(0, budget - tailText.length - 1))}\n${tailText}`;
}

/**
 * The next step that opens the report. A pre-signed URL is 1,300-1,700 characters with a
 * role's session token, more than a next step holds: then it points at the link in the
 * description, which holds it whole, instead of carrying a cut (broken) URL.
 */
function reportNextStep(url: string): string {
  const step = `Read the full report: ${url}`;
  return step.length <= CHAT_LIMITS.nextStepChars
    ? step
    : 'Read the full report: open the *Full report* link above (too long to repeat here)';
}

/** The chat notification for one alert; every field within CHAT_LIMITS. */
export function buildChatNotification(m: AlertMessage, ctx: ChatContext = {}): ChatNotification {
  const who = changersOf(m);
  const causeWords =
    m.findingType === 'fight'
      ? 'controllers fighting'
      : m.findingType === 'drift'
        ? `${m.finding.kind} changed out of band${m.finding.ended === null ? ', still stands' : ''}`
        : CAUSE_WORDS[m.finding.classification];
  const cause = `${causeWords}${who.length > 0 ? ` (${who.join(', ')})` : ''}`;
  const kafkaCluster = m.findingType === 'fight' ? '' : m.finding.kafkaCluster;
  const title = cut(
    chatSafe(`${titleOf(m)}: ${brokerOf(m)}, ${cause}`),
    CHAT_LIMITS.titleChars - SEVERITY_MARK[m.severity].length - 1,
  );
  const link = reportLinkOf(m.report);
  const nextSteps = [cut(chatSafe(recommendationOf(m)), CHAT_LIMITS.nextStepChars)];
  const upgrade = upgradeReasonOf(m);
  if (upgrade) nextSteps.push(cut(chatSafe(upgrade), CHAT_LIMITS.nextStepChars));
  const logsStep = operatorLogsStepOf(m);
  if (logsStep) nextSteps.push(cut(chatSafe(logsStep), CHAT_LIMITS.nextStepChars));
  if (link) nextSteps.push(reportNextStep(link.url));
  const eks = ctx.eksClusterArns?.[m.cluster];
  const keywords = [classOf(m), m.event, m.severity, kafkaCluster, m.cluster]
    .map((k) => cut(chatSafe(k), CHAT_LIMITS.keywordChars))
    .filter((k, i, all) => k !== '' && all.indexOf(k) === i)
    .slice(0, CHAT_LIMITS.keywords);
  const context: Record<string, string> =
    m.findingType === 'drift'
      ? {
          cluster: m.cluster,
          namespace: m.finding.namespace,
          kafkaCluster: m.finding.kafkaCluster,
          brokerId: m.finding.brokerId,
          pod: m.finding.pod.name,
          kind: m.finding.kind,
          driftSeverity: m.finding.severity,
          stands: String(m.finding.ended === null),
          severity: m.severity,
          alertId: m.id,
        }
      : m.findingType === 'fight'
        ? {
            cluster: m.cluster,
            namespace: m.finding.namespace ?? '',
            kind: m.finding.kind,
            object: fightLabel(m.finding),
            severity: m.severity,
            count: String(countOf(m)),
            alertId: m.id,
          }
        : {
            cluster: m.cluster,
            namespace: m.finding.namespace,
            kafkaCluster: m.finding.kafkaCluster,
            brokerId: m.finding.brokerId,
            classification: m.finding.classification,
            severity: m.severity,
            count: String(countOf(m)),
            alertId: m.id,
          };
  return {
    version: '1.0',
    source: 'custom',
    id: m.id,
    content: {
      textType: 'client-markdown',
      title: `${SEVERITY_MARK[m.severity]} ${title}`,
      description: descriptionOf(m, CHAT_LIMITS.descriptionChars),
      nextSteps,
      keywords,
    },
    metadata: {
      threadId: threadIdOf(m),
      summary: cut(
        chatSafe(`${titleOf(m)}: ${brokerOf(m)} (${classOf(m)}, ${countOf(m)}x)`),
        CHAT_LIMITS.summaryChars,
      ),
      eventType: m.event,
      relatedResources: eks ? [eks] : [],
      additionalContext: Object.fromEntries(
        Object.entries(context).map(([k, v]) => [k, cut(v, CHAT_LIMITS.contextValueChars)]),
      ),
    },
  };
}

/** `name=arn,name=arn` (the eksClusterArns stage param) as a map; throws on a malformed pair. */
export function parseEksClusterArns(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const arn = pair.slice(eq + 1).trim();
    if (eq <= 0 || !/^arn:aws[a-z-]*:eks:[a-z0-9-]+:\d{12}:cluster\/[A-Za-z0-9][A-Za-z0-9_-]*$/.test(arn))
      throw new Error(
        `EKS_CLUSTER_ARNS: "${pair}" is not <cluster name>=arn:aws:eks:<region>:<account>:cluster/<name>`,
      );
    out[name] = arn;
  }
  return out;
}

/** One SNS publish with MessageStructure json: chat clients get `default`, email endpoints `email`. */
export interface ChatSnsMessage {
  subject: string;
  /** The JSON object SNS splits per protocol, serialised. */
  message: string;
  attributes: Record<string, { DataType: 'String'; StringValue: string }>;
}

export function buildChatSnsMessage(
  m: AlertMessage,
  parts: { chat: ChatNotification; email: string; subject: string; attributes: ChatSnsMessage['attributes'] },
): ChatSnsMessage {
  // Both parts are bounded (the notification by CHAT_LIMITS, the email by its 40 fields of
  // at most 300-character values), far below SNS's limit; checked all the same.
  const message = JSON.stringify({ default: JSON.stringify(parts.chat), email: parts.email });
  const bytes =
    Buffer.byteLength(message) +
    Buffer.byteLength(parts.subject) +
    Object.entries(parts.attributes).reduce(
      (n, [k, v]) => n + Buffer.byteLength(k) + v.DataType.length + Buffer.byteLength(v.StringValue),
      0,
    );
  if (bytes > CHAT_LIMITS.messageBytes)
    throw new Error(
      `chat message for alert ${m.id} is ${bytes} bytes, over SNS's ${CHAT_LIMITS.messageBytes}`,
    );
  return { subject: parts.subject, message, attributes: parts.attributes };
}
