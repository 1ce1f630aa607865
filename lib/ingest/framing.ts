// Cuts a byte stream into records without knowing the format in advance:
//  - JSON lines (the common case, found with native newline search: no per-byte JS),
//  - JSON values spread over several lines (a pretty-printed EventList),
//  - JSON values concatenated with no delimiter at all (Firehose after gunzip),
//  - text lines (`<timestamp> <event>` exports, CRI lines, and junk).
// Values that are not simply one line are scanned byte by byte, tracking strings and
// nesting, and re-synchronised at the next line when a record was cut short: a raw
// newline inside a string, or a line starting with `{` or `[` while a value is still
// open, proves the previous record is damaged. A record never grows past `maxBytes`:
// beyond that it is skipped while scanning continues, so memory stays bounded.
//
// Frames are handed to the sink as (buffer, start, end) views, valid only during the call.

export type FrameSkip = 'incomplete-record' | 'line-too-long';

export interface FrameSink {
  /** A candidate JSON value: bytes [start, end) begin with `{` or `[` and end with its closer. */
  json(buf: Buffer, start: number, end: number, line: number): void;
  /** A line that does not start with `{` or `[` (without its line terminator). */
  text(buf: Buffer, start: number, end: number, line: number): void;
  skip(line: number, reason: FrameSkip): void;
}

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SP = 0x20;
const NUL = 0x00;
const QUOTE = 0x22;
const BSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACK = 0x5b;
const RBRACK = 0x5d;

const BRACES = Buffer.from('}{');
const BOM = [0xef, 0xbb, 0xbf];

const enum Mode {
  Between,
  Value,
  DiscardLine,
}

/** Caches the next match of a needle, so repeated queries scan each byte once per buffer. */
class NextMatch {
  /** Position of the first match at or after `from`, or -1 if none in [from, to). */
  private at = -1;
  private from = 0;
  private to = 0;

  constructor(private readonly needle: number | Buffer) {}

  find(buf: Buffer, p: number): number {
    if (this.at >= p && p >= this.from) return this.at;
    let q = p;
    if (this.at === -1 && p >= this.from && p < this.to) {
      if (this.to === buf.length) return -1;
      // Resume where the last search stopped (minus an overlap for 2-byte needles).
      q = Math.max(p, this.to - 1);
    }
    this.at = buf.indexOf(this.needle, q);
    this.from = p;
    this.to = buf.length;
    return this.at;
  }

  /** The buffer was rebuilt without its first `shift` bytes. */
  rebase(shift: number): void {
    this.at = this.at >= 0 ? this.at - shift : -1;
    this.from = Math.max(0, this.from - shift);
    this.to = Math.max(0, this.to - shift);
    if (this.at < 0) this.at = -1;
  }
}

/**
 * Whether the `}{` at `at` certainly separates two concatenated objects, so the values
 * need no byte-by-byte scan (Firehose objects are megabytes of them). In valid JSON a
 * raw `"` always opens or closes a string, and a string is followed by `:`, `,`, `}`,
 * `]` or space. So `}{"` followed by a letter cannot lie inside a string, and `}{` is
 * structural only between top-level values. Anything less certain is scanned.
 */
function isBoundary(buf: Buffer, at: number): boolean {
  return opensWithKey(buf, at + 1);
}

/** `{"` and a letter (or `_`, `@`) at `at`: an object whose first key starts there. */
function opensWithKey(buf: Buffer, at: number): boolean {
  if (buf[at] !== LBRACE || buf[at + 1] !== QUOTE) return false;
  const k = buf[at + 2];
  return (
    k !== undefined && ((k >= 0x61 && k <= 0x7a) || (k >= 0x41 && k <= 0x5a) || k === 0x5f || k === 0x40)
  );
}

function isSpace(b: number): boolean {
  return b === SP || b === CR || b === TAB || b === LF;
}

export class Framer {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private line = 1;
  private mode = Mode.Between;
  private first = true;
  private readonly nl = new NextMatch(LF);
  private readonly braces = new NextMatch(BRACES);
  // State of a value being scanned byte by byte.
  private vStart = 0;
  private vLine = 0;
  private vNewlines = 0;
  private scan = 0;
  private depth = 0;
  private inStr = false;
  private esc = false;
  private discarding = false;
  /** NUL bytes seen between records (padding after a crash); reported, never framed. */
  nulBytes = 0;

  constructor(
    private readonly sink: FrameSink,
    private readonly maxBytes: number,
  ) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.mode === Mode.Between && this.endsValueBeforeChunk(chunk)) {
      // Concatenated values cut exactly between two of them (Firehose: every gzip member
      // holds one payload, so every chunk ends one): the carried value is complete, and
      // is framed where it lies instead of being copied in front of the new chunk.
      this.sink.json(this.buf, this.pos, this.buf.length, this.line);
      this.pos = this.buf.length;
    }
    if (this.mode === Mode.Between && this.pos < this.buf.length) {
      // The chunk boundary cut a line: join only that line to what was carried over,
      // rather than copying the whole new chunk behind it.
      // (If that line opens a multi-line value, the second append joins the rest as usual.)
      const nl = chunk.indexOf(LF);
      if (nl >= 0) {
        this.append(chunk.subarray(0, nl + 1));
        this.append(chunk.subarray(nl + 1));
        return;
      }
    }
    this.append(chunk);
  }

  /**
   * Whether the carried bytes are one whole value, proved by the junction with `chunk`
   * being a `}{` boundary (see isBoundary). Between records, bytes are only carried
   * when they open a value that has neither a newline nor a `}{` yet, so joining them
   * would frame exactly these bytes at that junction.
   */
  private endsValueBeforeChunk(chunk: Buffer): boolean {
    const buf = this.buf;
    const p = this.pos;
    const len = buf.length;
    return (
      p < len &&
      !this.first &&
      buf[p] === LBRACE &&
      buf[len - 1] === RBRACE &&
      len - p <= this.maxBytes &&
      opensWithKey(chunk, 0)
    );
  }

  /** Continues the unconsumed bytes with `chunk` and frames what it can. */
  private append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    const shift = this.pos;
    const carry = this.buf.length - shift;
    this.buf = carry > 0 ? Buffer.concat([this.buf.subarray(shift), chunk], carry + chunk.length) : chunk;
    this.pos = 0;
    if (carry > 0) {
      this.nl.rebase(shift);
      this.braces.rebase(shift);
    } else {
      this.nl.rebase(Number.MAX_SAFE_INTEGER);
      this.braces.rebase(Number.MAX_SAFE_INTEGER);
    }
    this.vStart -= shift;
    this.scan -= shift;
    this.run(false);
  }

  end(): void {
    this.run(true);
    this.buf = Buffer.alloc(0);
    this.pos = 0;
  }

  private run(final: boolean): void {
    for (;;) {
      if (this.mode === Mode.Value) {
        if (!this.scanValue(final)) return;
      } else if (this.mode === Mode.DiscardLine) {
        const nl = this.nl.find(this.buf, this.pos);
        if (nl < 0) {
          this.pos = this.buf.length;
          if (final) this.mode = Mode.Between;
          return;
        }
        this.pos = nl + 1;
        this.line++;
        this.mode = Mode.Between;
      } else if (!this.between(final)) {
        return;
      }
    }
  }

  /** At a record boundary: frames one line or starts a value scan. False when more bytes are needed. */
  private between(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    let p = this.pos;
    if (this.first) {
      // A UTF-8 byte order mark is not part of the first record (it may arrive split).
      const n = Math.min(3, len - p);
      let bom = true;
      for (let i = 0; i < n; i++) if (buf[p + i] !== BOM[i]) bom = false;
      if (bom && n < 3 && !final) return false;
      this.first = false;
      if (bom && n === 3) p += 3;
    }
    while (p < len) {
      const c = buf[p];
      if (c === LF) this.line++;
      else if (c === NUL) this.nulBytes++;
      else if (c !== SP && c !== CR && c !== TAB) break;
      p++;
    }
    this.pos = p;
    if (p >= len) return false;
    const c = buf[p];
    const isObj = c === LBRACE;
    if (isObj || c === LBRACK) {
      let nl = this.nl.find(buf, p);
      // `}{` before the end of the line: concatenated values.
      const cb = isObj ? this.braces.find(buf, p) : -1;
      if (cb >= 0 && (nl < 0 || cb < nl)) {
        if (cb + 1 - p <= this.maxBytes && isBoundary(buf, cb)) {
          this.sink.json(buf, p, cb + 1, this.line);
          this.pos = cb + 1;
          return true;
        }
        this.beginValue(p);
        return true;
      }
      if (nl < 0) {
        if (!final && len - p <= this.maxBytes) return false;
        if (!final) {
          this.beginValue(p);
          return true;
        }
        nl = len;
      }
      if (nl - p > this.maxBytes) {
        this.sink.skip(this.line, 'line-too-long');
        this.nextLine(nl);
        return true;
      }
      let e = nl;
      while (e > p && isSpace(buf[e - 1])) e--;
      if (buf[e - 1] === (isObj ? RBRACE : RBRACK)) {
        this.sink.json(buf, p, e, this.line);
        this.nextLine(nl);
        return true;
      }
      // Opened but not closed on this line: a multi-line document, or a damaged line.
      this.beginValue(p);
      return true;
    }
    let nl = this.nl.find(buf, p);
    if (nl < 0) {
      if (!final) {
        if (len - p > this.maxBytes) {
          this.sink.skip(this.line, 'line-too-long');
          this.mode = Mode.DiscardLine;
          this.pos = len;
        }
        return false;
      }
      nl = len;
    }
    if (nl - p > this.maxBytes) {
      this.sink.skip(this.line, 'line-too-long');
    } else {
      const e = nl > p && buf[nl - 1] === CR ? nl - 1 : nl;
      this.sink.text(buf, p, e, this.line);
    }
    this.nextLine(nl);
    return true;
  }

  private nextLine(nl: number): void {
    this.pos = Math.min(nl + 1, this.buf.length);
    this.line++;
  }

  private beginValue(p: number): void {
    this.mode = Mode.Value;
    this.vStart = p;
    this.vLine = this.line;
    this.vNewlines = 0;
    this.scan = p;
    this.depth = 0;
    this.inStr = false;
    this.esc = false;
    this.discarding = false;
  }

  /** Scans a value byte by byte. True when the value ended (or was abandoned), false when more bytes are needed. */
  private scanValue(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    let i = this.scan;
    let depth = this.depth;
    let inStr = this.inStr;
    let esc = this.esc;
    let nls = this.vNewlines;
    const limit = this.discarding ? len : Math.min(len, this.vStart + this.maxBytes);
    for (; i < limit; i++) {
      const b = buf[i];
      if (inStr) {
        if (esc) esc = false;
        else if (b === BSLASH) esc = true;
        else if (b === QUOTE) inStr = false;
        else if (b === LF) return this.abandon(i, nls);
        continue;
      }
      if (b === QUOTE) {
        inStr = true;
      } else if (b === LBRACE || b === LBRACK) {
        depth++;
      } else if (b === RBRACE || b === RBRACK) {
        if (--depth === 0) {
          if (!this.discarding) this.sink.json(buf, this.vStart, i + 1, this.vLine);
          this.mode = Mode.Between;
          this.pos = i + 1;
          this.line = this.vLine + nls;
          return true;
        }
      } else if (b === LF) {
        if (i + 1 >= len && !final) break; // cannot look at the next line yet
        const nx = i + 1 < len ? buf[i + 1] : -1;
        if (nx === LBRACE || nx === LBRACK) return this.abandon(i, nls);
        nls++;
      }
    }
    this.scan = i;
    this.depth = depth;
    this.inStr = inStr;
    this.esc = esc;
    this.vNewlines = nls;
    if (i < len && i === limit && !this.discarding) {
      // Past the cap: report once, forget the bytes, keep tracking where the value ends.
      this.sink.skip(this.vLine, 'line-too-long');
      this.discarding = true;
      this.pos = i;
      return true;
    }
    if (final) {
      if (!this.discarding) this.sink.skip(this.vLine, 'incomplete-record');
      this.mode = Mode.Between;
      this.pos = len;
      this.line = this.vLine + nls;
      return false;
    }
    if (this.discarding) this.pos = i;
    return false;
  }

  /** The value was cut at the newline at `i`: count it and resume on the next line. */
  private abandon(i: number, nls: number): boolean {
    if (!this.discarding) this.sink.skip(this.vLine, 'incomplete-record');
    this.mode = Mode.Between;
    this.pos = i + 1;
    this.line = this.vLine + nls + 1;
    return true;
  }
}
