// Turns a stored object's bytes into plain bytes, chunk by chunk, whatever the file is
// called: gzip is recognised by its magic number (single or concatenated members, as
// Firehose writes them), anything else passes through untouched.
//
// Why the gunzip is driven by hand instead of `pipe()` + `for await`: when the input is
// truncated, zlib fails at its final flush and destroys the stream, and a destroyed
// stream's async iterator drops output that was decompressed but not yet read. Here
// every output chunk is taken from a 'data' listener into our own queue the moment it
// exists, and input is written in small slices only after the queue has been drained,
// so memory stays bounded and nothing before the cut is lost.
import * as zlib from 'zlib';

/** Compressed bytes written per step: bounds the output queued at once to about SLICE * ratio. */
const SLICE = 64 * 1024;
/** Output chunk size: few, large chunks keep the framer's per-chunk work small. */
const OUT_CHUNK = 1024 * 1024;

export interface DecompressEvents {
  /** Compressed bytes as they arrive (for the byte counters). */
  onInput(bytes: number): void;
  /** A gzip stream ended early or was damaged; everything before the damage was yielded. */
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
 * Plain bytes of `source`. Source read errors propagate (the caller counts them);
 * gzip damage is reported through `events` and ends the stream normally.
 */
export async function* decompress(source: AsyncIterable<unknown>, events: DecompressEvents): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  // Gather at least enough bytes to recognise a magic number (chunks can be tiny on S3).
  let head: Buffer = Buffer.alloc(0);
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    const b = toBuffer(r.value);
    events.onInput(b.length);
    head = head.length === 0 ? b : Buffer.concat([head, b]);
    if (head.length >= 8) break;
  }
  if (head.length === 0) return;

  const rest: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const r = await it.next();
        if (r.done) return { done: true, value: undefined };
        const b = toBuffer(r.value);
        events.onInput(b.length);
        return { done: false, value: b };
      },
      return: async () => {
        await it.return?.();
        return { done: true, value: undefined };
      },
    }),
  };

  if (head[0] === 0x1f && head[1] === 0x8b) {
    yield* gunzip(head, rest, events);
    return;
  }
  for (const m of MAGIC) {
    if (startsWith(head, m.bytes)) {
      events.onUnsupported(m.what);
      return;
    }
  }
  yield head;
  for await (const b of rest) yield b;
}

async function* gunzip(head: Buffer, rest: AsyncIterable<Buffer>, events: DecompressEvents): AsyncGenerator<Buffer> {
  const gz = zlib.createGunzip({ chunkSize: OUT_CHUNK });
  // Fields of one object, so that TypeScript does not narrow what the listeners change.
  const st = { failure: null as Error | null, finished: false, wake: null as (() => void) | null };
  const queue: Buffer[] = [];
  const signal = (): void => {
    const w = st.wake;
    st.wake = null;
    w?.();
  };
  gz.on('data', (b: Buffer) => queue.push(b));
  gz.on('error', (e: Error) => {
    st.failure = e;
    signal();
  });
  // 'close' follows both 'end' and 'error', and also a destroy we did not cause.
  for (const ev of ['end', 'close']) {
    gz.on(ev, () => {
      st.finished = true;
      signal();
    });
  }
  // Resolves once zlib has consumed `slice` (its output is then in `queue`) or has failed.
  const write = (slice: Buffer): Promise<void> =>
    new Promise<void>((resolve) => {
      st.wake = resolve;
      gz.write(slice, () => signal());
    });

  async function* input(): AsyncGenerator<Buffer> {
    yield head;
    yield* rest;
  }

  try {
    outer: for await (const b of input()) {
      for (let off = 0; off < b.length; off += SLICE) {
        await write(b.subarray(off, off + SLICE));
        while (queue.length > 0) yield queue.shift() as Buffer;
        if (st.failure) break outer;
      }
    }
    if (!st.failure && !st.finished) {
      await new Promise<void>((resolve) => {
        st.wake = resolve;
        gz.end();
      });
    }
    while (queue.length > 0) yield queue.shift() as Buffer;
    if (st.failure) {
      const msg = st.failure.message;
      events.onGzipError(/unexpected end of file/i.test(msg) ? 'gzip-truncated' : 'gzip-corrupt', msg);
    }
  } finally {
    // Reached early when the consumer stops reading: release zlib's native memory.
    if (!st.finished) gz.destroy();
  }
}
