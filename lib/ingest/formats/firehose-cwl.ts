// CloudWatch Logs subscription payloads, as Firehose stores them: each a JSON object
// `{"messageType":"DATA_MESSAGE",...,"logEvents":[{"id","timestamp","message"},...]}`
// whose messages are audit events escaped into JSON strings. Parsing a whole payload
// only to reach its messages doubles the work (and most messages are irrelevant), so
// this finds the message literals in the bytes and leaves each one, still escaped, to
// the byte decision (byte-relevance.ts) and, if it keeps it or is unsure, the parser. Anything unexpected returns null and the payload goes
// the general way (JSON.parse of the whole object).

const DATA = Buffer.from('{"messageType":"DATA_MESSAGE"');
const CONTROL = Buffer.from('{"messageType":"CONTROL_MESSAGE"');
const LOG_EVENTS = Buffer.from('"logEvents":[');
const EVENT = Buffer.from('{"id":');
const MESSAGE = Buffer.from('"message":"');
const LOG_GROUP = Buffer.from('"logGroup":"');
/**
 * Follows the quote that ends a message which is its event's last key, before the next
 * event. The quote is checked apart: a needle starting with `"`, the commonest byte of
 * JSON, made Buffer.indexOf 3x slower (57 vs 20 ms over the 100 MB benchmark file).
 */
const NEXT_EVENT = Buffer.from('},{"id":');
/** Ends the last message, the logEvents array and the payload. */
const LAST = Buffer.from('"}]}');
const BSLASH = 0x5c;
const QUOTE = 0x22;

export type CwlPayloadScan =
  | { kind: 'control' }
  /**
   * [start, end) of each message's string literal, without its quotes (still escaped; the
   * quotes are at start - 1 and end), and the payload's log group (null if it names none):
   * one Firehose stream may carry many log groups, and the group names the cluster.
   */
  | { kind: 'data'; messages: [number, number][]; logGroup: string | null };

/**
 * The payload's `logGroup`, read from its header (before `logEvents`). Log group names hold
 * only [.-_/#A-Za-z0-9]; a JSON writer may escape the slash.
 */
function logGroupOf(buf: Buffer, start: number, events: number): string | null {
  const at = buf.subarray(0, events).indexOf(LOG_GROUP, start);
  if (at < 0) return null;
  const from = at + LOG_GROUP.length;
  const q = buf.indexOf(QUOTE, from);
  if (q < 0 || q > events || q - from > 1024) return null;
  return buf.toString('latin1', from, q).replace(/\\\//g, '/');
}

function startsWithAt(buf: Buffer, at: number, word: Buffer): boolean {
  if (at < 0 || at + word.length > buf.length) return false;
  for (let i = 0; i < word.length; i++) if (buf[at + i] !== word[i]) return false;
  return true;
}

/** True when the quote at `q` closes a string (an even run of backslashes before it). */
function closes(buf: Buffer, q: number, from: number): boolean {
  let n = 0;
  for (let i = q - 1; i >= from && buf[i] === BSLASH; i--) n++;
  return n % 2 === 0;
}

/**
 * `"message":"` within the event starting at `at`: it follows `id` and `timestamp`, a few
 * dozen bytes on, so a short JS loop beats a call into Buffer.indexOf.
 */
function messageKey(buf: Buffer, at: number, end: number): number {
  const limit = Math.min(end - MESSAGE.length, at + 256);
  const first = MESSAGE[0];
  for (let i = at; i <= limit; i++) {
    if (buf[i] === first && startsWithAt(buf, i, MESSAGE)) return i;
  }
  return limit === at + 256 ? buf.subarray(0, end).indexOf(MESSAGE, at) : -1;
}

/** Cheap test before scanning: does the frame start like a CloudWatch payload? */
export function looksLikeCwlPayload(buf: Buffer, start: number): boolean {
  return startsWithAt(buf, start, DATA) || startsWithAt(buf, start, CONTROL);
}

/**
 * The message literals of the payload in [start, end), or null unless the bytes are laid
 * out exactly as CloudWatch writes them: logEvents last, each event `{"id":...}` with
 * `message` its last key. A raw `"` never occurs inside a string literal, so
 * the first `},{"id":` after a message starts can only follow the quote that ends it
 * (checked: anything else falls back). Everything is checked before anything is
 * returned, so a caller that falls back to JSON.parse never counts an event twice.
 */
export function scanCwlPayload(buf: Buffer, start: number, end: number): CwlPayloadScan | null {
  if (startsWithAt(buf, start, CONTROL)) return { kind: 'control' };
  if (!startsWithAt(buf, start, DATA)) return null;
  const view = buf.subarray(0, end);
  const events = view.indexOf(LOG_EVENTS, start);
  if (events < 0) return null;
  let tail = end;
  while (tail > events && (buf[tail - 1] === 0x20 || buf[tail - 1] === 0x0a || buf[tail - 1] === 0x0d))
    tail--;
  const messages: [number, number][] = [];
  const logGroup = logGroupOf(buf, start, events);
  let at = events + LOG_EVENTS.length;
  if (startsWithAt(buf, at, Buffer.from(']}')) && at + 2 === tail)
    return { kind: 'data', messages, logGroup };
  for (;;) {
    if (!startsWithAt(buf, at, EVENT)) return null;
    const m = messageKey(buf, at, end);
    if (m < 0) return null;
    const from = m + MESSAGE.length;
    const next = view.indexOf(NEXT_EVENT, from);
    const q = next >= 0 ? next - 1 : tail - LAST.length;
    if (next < 0 && !startsWithAt(buf, q, LAST)) return null;
    if (q < from || buf[q] !== QUOTE || !closes(buf, q, from)) return null;
    messages.push([from, q]);
    if (next < 0) return { kind: 'data', messages, logGroup };
    at = next + 2;
  }
}
