// Two line formats start with a timestamp and a space:
//   EKS CloudWatch Logs export:  `2026-11-02T10:01:05.541Z {"kind":"Event",...}`
//   CRI container log:           `2026-11-02T10:01:05.541234567Z stderr F {"level":"info",...}`
// Recognised from the bytes alone, without building a string first.

const SP = 0x20;

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

/** Index of the space ending an RFC 3339 timestamp at `start`, or -1. */
export function timestampEnd(buf: Buffer, start: number, end: number): number {
  if (end - start < 21) return -1;
  if (
    !isDigit(buf[start]) ||
    !isDigit(buf[start + 3]) ||
    buf[start + 4] !== 0x2d /* - */ ||
    buf[start + 7] !== 0x2d ||
    (buf[start + 10] !== 0x54 /* T */ && buf[start + 10] !== 0x74) ||
    buf[start + 13] !== 0x3a /* : */
  ) {
    return -1;
  }
  const limit = Math.min(end, start + 40);
  for (let i = start + 19; i < limit; i++) if (buf[i] === SP) return i;
  return -1;
}

export interface CriHead {
  stream: 'stdout' | 'stderr';
  /** P: the line continues in the next record of the same stream; F: it ends here. */
  partial: boolean;
  /** Start of the logged text. */
  text: number;
}

const STDOUT = Buffer.from('stdout ');
const STDERR = Buffer.from('stderr ');

function hasAt(buf: Buffer, at: number, word: Buffer): boolean {
  if (at + word.length > buf.length) return false;
  for (let i = 0; i < word.length; i++) if (buf[at + i] !== word[i]) return false;
  return true;
}

/** Parses `<stream> <P|F> ` at `at` (just after the timestamp's space). */
export function criHead(buf: Buffer, at: number, end: number): CriHead | null {
  if (end - at < 9) {
    // `stdout F` with an empty message and no trailing space is still a (blank) line.
    if (end - at !== 8) return null;
  }
  const stream = hasAt(buf, at, STDOUT) ? 'stdout' : hasAt(buf, at, STDERR) ? 'stderr' : null;
  if (!stream) return null;
  const tag = buf[at + 7];
  if (tag !== 0x50 /* P */ && tag !== 0x46 /* F */) return null;
  if (at + 8 < end && buf[at + 8] !== SP) return null;
  return { stream, partial: tag === 0x50, text: Math.min(at + 9, end) };
}
