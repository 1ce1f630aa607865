// Recreations as streamFindings hands them out (broker by broker), given back in the order
// analyzeFacts returns them (deletion time, stable by hand-out order) without holding them:
// a fleet's day is a million recreations, ~0.55 KB each as objects. Each is kept as its JSON
// text in a temporary file; memory holds ~20 bytes a recreation (its deletion time, where its
// text is and how long) plus the counts the documents need, taken as they arrive.
import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { Classification, Recreation } from '../model/findings';
import { isBrokerRemoval } from './removal';
import { sharedFields, sharedVerdict } from './shared-parts';
import { epochMicros } from './time';

export interface SpoolOptions {
  /** Where the temporary file is made (default: os.tmpdir()). */
  dir?: string;
  /** Bytes of text gathered before one write to the file. */
  bufferBytes?: number;
}

const DEFAULT_BUFFER_BYTES = 1 << 20;
const REMOVAL_BIT = 0x80;

/** The temporary file failed (a full disk, a file size limit): not a bug, and never fewer findings. */
export class SpoolError extends Error {}

/** Why the temporary folder cannot hold the spool, naming it (and TMPDIR, which chose it). */
function spoolFolderProblem(where: string, e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT')
    return `the temporary folder ${where} does not exist (set TMPDIR to a folder that exists)`;
  if (code === 'ENOTDIR') return `the temporary folder ${where} is not a folder (set TMPDIR to a folder)`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return `cannot write in the temporary folder ${where} (set TMPDIR to a folder you can write)`;
  return `cannot make the recreations' temporary file in ${where}: ${(e as Error).message}`;
}

export class RecreationSpool implements Iterable<Recreation> {
  private fd: number;
  /** Left to close() where the file could not be unlinked while open. */
  private leftover: { file: string; dir: string } | null = null;
  private readonly buffer: Buffer;
  private buffered = 0;
  private fileBytes = 0;
  private at = new Float64Array(1024);
  private offset = new Float64Array(1024);
  private bytes = new Int32Array(1024);
  /** Index of each one's class in `classNames`, so a truncation can take its count back. */
  private cls = new Uint8Array(1024);
  private readonly classNames: Classification[] = [];
  private n = 0;
  private sorted: Int32Array | null = null;
  private readBuffer = Buffer.allocUnsafe(64 * 1024);
  private readonly classes = new Map<Classification, number>();
  /** Brokers removed by a downscale (a deletion with no successor, not a recreation). */
  private removed = 0;
  private broken: Error | null = null;
  private closed = false;
  private readonly where: string;

  constructor(opts: SpoolOptions = {}) {
    this.buffer = Buffer.allocUnsafe(opts.bufferBytes ?? DEFAULT_BUFFER_BYTES);
    this.where = opts.dir ?? tmpdir();
    // A directory of its own (mkdtemp) so no other user of a shared /tmp can plant the name.
    let dir: string;
    try {
      dir = mkdtempSync(path.join(this.where, 'koperator-audit-spool-'));
    } catch (e) {
      throw new SpoolError(spoolFolderProblem(this.where, e), { cause: e });
    }
    const file = path.join(dir, 'recreations.json');
    this.fd = openSync(file, 'wx+', 0o600);
    // Unlinked at once: an interrupted run (Ctrl-C, a Lambda timeout) leaves nothing behind,
    // and the space is given back when the descriptor closes.
    try {
      unlinkSync(file);
      rmdirSync(dir);
    } catch {
      this.leftover = { file, dir };
    }
  }

  /** How many recreations were added. */
  get length(): number {
    return this.n;
  }

  /** How many of those have this classification. */
  count(classification: Classification): number {
    return this.classes.get(classification) ?? 0;
  }

  /** How many of those removed a broker for good (a downscale: see isBrokerRemoval). */
  removals(): number {
    return this.removed;
  }

  /** Recreations per classification, in the order the classes first arrived. */
  countsByClass(): ReadonlyMap<Classification, number> {
    return this.classes;
  }

  add(r: Recreation): void {
    this.usable();
    const text = JSON.stringify(r);
    const size = Buffer.byteLength(text);
    if (this.n === this.at.length) this.grow();
    if (this.buffered + size > this.buffer.length) this.flush();
    const at = this.fileBytes + this.buffered;
    if (size > this.buffer.length) {
      const whole = Buffer.from(text);
      this.writeAll(whole, whole.length);
      this.fileBytes += whole.length;
    } else {
      this.buffered += this.buffer.write(text, this.buffered);
    }
    const i = this.n++;
    this.at[i] = epochMicros(r.deletedPod.deletedAt);
    this.offset[i] = at;
    this.bytes[i] = size;
    this.sorted = null;
    let c = this.classNames.indexOf(r.classification);
    if (c < 0) c = this.classNames.push(r.classification) - 1;
    // The high bit marks a removal, so a truncation can take that count back too.
    const removal = isBrokerRemoval(r);
    if (removal) this.removed++;
    this.cls[i] = c | (removal ? REMOVAL_BIT : 0);
    this.classes.set(r.classification, (this.classes.get(r.classification) ?? 0) + 1);
  }

  /**
   * Takes back every recreation from the `to`-th on: what an analysis restart undoes (a
   * later broker confirmed an operator user), so the spool holds the final pass's alone.
   */
  truncate(to: number): void {
    this.usable();
    if (to < 0 || to > this.n) throw new RangeError(`cannot truncate ${this.n} recreations to ${to}`);
    if (to === this.n) return;
    this.flush();
    for (let i = to; i < this.n; i++) {
      const c = this.classNames[this.cls[i] & ~REMOVAL_BIT];
      if (this.cls[i] & REMOVAL_BIT) this.removed--;
      const left = this.classes.get(c)! - 1;
      if (left === 0) this.classes.delete(c);
      else this.classes.set(c, left);
    }
    this.fileBytes = this.offset[to];
    this.n = to;
    this.sorted = null;
    try {
      ftruncateSync(this.fd, this.fileBytes);
    } catch (e) {
      throw this.fail(e);
    }
  }

  /** Each recreation's JSON text, by deletion time (stable: ties in the order they were added). */
  *texts(): Generator<string> {
    const order = this.order();
    for (let k = 0; k < order.length; k++) yield this.text(order[k]);
  }

  /** The recreations added from `from` (inclusive) to `to` (exclusive), in the order added. */
  *added(from = 0, to = this.n): Generator<Recreation> {
    this.flush();
    for (let i = from; i < to; i++) yield JSON.parse(this.text(i)) as Recreation;
  }

  /** The recreations by deletion time, stable, one parsed at a time. */
  *[Symbol.iterator](): Generator<Recreation> {
    for (const t of this.texts()) yield JSON.parse(t) as Recreation;
  }

  /**
   * For the views that need every recreation at once (they group and sort by broker). Parts
   * that repeat across a loop's recreations are shared again as the analysis shared them
   * (field lists, verdicts, broker and user names): parsed apart, a fleet's recreations took
   * 2.1 KB each instead of 1.2.
   */
  toArray(): Recreation[] {
    const names = new Map<string, string>();
    const name = (s: string): string => {
      const known = names.get(s);
      if (known !== undefined) return known;
      names.set(s, s);
      return s;
    };
    const out: Recreation[] = [];
    for (const r of this) {
      r.namespace = name(r.namespace);
      r.kafkaCluster = name(r.kafkaCluster);
      r.brokerId = name(r.brokerId);
      if (r.deletedPod.deletedBy !== null) r.deletedPod.deletedBy = name(r.deletedPod.deletedBy);
      r.fields = sharedFields(r.fields);
      if (r.wouldRestart)
        r.wouldRestart = sharedVerdict(r.wouldRestart.threeWayMerge, r.wouldRestart.intentDiff);
      out.push(r);
    }
    return out;
  }

  /** Gives the file back; idempotent, and the spool is unusable after it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.leftover) {
      unlinkSync(this.leftover.file);
      rmdirSync(this.leftover.dir);
    }
  }

  /**
   * The permutation analyzeFacts' sortByKey makes: an index array sorted by the same
   * comparator over the same keys in the same positions, so even ties and unreadable times
   * (NaN, equal to everything there) land where they land there.
   */
  private order(): Int32Array {
    this.flush();
    if (this.sorted) return this.sorted;
    const idx = new Array<number>(this.n);
    for (let i = 0; i < this.n; i++) idx[i] = i;
    const at = this.at;
    idx.sort((a, b) => at[a] - at[b]);
    this.sorted = Int32Array.from(idx);
    return this.sorted;
  }

  private text(i: number): string {
    this.usable();
    const size = this.bytes[i];
    if (this.readBuffer.length < size) this.readBuffer = Buffer.allocUnsafe(size);
    let got = 0;
    try {
      while (got < size) {
        const r = readSync(this.fd, this.readBuffer, got, size - got, this.offset[i] + got);
        if (r === 0) throw new Error(`the file ends ${size - got} bytes short`);
        got += r;
      }
    } catch (e) {
      throw this.fail(e);
    }
    return this.readBuffer.toString('utf8', 0, size);
  }

  private flush(): void {
    this.usable();
    if (this.buffered === 0) return;
    this.writeAll(this.buffer, this.buffered);
    this.fileBytes += this.buffered;
    this.buffered = 0;
  }

  /** Every byte or an error: a full disk must never pass for fewer findings. */
  private writeAll(data: Buffer, size: number): void {
    let done = 0;
    try {
      while (done < size) {
        const w = writeSync(this.fd, data, done, size - done, this.fileBytes + done);
        if (w <= 0) throw new Error('the file takes no more bytes');
        done += w;
      }
    } catch (e) {
      throw this.fail(e);
    }
  }

  /** Says which file failed (a full /tmp is the likely cause), and keeps the spool failed. */
  private fail(e: unknown): Error {
    const why = e instanceof Error ? e.message : String(e);
    this.broken = new SpoolError(`the recreations' temporary file in ${this.where} failed: ${why}`, {
      cause: e,
    });
    return this.broken;
  }

  private usable(): void {
    if (this.closed) throw new Error("the recreations' temporary file was used after it was closed");
    if (this.broken) throw this.broken;
  }

  private grow(): void {
    const n = this.at.length * 2;
    const at = new Float64Array(n);
    at.set(this.at);
    this.at = at;
    const offset = new Float64Array(n);
    offset.set(this.offset);
    this.offset = offset;
    const bytes = new Int32Array(n);
    bytes.set(this.bytes);
    this.bytes = bytes;
    const cls = new Uint8Array(n);
    cls.set(this.cls);
    this.cls = cls;
  }
}
