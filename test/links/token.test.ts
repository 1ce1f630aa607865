// The report link's token: what it accepts and what it refuses, and why.
import { MAX_KEY_BYTES, signToken, verifyToken } from '../../lib/links/token';

const SECRET = 'k'.repeat(32);
const OTHER = 'o'.repeat(32);
const KEY = 'cluster=eks-prod/2026-11-02T11-31-00Z.html';
const NOW = 1_793_000_000;
const EXP = NOW + 7 * 86_400;

const good = signToken(SECRET, KEY, EXP);
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The token's bytes with `edit` applied, re-encoded. */
const edited = (edit: (b: Buffer) => void): string => {
  const b = Buffer.from(good, 'base64url');
  edit(b);
  return b.toString('base64url');
};

describe('report link token', () => {
  it('is short: a report key, an expiry and a 128-bit tag, under 90 characters', () => {
    expect(good).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(good.length).toBe(Math.ceil(((4 + Buffer.byteLength(KEY) + 16) * 4) / 3));
    expect(good.length).toBeLessThan(90);
  });

  it.each<[string, () => string, readonly string[], number, unknown]>([
    ['a genuine token', () => good, [SECRET], NOW, { ok: true, key: KEY, expiresAt: EXP }],
    ['one second before its end', () => good, [SECRET], EXP - 1, { ok: true, key: KEY, expiresAt: EXP }],
    ['at its end', () => good, [SECRET], EXP, { ok: false, reason: 'expired', key: KEY, expiresAt: EXP }],
    [
      'long after',
      () => good,
      [SECRET],
      EXP + 86_400,
      { ok: false, reason: 'expired', key: KEY, expiresAt: EXP },
    ],
    [
      'the previous secret, during a rotation',
      () => good,
      [OTHER, SECRET],
      NOW,
      { ok: true, key: KEY, expiresAt: EXP },
    ],
    ['a wrong secret', () => good, [OTHER], NOW, { ok: false, reason: 'forged' }],
    ['no secret at all', () => good, [], NOW, { ok: false, reason: 'forged' }],
    [
      'an expiry pushed later',
      () => edited((b) => b.writeUInt32BE(EXP + 86_400, 0)),
      [SECRET],
      NOW,
      { ok: false, reason: 'forged' },
    ],
    // Forged and expired: the forgery is what is said, since an unauthentic expiry means nothing.
    [
      'an expiry pushed earlier',
      () => edited((b) => b.writeUInt32BE(NOW - 1, 0)),
      [SECRET],
      NOW,
      { ok: false, reason: 'forged' },
    ],
    [
      'another report key',
      () => edited((b) => (b[10] = b[10]! ^ 1)),
      [SECRET],
      NOW,
      { ok: false, reason: 'forged' },
    ],
    [
      'a tag bit flipped',
      () => edited((b) => (b[b.length - 1] = b[b.length - 1]! ^ 0x80)),
      [SECRET],
      NOW,
      { ok: false, reason: 'forged' },
    ],
    [
      'a token cut short (as chat cut long links)',
      () => good.slice(0, 40),
      [SECRET],
      NOW,
      { ok: false, reason: 'forged' },
    ],
    ['a token with a byte more', () => good + 'A', [SECRET], NOW, { ok: false, reason: 'forged' }],
    // 62 bytes end in two unused bits: a second spelling of the same bytes is refused.
    [
      'unused trailing bits set',
      () => good.slice(0, -1) + B64URL[B64URL.indexOf(good.slice(-1)) ^ 1],
      [SECRET],
      NOW,
      { ok: false, reason: 'malformed' },
    ],
    ['too short to hold a tag', () => good.slice(0, 20), [SECRET], NOW, { ok: false, reason: 'malformed' }],
    ['empty', () => '', [SECRET], NOW, { ok: false, reason: 'malformed' }],
    [
      'standard base64 characters',
      () => good.slice(0, -2) + '+/',
      [SECRET],
      NOW,
      { ok: false, reason: 'malformed' },
    ],
    ['padding', () => good + '==', [SECRET], NOW, { ok: false, reason: 'malformed' }],
    ['a path in it', () => `../${good}`, [SECRET], NOW, { ok: false, reason: 'malformed' }],
    [
      'longer than any key allows',
      () => 'A'.repeat(Math.ceil(((4 + MAX_KEY_BYTES + 16 + 1) * 4) / 3) + 4),
      [SECRET],
      NOW,
      { ok: false, reason: 'malformed' },
    ],
  ])('%s', (_name, token, secrets, now, expected) => {
    expect(verifyToken(token(), secrets, now)).toEqual(expected);
  });

  it('refuses a genuine tag over bytes that are not UTF-8 as malformed', () => {
    const t = signToken(SECRET, 'x', EXP);
    const b = Buffer.from(t, 'base64url');
    // Rebuild with an invalid byte in the key and a tag that is genuine for it.
    const { createHmac } = jest.requireActual<typeof import('crypto')>('crypto');
    const body = Buffer.concat([b.subarray(0, 4), Buffer.from([0xff])]);
    const tag = createHmac('sha256', SECRET).update('koperator-audit report-link v1\n').update(body).digest();
    const token = Buffer.concat([body, tag.subarray(0, 16)]).toString('base64url');
    expect(verifyToken(token, [SECRET], NOW)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each<[string, () => unknown, RegExp]>([
    ['an empty key', () => signToken(SECRET, '', EXP), /1-512 bytes, got 0/],
    ['a key too long', () => signToken(SECRET, 'k'.repeat(MAX_KEY_BYTES + 1), EXP), /got 513/],
    ['a fractional expiry', () => signToken(SECRET, KEY, 1.5), /whole seconds/],
    ['an expiry past 2106', () => signToken(SECRET, KEY, 2 ** 32), /whole seconds/],
    ['a short secret', () => signToken('short', KEY, EXP), /shorter than 16 bytes/],
    ['a short secret on checking', () => verifyToken(good, ['short'], NOW), /shorter than 16 bytes/],
  ])('refuses to work with %s', (_name, run, message) => {
    expect(run).toThrow(message);
  });

  it('gives different tokens for different secrets, keys and expiries', () => {
    const tokens = new Set([
      good,
      signToken(OTHER, KEY, EXP),
      signToken(SECRET, KEY + 'x', EXP),
      signToken(SECRET, KEY, EXP + 1),
    ]);
    expect(tokens.size).toBe(4);
  });
});
