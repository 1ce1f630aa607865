// The JSON report written as it is read from the spool, one recreation at a time: the bytes
// renderJson gives for the same document (that function stays the contract's definition),
// without the million-element array or its text in memory.
import type { Recreation, StreamedFindings } from '../model/findings';
import { orderRecreation, renderJson } from './json';

/** Text gathered before one write to the destination. */
const CHUNK_CHARS = 1 << 16;
const OPEN = '"recreations": [';
const INDENT = '    ';

/**
 * Writes the document to `out`, waiting for 'drain' whenever it asks, and resolves once the
 * last byte is accepted (the destination's own error rejects, never a shorter report). The
 * stream is not ended: stdout stays open, a file's caller ends it.
 */
export async function writeJson(doc: StreamedFindings, out: NodeJS.WritableStream): Promise<void> {
  const sink = new Sink(out);
  try {
    for (const piece of jsonPieces(doc)) await sink.write(piece);
    await sink.end();
  } finally {
    sink.release();
  }
}

/**
 * The report's text in pieces. Everything around the recreations is renderJson's own text
 * (the document with no recreations, split where its empty list stands: the first
 * `"recreations": []`, since only the constant schema and version come before it); each
 * recreation is JSON.stringify's text at the depth it has there, so the pieces join to
 * renderJson's output exactly.
 */
export function* jsonPieces(doc: StreamedFindings): Generator<string> {
  const skeleton = renderJson({ ...doc, recreations: [] });
  if (doc.recreations.length === 0) {
    yield skeleton;
    return;
  }
  const at = skeleton.indexOf(`${OPEN}]`);
  yield `${skeleton.slice(0, at + OPEN.length)}\n`;
  let first = true;
  for (const r of doc.recreations) {
    yield `${first ? '' : ',\n'}${INDENT}${indented(r)}`;
    first = false;
  }
  yield `\n  ]${skeleton.slice(at + OPEN.length + 1)}`;
}

/** A JSON string holds no raw newline, so every line break is one of the layout's. */
function indented(r: Recreation): string {
  return JSON.stringify(orderRecreation(r), null, 2).replace(/\n/g, `\n${INDENT}`);
}

/** Gathers pieces into chunks and honours backpressure; the first error of `out` is kept and thrown. */
class Sink {
  private pending = '';
  private error: Error | null = null;
  private readonly onError = (e: Error) => {
    this.error ??= e;
  };

  constructor(private readonly out: NodeJS.WritableStream) {
    out.on('error', this.onError);
  }

  async write(piece: string): Promise<void> {
    this.pending += piece;
    if (this.pending.length >= CHUNK_CHARS) await this.flush(false);
  }

  async end(): Promise<void> {
    await this.flush(true);
  }

  release(): void {
    this.out.removeListener('error', this.onError);
  }

  private async flush(last: boolean): Promise<void> {
    if (this.error) throw this.error;
    const chunk = this.pending;
    this.pending = '';
    if (chunk === '' && !last) return;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const done = (e?: Error | null) => {
        if (settled) return;
        settled = true;
        this.out.removeListener('drain', onDrain);
        this.out.removeListener('error', done);
        if (e) reject(e);
        else resolve();
      };
      const onDrain = () => done();
      this.out.once('error', done);
      // The last chunk waits for its own callback, so a failed final write is seen here.
      const ok = this.out.write(chunk, last ? (e) => done(e) : undefined);
      if (last) return;
      if (ok) done();
      else this.out.once('drain', onDrain);
    });
    if (this.error) throw this.error;
  }
}
