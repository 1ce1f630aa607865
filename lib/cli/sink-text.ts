// What each sink of the local pipeline received, as the person on the other end reads it:
// the Slack message as Slack draws its blocks, the chat notification's title, description
// and next steps, the email's text. Pure functions over the payloads; local-pipeline.ts
// prints them, and its --format json keeps the raw payloads.
import type { ChatNotification } from '../notify/chat';
import type { SlackBlock, SlackPayload, SlackText } from '../notify/slack';

/** Slack's mrkdwn as read on screen: `<url|label>` shows its label, `*bold*` and `code` lose their marks. */
export function readMrkdwn(text: string): string {
  return text
    .replace(/<([^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/(^|[\s(])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?=$|[\s),.:;])/gm, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1');
}

function blockLines(block: SlackBlock): string[] {
  switch (block.type) {
    case 'header':
      return [block.text.text.toUpperCase(), ''];
    case 'section': {
      const out = block.text ? readMrkdwn(block.text.text).split('\n') : [];
      // A field is `*Label*\nvalue`: read as `Label: value`.
      for (const f of block.fields ?? []) {
        const [label, ...value] = readMrkdwn(f.text).split('\n');
        out.push(value.length ? `${label}: ${value.join(' ')}` : label);
      }
      return [...out, ''];
    }
    case 'context':
      return [block.elements.map((e: SlackText) => readMrkdwn(e.text)).join(' · '), ''];
    case 'divider':
      return ['────', ''];
    default:
      return [];
  }
}

/** The Slack message as drawn: its blocks, or its fallback text when it has none. */
export function slackAsRead(payload: unknown): string {
  const p = payload as Partial<SlackPayload>;
  const lines = Array.isArray(p.blocks) ? p.blocks.flatMap(blockLines) : [readMrkdwn(String(p.text ?? ''))];
  return trimBlankEnd(lines).join('\n');
}

/** The chat notification as Amazon Q Developer shows it: title, description, next steps. */
export function chatAsRead(notification: unknown): string {
  const n = notification as Partial<ChatNotification>;
  const c = n.content;
  if (!c) return JSON.stringify(notification);
  const lines = [readMrkdwn(c.title), '', ...readMrkdwn(c.description).split('\n')];
  if (c.nextSteps?.length) lines.push('', 'Next steps:', ...c.nextSteps.map((s) => `  - ${readMrkdwn(s)}`));
  return trimBlankEnd(lines).join('\n');
}

/**
 * Links into the emulator are dead once the command ends (it stops the emulator): each is
 * replaced by a note, in whatever form it was written (Slack's `<url|label>`, Markdown's
 * `[label](url)`, a bare URL, a JSON string).
 */
export function withoutEmulatorLinks(text: string, endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  const esc = escapeRegExp(base);
  const note = '(link left out: it pointed into the emulator, which has stopped)';
  return (
    text
      .replace(new RegExp(`<${esc}[^|>]*\\|([^>]+)>`, 'g'), `$1 ${note}`)
      .replace(new RegExp(`\\[([^\\]]*)\\]\\(${esc}[^)]*\\)`, 'g'), `$1 ${note}`)
      .replace(new RegExp(`${esc}[^\\s"'<>)\\]]*`, 'g'), note)
      // A link left out has no lifetime to tell: its "(link valid until …)", on the same line
      // or the next, goes with it.
      .replace(
        new RegExp(`${escapeRegExp(note)}[ \\t]*\\n?[ \\t]*_?\\(link valid until [^)]*\\)_?`, 'g'),
        note,
      )
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The same for every string inside a JSON value (the raw payloads of --format json). */
export function withoutEmulatorLinksDeep(value: unknown, endpoint: string): unknown {
  if (typeof value === 'string') return withoutEmulatorLinks(value, endpoint);
  if (Array.isArray(value)) return value.map((v) => withoutEmulatorLinksDeep(v, endpoint));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withoutEmulatorLinksDeep(v, endpoint)]),
    );
  return value;
}

function trimBlankEnd(lines: string[]): string[] {
  const out = [...lines];
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  return out;
}
