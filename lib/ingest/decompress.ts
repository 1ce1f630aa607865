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
//    the one slice (128 KiB in) that holds it.
//  - Member boundaries become explicit: Firehose concatenates one member per payload,
//    and zero padding or garbage after the last member is told apart.
// Memory stays bounded: input is written one slice at a time, and a slice's output is
// handed on while the next slice inflates (so at most two slices' output is queued:
// typically a few MiB, 260 MiB for a pathological deflate bomb). CRC32 is not
// recomputed (at 0.5 GB/s it would cost more than the inflate); the trailer's length is.
import * as zlib from 'zlib';

/** Compressed bytes per step. Larger means fewer zlib round trips (measured: 64 KiB cost 10% more CPU). */
const SLICE = 128 * 1024;
/**
 * Output chunk size. A slice inflates to ~1.2 MiB of audit lines: when the output buffer
 * fills mid-slice, zlib hands back to the main thread before it goes on, and that thread
 * is busy framing the previous slice, so the slice finishes only after it (measured with
 * 1 MiB: 75 ms of 500 waiting for writes on the 100 MB JSON-lines file). 4 MiB holds about
 * three slices: in-process ingest 345 -> 300 ms wall, same CPU; 8 MiB gained nothing more.
 */
const OUT_CHUNK = 4 * 1024 * 1024;
/**
 * A member whose deflate data ends within its first SLICE bytes is inflated in one
 * synchronous call, when its output stays under this size (see inflateSmallMember).
 */
const SMALL_OUT = 4 * 1024 * 1024;
/**
 * Output buffer of that call, sized from the previous member plus an eighth: members of
 * one object are alike, and every output chunk keeps its whole allocation alive until
 * it is collected. (A fixed 256 KiB for ~65 KiB Firehose members let 133 MB of buffers
 * pile up between collections on the 1 GB file.) A larger member just takes two chunks.
 */
function outputChunkFor(previous: number): number {
  return Math.min(SMALL_OUT, Math.max(16 * 1024, Math.ceil((previous * 1.125) / 4096) * 4096));
}
/** Source bytes joined at once when a small member spans source chunks. */
const JOIN = 1024 * 1024;
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

/**
 * Pulls source chunks on demand, with look-ahead and push-back. Unread bytes stay in the
 * chunks they came in (a list): taking a slice never copies, and pushing back the bytes
 * after a gzip member does not copy the rest of the chunk behind them.
 */
class Input {
  private parts: Buffer[] = [];
  private size = 0;
  private ended = false;

  constructor(
    private readonly it: AsyncIterator<unknown>,
    private readonly events: DecompressEvents,
  ) {}

  get length(): number {
    return this.size;
  }

  /** Ensures at least `n` bytes are buffered; false if the source ended first. */
  async fill(n: number): Promise<boolean> {
    while (this.size < n && !this.ended) {
      const r = await this.it.next();
      if (r.done) {
        this.ended = true;
        break;
      }
      const b = toBuffer(r.value);
      this.events.onInput(b.length);
      if (b.length > 0) {
        this.parts.push(b);
        this.size += b.length;
      }
    }
    return this.size >= n;
  }

  /** The first `n` buffered bytes, contiguous (joined only when they span chunks). */
  peek(n: number, joinAtLeast = n): Buffer {
    const want = Math.min(n, this.size);
    if (this.parts.length === 0) return Buffer.alloc(0);
    if (this.parts[0].length >= want) return this.parts[0].subarray(0, want);
    // Joining more than asked (joinAtLeast) serves the next peeks without joining again.
    const join = Math.min(Math.max(want, joinAtLeast), this.size);
    let k = 0;
    let got = 0;
    while (got < join) got += this.parts[k++].length;
    const joined = Buffer.concat(this.parts.slice(0, k), got);
    this.parts.splice(0, k, joined);
    return joined.subarray(0, want);
  }

  drop(n: number): void {
    let left = Math.min(n, this.size);
    this.size -= left;
    while (left > 0) {
      const head = this.parts[0];
      if (head.length <= left) {
        left -= head.length;
        this.parts.shift();
      } else {
        this.parts[0] = head.subarray(left);
        left = 0;
      }
    }
  }

  unshift(b: Buffer): void {
    if (b.length === 0) return;
    this.parts.unshift(b);
    this.size += b.length;
  }

  /** Up to `max` bytes from the first buffered chunk (never copied); null at the end. */
  async slice(max: number): Promise<Buffer | null> {
    if (this.size === 0 && !(await this.fill(1))) return null;
    const head = this.parts[0];
    const n = Math.min(max, head.length);
    const out = head.subarray(0, n);
    this.drop(n);
    return out;
  }

  /** Drops zero bytes at the front (padding between gzip members). */
  skipZeros(): void {
    while (this.parts.length > 0) {
      const head = this.parts[0];
      let i = 0;
      while (i < head.length && head[i] === 0) i++;
      this.drop(i);
      if (i < head.length) return;
    }
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
    const head = input.peek(8);
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
  const h = input.peek(10);
  if (h[0] !== 0x1f || h[1] !== 0x8b) return 'not-gzip';
  if (h[2] !== 8) return 'unsupported';
  const flags = h[3];
  let n = 10;
  if (flags & 0x04) {
    if (!(await input.fill(n + 2))) return 'truncated';
    n += 2 + input.peek(n + 2).readUInt16LE(n);
  }
  for (const bit of [0x08, 0x10]) {
    if (!(flags & bit)) continue;
    // A zero-terminated name or comment.
    for (let window = 256; ; window *= 2) {
      if (window > MAX_HEADER) return 'unsupported';
      await input.fill(n + window);
      const z = input.peek(n + window).indexOf(0, n);
      if (z >= 0) {
        n = z + 1;
        break;
      }
      if (input.length < n + window) return 'truncated';
    }
  }
  if (flags & 0x02) n += 2;
  if (!(await input.fill(n))) return 'truncated';
  input.drop(n);
  return 'ok';
}

async function* gunzip(input: Input, events: DecompressEvents): AsyncGenerator<Buffer> {
  // A raw inflater per member: zlib ends its output when a member's deflate data ends
  // before the input does, so one cannot be reused for the next member.
  let inflater: Inflater | null = null;
  /** Decompressed size of the last member, to size the next one's output. */
  let previous = 64 * 1024;
  try {
    for (let member = 0; ; member++) {
      if (member > 0) {
        // Between members: zero padding is allowed, and the end of input is the normal end.
        do {
          if (!(await input.fill(1))) return;
          input.skipZeros();
        } while (input.length === 0);
      }
      const header = await readHeader(input);
      if (header === 'truncated') return events.onGzipError('gzip-truncated', 'unexpected end of file');
      if (header === 'not-gzip') {
        return events.onGzipError('gzip-corrupt', `bytes after gzip member ${member} are not gzip`);
      }
      if (header === 'unsupported') {
        return events.onGzipError('gzip-corrupt', `gzip member ${member + 1} has an unsupported header`);
      }
      let size: number | null;
      const small = await inflateSmallMember(input, outputChunkFor(previous));
      if (small) {
        if (small.length > 0) yield small;
        size = small.length;
      } else {
        inflater?.destroy();
        inflater = new Inflater();
        size = yield* inflater.member(input, events);
      }
      if (size === null) return;
      previous = size;
      if (!(await input.fill(8))) return events.onGzipError('gzip-truncated', 'unexpected end of file');
      const isize = input.peek(8).readUInt32LE(4);
      input.drop(8);
      if (isize !== size % 2 ** 32) {
        return events.onGzipError(
          'gzip-corrupt',
          `gzip member ${member + 1}: length ${size} but trailer says ${isize}`,
        );
      }
    }
  } finally {
    inflater?.destroy();
  }
}

/**
 * The whole output of the member whose deflate data starts the input, when that data
 * ends within the first SLICE bytes and inflates cleanly to at most SMALL_OUT bytes;
 * its bytes are then consumed. Otherwise null and nothing is consumed: the member is
 * streamed, which also reports any damage exactly as before.
 *
 * Firehose writes one small member per CloudWatch payload (~8 KiB in, ~65 KiB out).
 * Streaming each through its own zlib stream cost more than the inflate itself (a
 * stream, a 1 MiB output buffer and several thread-pool round trips per member):
 * decompressing the 100 MB Firehose benchmark file took 355-670 ms this way, against
 * 190 ms for one synchronous call per member.
 */
async function inflateSmallMember(input: Input, chunkSize: number): Promise<Buffer | null> {
  // Small source chunks (S3 bodies arrive in ~16 KiB) are joined a MiB at a time: joining
  // just SLICE bytes would copy 128 KiB again for every ~8 KiB member.
  await input.fill(JOIN);
  const data = input.peek(SLICE, JOIN);
  let engine: zlib.InflateRaw;
  let out: Buffer;
  try {
    // With info, the call also returns its engine, whose bytesWritten is the input consumed.
    const r = zlib.inflateRawSync(data, {
      info: true,
      chunkSize,
      maxOutputLength: SMALL_OUT,
      // A member longer than `data` must not fail as "unexpected end of file".
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw };
    engine = r.engine;
    out = r.buffer;
  } catch {
    return null;
  }
  // zlib stops consuming where the deflate data ends; having taken everything, it may
  // still want more (or the member ends exactly here): streaming decides.
  const consumed = engine.bytesWritten;
  if (consumed >= data.length) return null;
  input.drop(consumed);
  return out;
}

/** zlib's raw inflater, driven one slice at a time with its output taken as it appears. */
class Inflater {
  private readonly inf = zlib.createInflateRaw({ chunkSize: OUT_CHUNK });
  // Mutated by the listeners below.
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private readonly queue: Buffer[] = [];

  constructor() {
    this.inf.on('data', (b: Buffer) => this.queue.push(b));
    this.inf.on('error', (e: Error) => {
      this.failure = e;
      this.signal();
    });
    this.inf.on('close', () => this.signal());
  }

  private signal(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Resolves once zlib has consumed what it can of `b` (its output is then queued) or failed. */
  private write(b: Buffer): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.inf.write(b, () => this.signal());
    });
  }

  destroy(): void {
    this.inf.destroy();
  }

  /** Inflates one member's deflate data; returns its decompressed size, or null after reporting a failure. */
  async *member(input: Input, events: DecompressEvents): AsyncGenerator<Buffer, number | null> {
    const queue = this.queue;
    let size = 0;
    for (;;) {
      const slice = await input.slice(SLICE);
      if (!slice) {
        // The input ended inside the member: what was queued is still good.
        while (queue.length > 0) yield queue.shift() as Buffer;
        events.onGzipError('gzip-truncated', 'unexpected end of file');
        return null;
      }
      const before = this.inf.bytesWritten;
      // zlib inflates this slice on the thread pool while the caller frames and parses
      // the previous slice's output: the two overlap instead of taking turns.
      const written = this.write(slice);
      while (queue.length > 0) {
        const b = queue.shift() as Buffer;
        size += b.length;
        yield b;
      }
      await written;
      if (this.failure) {
        while (queue.length > 0) yield queue.shift() as Buffer;
        events.onGzipError('gzip-corrupt', this.failure.message);
        return null;
      }
      const consumed = this.inf.bytesWritten - before;
      if (consumed < slice.length) {
        // The deflate stream ended inside this slice: the rest is trailer and what follows.
        input.unshift(slice.subarray(consumed));
        break;
      }
    }
    while (queue.length > 0) {
      const b = queue.shift() as Buffer;
      size += b.length;
      yield b;
    }
    return size;
  }
}
