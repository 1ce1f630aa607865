// Checks a message against Amazon Q Developer in chat applications' custom notification
// schema (AWS: `version` "1.0" and `source` "custom" required, `client-markdown` the only
// text type; content and metadata fields strings or lists of strings) and the size caps
// lib/notify/chat.ts keeps to. Returns every problem, empty when the message is valid.
import { CHAT_LIMITS } from '../../lib/notify/chat';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function chatSchemaProblems(text: string): string[] {
  const p: string[] = [];
  if (Buffer.byteLength(text) > CHAT_LIMITS.messageBytes)
    p.push(`message is ${Buffer.byteLength(text)} bytes`);
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return ['not JSON'];
  }
  if (!isObj(m)) return ['not an object'];
  const known = new Set(['version', 'source', 'id', 'content', 'metadata']);
  for (const k of Object.keys(m)) if (!known.has(k)) p.push(`unknown top-level key ${k}`);
  if (m.version !== '1.0') p.push(`version is ${JSON.stringify(m.version)}, must be "1.0"`);
  if (m.source !== 'custom') p.push(`source is ${JSON.stringify(m.source)}, must be "custom"`);
  if (m.id !== undefined && typeof m.id !== 'string') p.push('id is not a string');
  const c = m.content;
  if (!isObj(c)) p.push('content missing');
  else {
    if (c.textType !== 'client-markdown') p.push(`textType is ${JSON.stringify(c.textType)}`);
    const text = (k: string, max: number) => {
      if (typeof c[k] !== 'string' || (c[k] as string).length === 0)
        p.push(`content.${k} is not a non-empty string`);
      else if ((c[k] as string).length > max)
        p.push(`content.${k} has ${(c[k] as string).length} chars > ${max}`);
    };
    text('title', CHAT_LIMITS.titleChars);
    text('description', CHAT_LIMITS.descriptionChars);
    for (const [k, n, len] of [
      ['nextSteps', CHAT_LIMITS.nextSteps, CHAT_LIMITS.nextStepChars],
      ['keywords', CHAT_LIMITS.keywords, CHAT_LIMITS.keywordChars],
    ] as const) {
      const v = c[k];
      if (v === undefined) continue;
      if (!strings(v)) p.push(`content.${k} is not a list of strings`);
      else {
        if (v.length > n) p.push(`content.${k} has ${v.length} items > ${n}`);
        for (const s of v)
          if (s.length > len || s.length === 0) p.push(`content.${k} item of ${s.length} chars`);
      }
    }
  }
  const md = m.metadata;
  if (md !== undefined) {
    if (!isObj(md)) p.push('metadata is not an object');
    else {
      if (typeof md.threadId !== 'string' || !/^[A-Za-z0-9_-]+$/.test(md.threadId))
        p.push(`metadata.threadId ${JSON.stringify(md.threadId)} is not a plain id`);
      else if (md.threadId.length > CHAT_LIMITS.threadIdChars) p.push('metadata.threadId too long');
      if (
        md.summary !== undefined &&
        (typeof md.summary !== 'string' || md.summary.length > CHAT_LIMITS.summaryChars)
      )
        p.push('metadata.summary');
      if (md.eventType !== undefined && typeof md.eventType !== 'string') p.push('metadata.eventType');
      if (md.relatedResources !== undefined && !strings(md.relatedResources))
        p.push('metadata.relatedResources');
      if (md.additionalContext !== undefined) {
        if (!isObj(md.additionalContext)) p.push('metadata.additionalContext is not an object');
        else
          for (const [k, v] of Object.entries(md.additionalContext))
            if (typeof v !== 'string' || v.length > CHAT_LIMITS.contextValueChars)
              p.push(`metadata.additionalContext.${k}`);
      }
    }
  }
  // Links for people are HTTPS (or the emulator's http://127.0.0.1), never s3://.
  if (text.includes('s3://')) p.push('an s3:// URI reaches people');
  return p;
}
