// The report link's token: which report (its key under the reports prefix) and until when,
// authenticated with an HMAC of the stack's link secret. Whoever holds the link may read
// that one report until then; nobody can change the key or the expiry without the secret.
// Pure: no clock, no I/O; the caller passes the time and the keys.
//
// Layout (then base64url, no padding):  expiry (uint32, Unix seconds) | key (UTF-8) | tag
// where tag is HMAC-SHA256 over a domain label and the first two parts, cut to 16 bytes
// (128 bits: the strength RFC 2104 asks of a truncated tag, and a short link).
import { createHmac, timingSafeEqual } from 'crypto';

const DOMAIN = 'koperator-audit report-link v1\n';
const TAG_BYTES = 16;
const EXPIRY_BYTES = 4;
/** Keys beyond this would make a link long enough to be cut again; report keys are ~45 bytes. */
export const MAX_KEY_BYTES = 512;
/** A uint32 of seconds: links made before 2106. */
const MAX_EXPIRY = 0xffff_ffff;

export type TokenCheck =
  | { ok: true; key: string; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'forged' }
  | { ok: false; reason: 'expired'; key: string; expiresAt: number };

function tag(secret: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(DOMAIN).update(body).digest().subarray(0, TAG_BYTES);
}

/** A secret must carry at least 128 bits whatever its encoding; shorter ones are refused. */
function secretBytes(secret: string): Buffer {
  const b = Buffer.from(secret, 'utf8');
  if (b.length < 16) throw new Error('the report link secret is shorter than 16 bytes');
  return b;
}

/** The token for `key` (relative to the reports prefix), valid until `expiresAt` (Unix seconds). */
export function signToken(secret: string, key: string, expiresAt: number): string {
  const keyBytes = Buffer.from(key, 'utf8');
  if (keyBytes.length === 0 || keyBytes.length > MAX_KEY_BYTES)
    throw new Error(`a report link key must be 1-${MAX_KEY_BYTES} bytes, got ${keyBytes.length}`);
  if (!Number.isInteger(expiresAt) || expiresAt < 0 || expiresAt > MAX_EXPIRY)
    throw new Error(`a report link expiry must be whole seconds in 0-${MAX_EXPIRY}, got ${expiresAt}`);
  const expiry = Buffer.alloc(EXPIRY_BYTES);
  expiry.writeUInt32BE(expiresAt);
  const body = Buffer.concat([expiry, keyBytes]);
  return Buffer.concat([body, tag(secretBytes(secret), body)]).toString('base64url');
}

/**
 * Checks `token` against each of `secrets` (the current one, and the previous one while a
 * rotation's old links are still honoured), then its expiry at `now` (Unix seconds). The
 * tag is checked first: nothing a forger wrote, the expiry included, is read before it
 * proves authentic. The comparison takes the same time wherever the tags differ.
 */
export function verifyToken(token: string, secrets: readonly string[], now: number): TokenCheck {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: 'malformed' };
  const raw = Buffer.from(token, 'base64url');
  // Canonical encoding only: one link per (key, expiry), and no trailing bits to play with.
  if (raw.toString('base64url') !== token) return { ok: false, reason: 'malformed' };
  if (raw.length <= EXPIRY_BYTES + TAG_BYTES || raw.length > EXPIRY_BYTES + MAX_KEY_BYTES + TAG_BYTES)
    return { ok: false, reason: 'malformed' };
  const body = raw.subarray(0, raw.length - TAG_BYTES);
  const given = raw.subarray(raw.length - TAG_BYTES);
  const authentic = secrets.some((s) => timingSafeEqual(tag(secretBytes(s), body), given));
  if (!authentic) return { ok: false, reason: 'forged' };
  const expiresAt = body.readUInt32BE(0);
  let key: string;
  try {
    key = new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(EXPIRY_BYTES));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return now < expiresAt ? { ok: true, key, expiresAt } : { ok: false, reason: 'expired', key, expiresAt };
}
