// The `banzaicloud.com/last-applied` annotation codec (k8s-objectmatcher patch/annotation.go):
// base64 of a zip archive holding one entry named `original` with compact JSON (since
// objectmatcher v1.4.0); older operators wrote plain base64 JSON or plain JSON.
// The zip is read by hand with Node's zlib so the inflated size can be capped: the
// annotation is attacker-controlled input and a zip bomb must not take the process down.
import { crc32, deflateRawSync, inflateRawSync } from 'zlib';

export const LAST_APPLIED_ANNOTATION = 'banzaicloud.com/last-applied';

/**
 * What stands for the annotation on the live pod. An objectmatcher-based operator (koperator, NiFiKop) reads last-applied from the live
 * pod's annotation, so the live pod carries one whenever there is a last-applied state, and
 * Calculate diffs it with the annotation in place: a patch that removes the desired pod's
 * last annotation (`metadata.annotations: null`) removes it too, and is a change. Its value
 * never reaches a patch (the desired side never carries it), so one marker stands for every
 * encoding of it, which also keeps the live-pod memo key the same across a loop.
 */
export const LIVE_LAST_APPLIED_MARKER = '(last-applied configuration)';

/** Default cap on the decoded JSON: far above any real pod, far below harm. */
export const DEFAULT_MAX_DECODED_BYTES = 4 * 1024 * 1024;

export type LastAppliedEncoding = 'zip' | 'base64-json' | 'json';

export type DecodedLastApplied =
  { ok: true; value: Record<string, unknown>; encoding: LastAppliedEncoding } | { ok: false; reason: string };

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_END = 0x06054b50;

export function decodeLastApplied(
  annotation: string,
  maxBytes: number = DEFAULT_MAX_DECODED_BYTES,
): DecodedLastApplied {
  if (typeof annotation !== 'string' || annotation.length === 0)
    return { ok: false, reason: 'empty annotation' };
  const trimmed = annotation.trim();
  if (trimmed.startsWith('{')) return parseObject(Buffer.from(trimmed, 'utf8'), 'json', maxBytes);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return { ok: false, reason: 'not base64, not JSON' };
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_LOCAL) {
    const entry = readZipEntry(bytes, 'original', maxBytes);
    if (!entry.ok) return entry;
    return parseObject(entry.data, 'zip', maxBytes);
  }
  return parseObject(bytes, 'base64-json', maxBytes);
}

function parseObject(bytes: Buffer, encoding: LastAppliedEncoding, maxBytes: number): DecodedLastApplied {
  if (bytes.length > maxBytes) return { ok: false, reason: `decoded size over ${maxBytes} bytes` };
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, reason: 'decoded value is not a JSON object' };
    }
    return { ok: true, value: value as Record<string, unknown>, encoding };
  } catch (e) {
    return { ok: false, reason: `invalid JSON (${(e as Error).message})` };
  }
}

type ZipEntry = { ok: true; data: Buffer } | { ok: false; reason: string };

/** Finds `name` through the central directory (Go's writer uses data descriptors, so local headers lack sizes). */
function readZipEntry(zip: Buffer, name: string, maxBytes: number): ZipEntry {
  const end = findEndOfCentralDirectory(zip);
  if (end < 0) return { ok: false, reason: 'zip: no end of central directory' };
  const entries = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  // Bounded by the archive's own size: a forged entry count cannot make this loop run long.
  for (let i = 0; i < entries && p + 46 <= zip.length; i++) {
    if (zip.readUInt32LE(p) !== ZIP_CENTRAL) return { ok: false, reason: 'zip: corrupt central directory' };
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const entryName = zip.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (entryName !== name) continue;
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== ZIP_LOCAL) {
      return { ok: false, reason: 'zip: corrupt local header' };
    }
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method === 0) return data.length > maxBytes ? tooBig(maxBytes) : { ok: true, data };
    if (method !== 8) return { ok: false, reason: `zip: unsupported compression method ${method}` };
    try {
      return { ok: true, data: inflateRawSync(data, { maxOutputLength: maxBytes }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
        return tooBig(maxBytes);
      }
      return { ok: false, reason: `zip: ${(e as Error).message}` };
    }
  }
  return { ok: false, reason: `zip: no entry named ${name}` };
}

function tooBig(maxBytes: number): ZipEntry {
  return { ok: false, reason: `zip: entry inflates past ${maxBytes} bytes` };
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === ZIP_END) return i;
  }
  return -1;
}

/** Encodes an object as objectmatcher does: compact JSON, zipped as entry `original`, base64. */
export function encodeLastApplied(obj: unknown, encoding: LastAppliedEncoding = 'zip'): string {
  const json = Buffer.from(JSON.stringify(obj), 'utf8');
  if (encoding === 'json') return json.toString('utf8');
  if (encoding === 'base64-json') return json.toString('base64');
  return zipOneEntry('original', json).toString('base64');
}

function zipOneEntry(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const compressed = deflateRawSync(data);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(ZIP_LOCAL, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0, 6);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(ZIP_CENTRAL, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBytes.length + compressed.length;
  const cdSize = central.length + nameBytes.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(ZIP_END, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBytes, compressed, central, nameBytes, end]);
}
