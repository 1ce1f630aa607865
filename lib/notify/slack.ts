// Slack Block Kit payload for an alert message, for an incoming webhook.
// Slack's limits: header text 150 chars, section text 3000, at most 10 fields of 2000.
import type { AlertMessage } from './message';
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
  sourcesText,
} from './words';

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

const SEVERITY_MARK: Record<AlertMessage['severity'], string> = {
  critical: ':rotating_light:',
  warning: ':warning:',
  info: ':information_source:',
};

function fieldLines(fields: ReturnType<typeof changesOf>): string[] {
  return fields.map((f) => {
    const by = f.by ? ` (by ${esc(f.by)})` : '';
    const lines = f.lines ?? [];
    if (lines.length === 0) return `• ${code(f.path)}`;
    if (lines.length === 1) return `• ${code(f.path)}: ${code(lines[0])}${by}`;
    return [`• ${code(f.path)}${by}`, ...lines.map((l) => `    ${code(l)}`)].join('\n');
  });
}

function whoOf(m: AlertMessage): string {
  const who = changersOf(m).map(esc);
  if (m.findingType !== 'recreation') return who.length > 0 ? who.join(', ') : 'unknown';
  const parts = [`deleted by ${esc(m.finding.deletedPod.deletedBy ?? 'unknown')}`];
  if (who.length > 0) parts.push(`changed by ${who.join(', ')}`);
  return parts.join('; ');
}

export function buildSlackPayload(m: AlertMessage): SlackPayload {
  const broker = brokerOf(m);
  const count = String(countOf(m));
  const fight = m.findingType === 'fight';
  const title = fight
    ? `${titleOf(m)}: ${broker}`
    : `${titleOf(m)}: ${m.finding.kafkaCluster} broker ${m.finding.brokerId}`;
  const fields: SlackText[] =
    m.findingType === 'drift'
      ? [
          { type: 'mrkdwn', text: `*Broker*\n${esc(broker)}` },
          { type: 'mrkdwn', text: `*Kind*\n${code(classOf(m))}` },
          { type: 'mrkdwn', text: cut(`*Pod*\n${code(m.finding.pod.name)}`, FIELD_MAX) },
          {
            type: 'mrkdwn',
            text: cut(`*When*\n${esc(m.finding.at)} (${esc(driftWriteWords(m.finding))})`, FIELD_MAX),
          },
          { type: 'mrkdwn', text: cut(`*Who*\n${whoOf(m)}`, FIELD_MAX) },
          { type: 'mrkdwn', text: `*Cluster*\n${esc(m.cluster)}` },
          { type: 'mrkdwn', text: cut(`*Status*\n${esc(driftStatusWords(m.finding))}`, FIELD_MAX) },
          { type: 'mrkdwn', text: cut(`*Before the fix*\n${esc(preFixWords(m.finding))}`, FIELD_MAX) },
        ]
      : [
          { type: 'mrkdwn', text: `*${fight ? 'Fight' : 'Broker'}*\n${esc(broker)}` },
          { type: 'mrkdwn', text: `*${fight ? 'Kind' : 'Class'}*\n${code(classOf(m))}` },
          { type: 'mrkdwn', text: `*Count*\n${count}` },
          { type: 'mrkdwn', text: cut(`*Period*\n${esc(periodOf(m))}`, FIELD_MAX) },
          { type: 'mrkdwn', text: cut(`*Who*\n${whoOf(m)}`, FIELD_MAX) },
          { type: 'mrkdwn', text: `*Cluster*\n${esc(m.cluster)}` },
        ];
  const changes = fieldLines(changesOf(m));
  const recommendation = recommendationOf(m);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, HEADER_MAX), emoji: true } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `${SEVERITY_MARK[m.severity]} *${esc(titleOf(m))}* (${m.severity})`,
      },
      fields,
    },
  ];
  if (changes.length > 0) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*${fight ? 'Fields fought over' : m.findingType === 'drift' ? 'Fields (declared → written)' : 'Fields (from → to)'}*\n${changes.join('\n')}`,
          SECTION_MAX,
        ),
      },
    });
  }
  blocks.push({
    type: 'section',
    text: { type: 'mrkdwn', text: cut(`*Recommendation*\n${esc(recommendation)}`, SECTION_MAX) },
  });
  const upgrade = upgradeReasonOf(m);
  if (upgrade)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(esc(upgrade), SECTION_MAX) } });
  const logsStep = operatorLogsStepOf(m);
  if (logsStep)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`:warning: ${esc(logsStep)}`, SECTION_MAX) },
    });
  const ctx: SlackText[] = [{ type: 'mrkdwn', text: reportText(m.report) }];
  ctx.push({
    type: 'mrkdwn',
    text: `alert ${code(m.id)} · window ${esc(m.window.from)} → ${esc(m.window.to)}`,
  });
  if (m.truncated && m.truncated.length > 0)
    ctx.push({ type: 'mrkdwn', text: `trimmed to fit SNS: ${esc(m.truncated.join(', '))}` });
  const sources = sourcesText(m);
  if (sources) ctx.push({ type: 'mrkdwn', text: cut(esc(sources), SECTION_MAX) });
  blocks.push({ type: 'context', elements: ctx });
  return {
    // The fallback text is mrkdwn too (notifications, old clients): names from the logs
    // must not become <!channel> mentions or <url|links>.
    text: esc(cut(`${titleOf(m)}: ${broker} (${classOf(m)}, ${count}x) in ${m.cluster}`, SECTION_MAX)),
    blocks,
  };
}

/** A clickable HTTPS link (the HTML page when there is one) with its lifetime; never an s3:// URI. */
function reportText(r: AlertMessage['report']): string {
  const link = reportLinkOf(r);
  if (!link) return 'No report link (the run wrote no report, or links are not configured)';
  return `<${link.url}|Full report>${link.lifetime ? ` (${esc(link.lifetime)})` : ''}`;
}
