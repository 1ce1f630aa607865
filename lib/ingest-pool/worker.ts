// An ingest worker: object bytes in, facts out. It knows nothing of files or S3: the main
// thread opens each object and hands its bytes over, so opening, its errors and the bytes
// counted for progress stay where they were, and a worker is only the CPU-bound part
// (decompression, framing, the byte decision, parsing, projection).
import { Readable } from 'stream';
import { parentPort } from 'worker_threads';
import { internedPartKey, limitInternedParts } from '../facts/project';
import { createIngestStats } from '../ingest/stats';
import type { Fact } from '../model/facts';
import { PartEncoder } from './part-codec';
import { countReadFailure, fileEntries, type FactEntry, type WorkerIngestOptions } from './file-facts';
import type { FromWorker, ToWorker } from './protocol';

/** Entries per message: large enough that posting costs little, small enough to stream. */
const BATCH = 1024;

/** Bytes of the object being read, as the stream its reader pulls from. */
class ByteQueue implements AsyncIterable<Buffer> {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly consumed: () => void) {}

  push(b: Buffer): void {
    this.chunks.push(b);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(message: string): void {
    this.failure = new Error(message);
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    for (;;) {
      const b = this.chunks.shift();
      if (b) {
        this.consumed();
        yield b;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}

/**
 * Measured on the 1 GB benchmark cut into 16 objects, two workers: 262,144 entries (the
 * one-thread default) held ~60 MB more per run than 8,192, which cost ~1 s more CPU in
 * parts interned again; this is between the two.
 */
const INTERNED_PARTS_PER_WORKER = 16_384;
limitInternedParts(INTERNED_PARTS_PER_WORKER);

const port = parentPort;
if (!port) throw new Error('the ingest worker runs in a worker thread');
const post = (m: FromWorker): void => port.postMessage(m);
const parts = new PartEncoder(internedPartKey);

function postEntries(seq: number, entries: FactEntry[], events: number): void {
  const reset = parts.startMessage();
  for (const e of entries) if (e.fact) e.fact = parts.encode(e.fact) as Fact;
  post({ type: 'entries', seq, entries, events, reset });
}
let current: { seq: number; bytes: ByteQueue } | null = null;

port.on('message', (m: ToWorker) => {
  if (m.type === 'start') {
    const seq = m.seq;
    const bytes = new ByteQueue(() => post({ type: 'ack', seq }));
    current = { seq, bytes };
    void read(seq, m.name, bytes, m.opts);
    return;
  }
  // Bytes of an object given up (foreign, or failed) still arrive until the sender hears it.
  if (!current || current.seq !== m.seq) return;
  if (m.type === 'bytes') current.bytes.push(Buffer.from(m.data));
  else if (m.type === 'end') current.bytes.end();
  else current.bytes.fail(m.message);
});

async function read(seq: number, name: string, bytes: ByteQueue, opts: WorkerIngestOptions): Promise<void> {
  const stats = createIngestStats();
  const events = () => stats.audit.read + stats.operator.read;
  let batch: FactEntry[] = [];
  try {
    for await (const e of fileEntries(
      { name, open: async () => Readable.from(bytes, { highWaterMark: 1 }) },
      stats,
      opts,
    )) {
      batch.push(e);
      if (batch.length >= BATCH) {
        postEntries(seq, batch, events());
        batch = [];
      }
    }
  } catch (e) {
    countReadFailure(stats, name, e);
  }
  postEntries(seq, batch, events());
  current = null;
  post({ type: 'done', seq, stats });
}
