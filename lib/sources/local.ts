// Local files and folders as SourceObjects. A folder is walked recursively in sorted
// order (byte order of names), so runs are reproducible. Nothing is skipped silently:
// an entry that cannot be read (permissions, a broken link, a socket) is still listed,
// and its open() rejects, so the reader counts it as an error with its path.
import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import type { Readable } from 'stream';
import type { SourceObject } from './types';

/** Read in 1 MiB chunks: few large chunks keep per-chunk work negligible. */
const CHUNK = 1024 * 1024;

function fileObject(name: string, size: number | undefined): SourceObject {
  return {
    name,
    ...(size !== undefined ? { size } : {}),
    open: async (): Promise<Readable> => {
      const fh = await fsp.open(name, 'r');
      return fh.createReadStream({ highWaterMark: CHUNK });
    },
  };
}

function failingObject(name: string, error: Error): SourceObject {
  return { name, open: () => Promise.reject(error) };
}

/** The error as thrown: its `code` (ENOENT, EACCES) is what the reason in words is made from. */
function errorOf(e: unknown): Error {
  // Not `instanceof Error`: errors from another realm (a test sandbox) are errors too.
  return e && typeof e === 'object' && 'message' in e ? (e as Error) : new Error(String(e));
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The file at `p`, every file under the folder at `p`, or one failing entry. */
export async function* listLocal(p: string): AsyncGenerator<SourceObject> {
  let st: Stats;
  try {
    st = await fsp.stat(p);
  } catch (e) {
    yield failingObject(p, errorOf(e));
    return;
  }
  if (st.isFile()) {
    yield fileObject(p, st.size);
  } else if (st.isDirectory()) {
    const seen = new Set<string>();
    yield* walk(p, seen);
  } else {
    yield failingObject(p, new Error('not a regular file or folder'));
  }
}

async function* walk(dir: string, seen: Set<string>): AsyncGenerator<SourceObject> {
  // Symbolic links may loop back to a parent: each real folder is walked once.
  let real: string;
  try {
    real = await fsp.realpath(dir);
  } catch (e) {
    yield failingObject(dir, errorOf(e));
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    yield failingObject(dir, errorOf(e));
    return;
  }
  names.sort(byteOrder);
  for (const name of names) {
    const full = path.join(dir, name);
    let st: Stats;
    try {
      st = await fsp.stat(full); // follows links: a link to a file is read as that file
    } catch (e) {
      yield failingObject(full, errorOf(e));
      continue;
    }
    if (st.isFile()) yield fileObject(full, st.size);
    else if (st.isDirectory()) yield* walk(full, seen);
    else yield failingObject(full, new Error('not a regular file (socket, FIFO or device)'));
  }
}
