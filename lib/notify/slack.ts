// Slack Block Kit payload for an alert message, for an incoming webhook.
// Slack's limits: header text 150 chars, section text 3000, at most 10 fields of 2000.
import type { Classification, FieldChange, Recreation } from '../model/findings';
import type { AlertMessage } from './message';

export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export type SlackBlock =
  | { type: 'header'; text: SlackText }
  | { type: 'section'; text?: SlackText; fields?: SlackText[] }
  | { type: 'context'; elements: SlackText[] }
  | { type: 'divider' };

export interface SlackPayload {
  /** Fallback for notifications and clients without blocks. */
  text: string;
  blocks: SlackBlock[];
}

const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const FIELD_MAX = 2000;
const VALUE_MAX = 200;

function cut(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}

/** Slack mrkdwn treats &, < and > as control characters. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function code(v: unknown): string {
  const s = v === undefined ? 'absent' : typeof v === 'string' ? v : JSON.stringify(v);
  // Backticks inside inline code would end it early.
  return '`' + esc(cut(s ?? 'null', VALUE_MAX)).replace(/`/g, "'") + '`';
}

const TITLES: Record<AlertMessage['event'], string> = {
  'loop-started': 'Recreation loop started',
  'loop-escalated': 'Recreation loop escalated',
  'loop-ended': 'Recreation loop ended',
  recreation: 'Broker pod re-created',
};

const SEVERITY_MARK: Record<AlertMessage['severity'], string> = {
  critical: ':rotating_light:',
  warning: ':warning:',
  info: ':information_source:',
};

/** Plain-words advice per class, for single recreations (loops carry the analysis' own). */
export function recommendationFor(c: Classification): string {
  switch (c) {
    case 'external-mutation-revert':
      return 'Something outside koperator changes a field koperator declares, so koperator reverts it by re-creating the pod. Exclude the broker pods from that webhook or controller, or declare the same value in the KafkaCluster spec.';
    case 'intent-change':
      return 'The KafkaCluster spec changed; a rolling restart is expected. Check the change was intended.';
    case 'config-change':
      return 'The broker configuration changed (per-broker ConfigMap); the restart applies it. Check who changed it.';
    case 'tainted-restart':
      return 'The broker pod carried labels matching the tainted-brokers selector. Find who set the label.';
    case 'container-terminated':
      return 'A broker container terminated (crash, OOM kill) or the pod was evicted; look at its limits and node.';
    case 'external-deletion':
      return 'Someone other than koperator deleted or evicted the pod (kubectl, drain, autoscaler). Check it was planned.';
    case 'unknown':
      return 'The logs do not show why. Make sure the audit policy logs pod writes at RequestResponse and koperator logs reach the bucket.';
  }
}

function fieldLines(fields: readonly FieldChange[]): string[] {
  return fields.map(
    (f) => `• ${code(f.path)}: ${code(f.from)} → ${code(f.to)}${f.by ? ` (by ${esc(f.by)})` : ''}`,
  );
}

function whoOf(m: AlertMessage): string {
  if (m.findingType === 'loop') {
    const who =
      m.finding.mutators.length > 0
        ? m.finding.mutators
        : (m.latestRecreation?.fields.map((f) => f.by).filter((b): b is string => !!b) ?? []);
    return who.length > 0 ? [...new Set(who)].map(esc).join(', ') : 'unknown';
  }
  const r = m.finding;
  const by = [...new Set(r.fields.map((f) => f.by).filter((b): b is string => !!b))];
  const parts = [`deleted by ${esc(r.deletedPod.deletedBy ?? 'unknown')}`];
  if (by.length > 0) parts.push(`changed by ${by.map(esc).join(', ')}`);
  return parts.join('; ');
}

function periodOf(m: AlertMessage): string {
  if (m.findingType === 'loop') {
    const l = m.finding;
    return `every ~${l.periodSeconds} s, ${l.firstAt} → ${l.lastAt}${l.active ? ' (still looping)' : ''}`;
  }
  const r: Recreation = m.finding;
  return r.createdPod
    ? `${r.deletedPod.deletedAt} → ${r.createdPod.createdAt}`
    : `deleted ${r.deletedPod.deletedAt}, no successor seen`;
}

export function buildSlackPayload(m: AlertMessage): SlackPayload {
  const f = m.finding;
  const broker = `${f.namespace}/${f.kafkaCluster} broker ${f.brokerId}`;
  const count = m.findingType === 'loop' ? String(m.totalCount) : '1';
  const title = `${TITLES[m.event]}: ${f.kafkaCluster} broker ${f.brokerId}`;
  const fields: SlackText[] = [
    { type: 'mrkdwn', text: `*Broker*\n${esc(broker)}` },
    { type: 'mrkdwn', text: `*Class*\n${code(f.classification)}` },
    { type: 'mrkdwn', text: `*Count*\n${count}` },
    { type: 'mrkdwn', text: cut(`*Period*\n${esc(periodOf(m))}`, FIELD_MAX) },
    { type: 'mrkdwn', text: cut(`*Who*\n${whoOf(m)}`, FIELD_MAX) },
    { type: 'mrkdwn', text: `*Cluster*\n${esc(m.cluster)}` },
  ];
  const changes =
    m.findingType === 'loop'
      ? m.latestRecreation && m.latestRecreation.fields.length > 0
        ? fieldLines(m.latestRecreation.fields)
        : m.finding.fields.map((p) => `• ${code(p)}`)
      : fieldLines(m.finding.fields);
  const recommendation =
    m.findingType === 'loop' && m.finding.recommendation
      ? m.finding.recommendation
      : recommendationFor(f.classification);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, HEADER_MAX), emoji: true } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${SEVERITY_MARK[m.severity]} *${esc(TITLES[m.event])}* (${m.severity})`,
      },
      fields,
    },
  ];
  if (changes.length > 0) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*Fields (from → to)*\n${changes.join('\n')}`, SECTION_MAX) },
    });
  }
  blocks.push({
    type: 'section',
    text: { type: 'mrkdwn', text: cut(`*Recommendation*\n${esc(recommendation)}`, SECTION_MAX) },
  });
  const ctx: SlackText[] = [];
  if (m.report)
    ctx.push({
      type: 'mrkdwn',
      text: reportText(m.report),
    });
  ctx.push({
    type: 'mrkdwn',
    text: `alert ${code(m.id)} · window ${esc(m.window.from)} → ${esc(m.window.to)}`,
  });
  if (m.truncated && m.truncated.length > 0)
    ctx.push({ type: 'mrkdwn', text: `trimmed to fit SNS: ${esc(m.truncated.join(', '))}` });
  blocks.push({ type: 'context', elements: ctx });
  return {
    // The fallback text is mrkdwn too (notifications, old clients): names from the logs
    // must not become <!channel> mentions or <url|links>.
    text: esc(
      cut(`${TITLES[m.event]}: ${broker} (${f.classification}, ${count}x) in ${m.cluster}`, SECTION_MAX),
    ),
    blocks,
  };
}

/** People get the HTML page when there is one, and a clickable link when pre-signing is on. */
function reportText(r: NonNullable<AlertMessage['report']>): string {
  if (r.html?.url) return `<${r.html.url}|Full report>`;
  if (r.url) return `<${r.url}|Full report>`;
  return `Full report: ${code(r.html?.uri ?? r.uri)}`;
}
