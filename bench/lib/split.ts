// A benchmark file cut into a folder of objects the size Firehose delivers, as an incident
// bundle holds them: the parallel reading (issue 23) is measured on the same events as the
// single file. JSON lines are cut at a line end; Firehose output at a CloudWatch Logs payload
// boundary (`}{"messageType"`), each object one gzip stream (a reader does not care whether a
// stream has one member or many). Cached beside the file, made once.
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  type WriteStream,
} from 'fs';
import { once } from 'events';
import * as path from 'path';
import { createGunzip, createGzip, type Gzip } from 'zlib';
import type { GeneratedFile } from '../generate';

const FIREHOSE_BOUNDARY = Buffer.from('}{"messageType"');

/** The folder of `parts` objects holding `file`'s content, in name order. */
export async function ensureSplit(file: GeneratedFile, parts: number): Promise<string> {
  const dir = `${file.path.replace(/\.(log|firehose)\.gz$/, '')}-${parts}-objects`;
  if (existsSync(dir) && readdirSync(dir).length === parts) return dir;
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const target = Math.ceil(file.uncompressedBytes / parts);
  let index = 0;
  let written = 0;
  let out: Gzip | null = null;
  let file$: WriteStream | null = null;
  const open = (): Gzip => {
    const gz = createGzip({ level: 1 });
    file$ = createWriteStream(path.join(tmp, `part-${String(index).padStart(3, '0')}.gz`));
    gz.pipe(file$);
    return gz;
  };
  const write = async (b: Buffer): Promise<void> => {
    out ??= open();
    if (!out.write(b)) await once(out, 'drain');
    written += b.length;
  };
  const close = async (): Promise<void> => {
    if (!out) return;
    const gz = out;
    const closed = once(file$!, 'close');
    out = null;
    index++;
    written = 0;
    gz.end();
    await closed;
  };
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(file.path).pipe(createGunzip())) {
    let buf = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    carry = Buffer.alloc(0);
    while (buf.length > 0) {
      const room = target - written;
      if (room > buf.length || index === parts - 1) {
        await write(buf);
        buf = Buffer.alloc(0);
        break;
      }
      // Past the object's size: cut at the next boundary, or keep the tail for the next chunk.
      const cut =
        file.format === 'jsonl' ? buf.indexOf(0x0a, room) + 1 : buf.indexOf(FIREHOSE_BOUNDARY, room) + 1;
      if (cut <= 0) {
        // No boundary yet: write what surely precedes it, keep the rest.
        const keep = file.format === 'jsonl' ? 0 : FIREHOSE_BOUNDARY.length;
        await write(buf.subarray(0, buf.length - keep));
        carry = Buffer.from(buf.subarray(buf.length - keep));
        buf = Buffer.alloc(0);
        break;
      }
      await write(buf.subarray(0, cut));
      await close();
      buf = buf.subarray(cut);
    }
  }
  if (carry.length) await write(carry);
  await close();
  renameSync(tmp, dir);
  return dir;
}
