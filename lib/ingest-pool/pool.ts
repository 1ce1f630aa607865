// Objects read by a pool of worker threads and this thread, their facts merged in input order.
//
// The deployment splits the work the same way: the ingest function turns each log object
// into facts, the analysis merges them. Here the split runs on one machine: each worker reads
// one object at a time (its bytes sent over by this thread, which opens it), and the facts
// come back to be merged as if read one after the other (ordered-facts.ts), so the findings
// do not depend on the number of workers nor on which finishes first.
//
// This thread is one of the readers: what it reads needs no hand-over (the worker's encoding,
// the message, this thread's decoding and sharing of parts cost about half again the CPU of
// reading when measured), and it would otherwise wait idle for the workers' facts.
//
// A worker that fails (an exception on a hostile object, a crash, a kill) costs the object it
// was reading, counted as that object's read error like any other; what it sent before stays,
// as for any object that fails part way, and a new worker takes the next object.
import { Worker } from 'worker_threads';
import type { Readable } from 'stream';
import type { FactStore } from '../facts/store';
import { destroyStream } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { SourceObject } from '../sources/types';
import { fileEntries, lostObjectStats, type WorkerIngestOptions } from './file-facts';
import { readInThread } from './in-thread';
import { listedObjects } from '../ingest/listing';
import { OrderedFacts } from './ordered-facts';
import { sharePartByKey } from '../facts/project';
import { PartDecoder } from './part-codec';
import type { FromWorker, ToWorker } from './protocol';
import type { Fact } from '../model/facts';

export interface PoolOptions {
  /** Readers at once: this thread and `workers - 1` worker threads. */
  workers: number;
  /** The bundled worker (dist/ingest-worker.js beside the bundled command). */
  script: string;
  ingest: WorkerIngestOptions;
  /** Events read so far (audit events and operator lines, kept or not), for progress. */
  onEvents?: (events: number) => void;
  /** Makes a worker; tests pass one that fails on purpose. */
  spawn?: (script: string) => Worker;
}

/** Bytes messages a worker may hold unread: the pipe stays full, the worker's memory bounded. */
const CREDIT = 4;
/** Objects read ahead of the one being merged, per worker: bounds the entries held waiting. */
const LOOKAHEAD_PER_WORKER = 2;

const eventsOf = (s: IngestStats): number => s.audit.read + s.operator.read;

function errorMessage(e: unknown): string {
  // Not `instanceof Error`: a worker's error is re-made in this thread, maybe another realm.
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
}

/** What one worker is doing: the object it reads, and how to hear back about it. */
interface Job {
  seq: number;
  name: string;
  credit: number;
  /** Wakes the sender waiting for credit (or for the end, when the worker died). */
  wake: (() => void) | null;
  done: () => void;
  /** Nothing more to send: the object is done, or its worker is gone. */
  dead: boolean;
  /** The parts its worker sent (they outlive the object: the worker keeps its table). */
  parts: PartDecoder;
}

/** Reads one object at a time: a worker thread, or this thread. */
interface Reader {
  readonly usable: boolean;
  /** Reads one object from its open stream; resolves when its facts are in. */
  read(
    seq: number,
    obj: SourceObject,
    stream: NodeJS.ReadableStream | Readable,
    opts: WorkerIngestOptions,
  ): Promise<void>;
}

/** This thread as a reader: the facts go straight into the merge. */
class ThisThread implements Reader {
  readonly usable = true;

  constructor(
    private readonly merged: OrderedFacts,
    private readonly report: (seq: number, events: number) => void,
  ) {}

  readonly read: Reader['read'] = async (seq, obj, stream, opts) => {
    const opened: SourceObject = { ...obj, open: () => Promise.resolve(stream) };
    await readInThread(seq, opened, this.merged, opts, (n) => this.report(seq, n));
  };
}

class PoolWorker implements Reader {
  private job: Job | null = null;
  private readonly parts: PartDecoder;
  private alive = true;

  constructor(
    private readonly worker: Worker,
    private readonly pool: { onMessage(job: Job, m: FromWorker): void; onLost(job: Job, why: string): void },
  ) {
    this.parts = new PartDecoder(sharePartByKey);
    worker.on('message', (m: FromWorker) => {
      const job = this.job;
      if (!job || job.seq !== m.seq) return; // from an object already given up
      if (m.type === 'ack') {
        job.credit++;
        this.wakeSender(job);
        return;
      }
      this.pool.onMessage(job, m);
      if (m.type === 'done') {
        // Done before its bytes ran out (a foreign file, a failure): the sender stops.
        this.job = null;
        job.dead = true;
        this.wakeSender(job);
        job.done();
      }
    });
    let failure: string | null = null;
    worker.on('error', (e) => (failure = errorMessage(e)));
    worker.on('exit', (code) => {
      this.alive = false;
      const job = this.job;
      this.job = null;
      if (job) {
        job.dead = true;
        this.wakeSender(job);
        this.pool.onLost(
          job,
          `the ingest worker stopped (${failure ?? `exit code ${code}`}) while reading it`,
        );
        job.done();
      }
    });
  }

  get usable(): boolean {
    return this.alive;
  }

  /** Reads one object: sends its bytes as the worker takes them; resolves when its facts are in. */
  async read(
    seq: number,
    obj: SourceObject,
    stream: NodeJS.ReadableStream | Readable,
    opts: WorkerIngestOptions,
  ): Promise<void> {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const job: Job = {
      seq,
      name: obj.name,
      credit: CREDIT,
      wake: null,
      done,
      dead: false,
      parts: this.parts,
    };
    this.job = job;
    this.post({ type: 'start', seq, name: obj.name, opts });
    try {
      for await (const chunk of stream as AsyncIterable<Buffer | string>) {
        const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        while (job.credit === 0 && !job.dead) await new Promise<void>((r) => (job.wake = r));
        if (job.dead) break;
        job.credit--;
        // A copy of its own: a stream's chunk may be a view of a pool other buffers share.
        const data = new Uint8Array(b).buffer;
        this.post({ type: 'bytes', seq, data }, [data]);
      }
      if (!job.dead) this.post({ type: 'end', seq });
    } catch (e) {
      if (!job.dead) this.post({ type: 'fail', seq, message: errorMessage(e) });
    } finally {
      destroyStream(stream);
    }
    await finished;
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    if (this.alive) this.worker.postMessage(m, transfer);
  }

  private wakeSender(job: Job): void {
    const w = job.wake;
    job.wake = null;
    w?.();
  }
}

export async function poolFacts(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  o: PoolOptions,
): Promise<FactStore> {
  const merged = new OrderedFacts(stats);
  const eventsByObject = new Map<number, number>();
  let total = 0;
  const reportEvents = (seq: number, events: number) => {
    total += events - (eventsByObject.get(seq) ?? 0);
    eventsByObject.set(seq, events);
    o.onEvents?.(total);
  };
  const handlers = {
    onMessage(job: Job, m: FromWorker) {
      if (m.type === 'entries') {
        if (m.reset) job.parts.reset();
        for (const e of m.entries) if (e.fact) e.fact = job.parts.decode(e.fact) as Fact;
        merged.add(job.seq, m.entries);
        reportEvents(job.seq, m.events);
      } else if (m.type === 'done') {
        reportEvents(job.seq, eventsOf(m.stats));
        merged.end(job.seq, m.stats);
      }
    },
    onLost(job: Job, why: string) {
      merged.end(job.seq, lostObjectStats(job.name, why));
    },
  };
  // A smaller young generation than V8's default: ~25 MB less resident per worker for
  // the same CPU when measured (4 MB cost a fifth more CPU in scavenges).
  const spawn =
    o.spawn ?? ((script: string) => new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: 8 } }));
  const idle: Reader[] = [new ThisThread(merged, reportEvents)];
  const all: PoolWorker[] = [];
  let waitingForWorker: (() => void) | null = null;
  const release = (w: Reader) => {
    idle.push(w);
    const wake = waitingForWorker;
    waitingForWorker = null;
    wake?.();
  };
  const take = async (): Promise<Reader> => {
    for (;;) {
      const w = idle.pop();
      if (w?.usable) return w;
      if (w) continue; // died between objects: replaced below
      if (all.filter((x) => x.usable).length < o.workers - 1) {
        const fresh = new PoolWorker(spawn(o.script), handlers);
        all.push(fresh);
        return fresh;
      }
      await new Promise<void>((r) => (waitingForWorker = r));
    }
  };
  const running = new Set<Promise<void>>();
  let seq = 0;
  try {
    for await (const item of listedObjects(objects)) {
      if ('failed' in item) {
        merged.end(seq++, item.failed);
        break;
      }
      const obj = item.object;
      const mine = seq++;
      while (running.size > 0 && mine - merged.merged >= o.workers * LOOKAHEAD_PER_WORKER)
        await Promise.race(running);
      let stream: NodeJS.ReadableStream | Readable;
      try {
        stream = await obj.open();
      } catch (e) {
        // Read here as any object that cannot be opened is: the reader records why.
        const failed: SourceObject = { name: obj.name, open: () => Promise.reject(e) };
        const s = createIngestStats();
        for await (const entry of fileEntries(failed, s, o.ingest)) merged.add(mine, [entry]);
        merged.end(mine, s);
        continue;
      }
      const worker = await take();
      const job = worker.read(mine, obj, stream, o.ingest).finally(() => {
        running.delete(job);
        if (worker.usable) release(worker);
        else {
          const wake = waitingForWorker;
          waitingForWorker = null;
          wake?.();
        }
      });
      running.add(job);
    }
    await Promise.all(running);
  } finally {
    await Promise.all(all.map((w) => w.terminate()));
  }
  return merged.finish(seq);
}
