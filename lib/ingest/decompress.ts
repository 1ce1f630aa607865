// Turns a stored object's bytes into plain bytes, chunk by chunk, whatever the file is
// called: gzip is recognised by its magic number, anything else passes through.
//
// gzip members are walked here rather than by zlib's Gunzip, for two reasons:
//  - zlib reports a failure (trailing garbage, a cut, a damaged block) *instead of* the
//    output it decompressed in the same step, and a destroyed stream's iterator drops
//    output not yet read. Here the headers and trailers are parsed in JS, each member's
//    deflate data goes to a raw inflater in small slices, and every output chunk is
//    taken from a 'data' listener the moment it exists. A cut is recognised as "the
//    input ended inside a member" without ever asking zlib to finish: nothing decoded
//    before the cut is lost. Only real damage inside deflate data can cost the output of
//    the one slice (64 KiB in) that holds it.
//  - Member boundaries become explicit: Firehose concatenates one member per payload,
//    and zero padding or garbage after the last member is told apart.
// Memory stays bounded: input is written one slice at a time, only after the output of
// the previous slice has been handed on. CRC32 is not recomputed (it would cost more
// than the inflate); the trailer's length is checked.
import * as zlib from 'zlib';

/** Compressed bytes written per step: bounds the output queued at once to about SLICE * ratio. */
const SLICE = 64 * 1024;
/** Output chunk size: few, large chunks keep the framer's per-chunk work small. */
const OUT_CHUNK = 1024 * 1024;
/** A header's optional name, comment or extra field longer than this is not a real header. */
const MAX_HEADER = 64 * 1024;

export interface DecompressEvents {
  /** Compressed bytes as they arrive (for the byte counters). */
  onInput(bytes: number): void;
  /** A gzip stream ended early or was damaged; everything decoded before was yielded. */
  onGzipError(kind: 'gzip-truncated' | 'gzip-corrupt', message: string): void;
  /** The bytes are a compressed container this reader does not open. */
  onUnsupported(what: string): void;
}

const MAGIC: readonly { bytes: readonly number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'zip archive' },
  { bytes: [0x42, 0x5a, 0x68], what: 'bzip2 data' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz data' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd data' },
];

function startsWith(buf: Buffer, bytes: readonly number[]): boolean {
  if (buf.length < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buf[i] !== bytes[i]) return false;
  return true;
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError(`unexpected chunk type ${typeof chunk}`);
}

/** Pulls source chunks on demand, with look-ahead and push-back. */
class Input {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(
    private readonly it: AsyncIterator<unknown>,
    private readonly events: DecompressEvents,
  ) {}

  get buffered(): Buffer {
    return this.buf;
  }

  /** Ensures at least `n` bytes are buffered; false if the source ended first. */
  async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.ended) {
      const r = await this.it.next();
      if (r.done) {
        this.ended = true;
        break;
      }
      const b = toBuffer(r.value);
      this.events.onInput(b.length);
      this.buf = this.buf.length === 0 ? b : Buffer.concat([this.buf, b]);
    }
    return this.buf.length >= n;
  }

  take(n: number): Buffer {
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  unshift(b: Buffer): void {
    this.buf = this.buf.length === 0 ? b : Buffer.concat([b, this.buf]);
  }

  /** Up to `max` bytes: buffered ones first, else the next chunk; null at the end. */
  async slice(max: number): Promise<Buffer | null> {
    if (this.buf.length === 0 && !(await this.fill(1))) return null;
    return this.take(Math.min(max, this.buf.length));
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/**
 * Plain bytes of `source`. Source read errors propagate (the caller counts them);
 * gzip damage is reported through `events` and ends the output normally.
 */
export async function* decompress(
  source: AsyncIterable<unknown>,
  events: DecompressEvents,
): AsyncGenerator<Buffer> {
  const input = new Input(source[Symbol.asyncIterator](), events);
  try {
    // Chunks can be tiny on S3: gather enough to recognise a magic number.
    await input.fill(8);
    const head = input.buffered;
    if (head.length === 0) return;
    if (head[0] === 0x1f && head[1] === 0x8b) {
      yield* gunzip(input, events);
      return;
    }
    for (const m of MAGIC) {
      if (startsWith(head, m.bytes)) {
        events.onUnsupported(m.what);
        return;
      }
    }
    for (
      let b = await input.slice(Number.MAX_SAFE_INTEGER);
      b;
      b = await input.slice(Number.MAX_SAFE_INTEGER)
    )
      yield b;
  } finally {
    await input.close();
  }
}

type Header = 'ok' | 'truncated' | 'not-gzip' | 'unsupported';

/** Parses and consumes one member header (RFC 1952 section 2.3). */
async function readHeader(input: Input): Promise<Header> {
  if (!(await input.fill(10))) return 'truncated';
  const h = input.buffered;
  if (h[0] !== 0x1f || h[1] !== 0x8b) return 'not-gzip';
  if (h[2] !== 8) return 'unsupported';
  const flags = h[3];
  let n = 10;
  if (flags & 0x04) {
    if (!(await input.fill(n + 2))) return 'truncated';
    n += 2 + input.buffered.readUInt16LE(n);
    if (!(await input.fill(n))) return 'truncated';
  }
  for (const bit of [0x08, 0x10]) {
    if (!(flags & bit)) continue;
    // A zero-terminated name or comment.
    for (;;) {
      const z = input.buffered.indexOf(0, n);
      if (z >= 0) {
        n = z + 1;
        break;
      }
      if (input.buffered.length - n > MAX_HEADER) return 'unsupported';
      if (!(await input.fill(input.buffered.length + 1))) return 'truncated';
    }
  }
  if (flags & 0x02) n += 2;
  if (!(await input.fill(n))) return 'truncated';
  input.take(n);
  return 'ok';
}

async function* gunzip(input: Input, events: DecompressEvents): AsyncGenerator<Buffer> {
  for (let member = 0; ; member++) {
    if (member > 0) {
      // Between members: zero padding is allowed, and the end of input is the normal end.
      for (;;) {
        if (!(await input.fill(1))) return;
        const b = input.buffered;
        let i = 0;
        while (i < b.length && b[i] === 0) i++;
        input.take(i);
        if (input.buffered.length > 0) break;
      }
    }
    const header = await readHeader(input);
    if (header === 'truncated') return events.onGzipError('gzip-truncated', 'unexpected end of file');
    if (header === 'not-gzip')
      return events.onGzipError('gzip-corrupt', `bytes after gzip member ${member} are not gzip`);
    if (header === 'unsupported')
      return events.onGzipError('gzip-corrupt', `gzip member ${member + 1} has an unsupported header`);
    const size = yield* inflateMember(input, events);
    if (size === null) return;
    if (!(await input.fill(8))) return events.onGzipError('gzip-truncated', 'unexpected end of file');
    const isize = input.take(8).readUInt32LE(4);
    if (isize !== size % 2 ** 32)
      return events.onGzipError(
        'gzip-corrupt',
        `gzip member ${member + 1}: length ${size} but trailer says ${isize}`,
      );
  }
}

/** Inflates one member's deflate data; returns its decompressed size, or null after reporting a failure. */
async function* inflateMember(input: Input, events: DecompressEvents): AsyncGenerator<Buffer, number | null> {
  const inf = zlib.createInflateRaw({ chunkSize: OUT_CHUNK });
  // Fields of one object, so that TypeScript does not narrow what the listeners change.
  const st = { failure: null as Error | null, closed: false, wake: null as (() => void) | null };
  const queue: Buffer[] = [];
  const signal = (): void => {
    const w = st.wake;
    st.wake = null;
    w?.();
  };
  inf.on('data', (b: Buffer) => queue.push(b));
  inf.on('error', (e: Error) => {
    st.failure = e;
    signal();
  });
  for (const ev of ['end', 'close']) {
    inf.on(ev, () => {
      st.closed = true;
      signal();
    });
  }
  // Resolves once zlib has consumed what it can of `b` (its output is then queued) or failed.
  const write = (b: Buffer): Promise<void> =>
    new Promise<void>((resolve) => {
      st.wake = resolve;
      inf.write(b, () => signal());
    });

  let size = 0;
  try {
    for (;;) {
      const slice = await input.slice(SLICE);
      if (!slice) {
        // Nothing after this member's data yet: what was queued is still good.
        while (queue.length > 0) yield queue.shift() as Buffer;
        events.onGzipError('gzip-truncated', 'unexpected end of file');
        return null;
      }
      const before = inf.bytesWritten;
      // zlib inflates this slice on the thread pool while the caller frames and parses
      // the previous slice's output: the two overlap instead of taking turns.
      const written = write(slice);
      while (queue.length > 0) {
        const b = queue.shift() as Buffer;
        size += b.length;
        yield b;
      }
      await written;
      if (st.failure) {
        while (queue.length > 0) yield queue.shift() as Buffer;
        events.onGzipError('gzip-corrupt', st.failure.message);
        return null;
      }
      const consumed = inf.bytesWritten - before;
      if (consumed < slice.length) {
        // The deflate stream ended inside this slice: the rest is trailer and what follows.
        input.unshift(slice.subarray(consumed));
        break;
      }
    }
    await new Promise<void>((resolve) => {
      if (st.closed) return resolve();
      st.wake = resolve;
      inf.end();
    });
    while (queue.length > 0) {
      const b = queue.shift() as Buffer;
      size += b.length;
      yield b;
    }
    return size;
  } finally {
    if (!st.closed) inf.destroy();
  }
}
