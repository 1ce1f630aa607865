// summary.newestEventAt is the newest requestReceivedTimestamp read, whatever its shape. The
// reader orders most times as text (a whole second, then a fraction of one length) and parses
// only the rest, so every shape that takes a different path is played here against the
// plain answer: the latest time Date.parse accepts, to the microsecond.
import { epochMicros } from '../../lib/analyze/time';
import { AUDIT_CONTAINERS, encodeAudit } from '../../sim/encode';
import { auditEvent, memoryObject, readAll, readOne } from './fixtures';

const S = '2026-12-07T01:02:03';

/** Lease updates (dropped unparsed, their time read off their bytes) at these times. */
function leasesAt(times: string[]) {
  return times.map((t) => ({
    ...auditEvent({ verb: 'update', resource: 'leases', name: 'node-1' }),
    requestReceivedTimestamp: t,
  }));
}

/** The latest valid time, to the microsecond (the reference the reader must agree with). */
function latest(times: string[]): number {
  return Math.max(...times.filter((t) => !Number.isNaN(Date.parse(t))).map(epochMicros));
}

const cases: Array<[string, string[], string]> = [
  [
    'one second, fractions of one length in order',
    [`${S}.100000Z`, `${S}.200000Z`, `${S}.300000Z`],
    `${S}.300000Z`,
  ],
  ['one second, out of order', [`${S}.300000Z`, `${S}.100000Z`, `${S}.200000Z`], `${S}.300000Z`],
  ['fractions of different lengths', [`${S}.5Z`, `${S}.499999Z`, `${S}.45Z`], `${S}.5Z`],
  ['a fraction with a letter in it is no time', [`${S}.100000Z`, `${S}.9a0000Z`], `${S}.100000Z`],
  [
    'a later second, then an earlier one',
    [`${S}.900000Z`, '2026-12-07T01:02:04.100000Z', `${S}.950000Z`],
    '2026-12-07T01:02:04.100000Z',
  ],
  [
    'a 30th of the month (parsed by Date.parse)',
    ['2026-11-30T23:59:59.100Z', '2026-11-30T23:59:59.300Z', '2026-11-30T23:59:59.200Z'],
    '2026-11-30T23:59:59.300Z',
  ],
  [
    'nanoseconds (past the six digits read as text)',
    [`${S}.123456789Z`, `${S}.123456999Z`, `${S}.123457000Z`],
    `${S}.123457000Z`,
  ],
  // Read as text its second is later, and so is its time (01:02:03.2 UTC).
  [
    'an offset instead of Z',
    [`${S}.100000Z`, '2026-12-07T02:02:03.200000+01:00', `${S}.150000Z`],
    '2026-12-07T02:02:03.200000+01:00',
  ],
  [
    'whole seconds after fractions',
    [`${S}.100000Z`, '2026-12-07T01:02:04Z', `${S}.999999Z`],
    '2026-12-07T01:02:04Z',
  ],
  ['an invalid first time, then valid ones', ['not a time', `${S}.1Z`, `${S}.2Z`], `${S}.2Z`],
];

describe('the newest event read, whatever the shape of its time', () => {
  for (const container of AUDIT_CONTAINERS) {
    it.each(cases)(`${container}: %s`, async (_name, times, want) => {
      const read = await readOne(memoryObject(`times.${container}`, encodeAudit(container, leasesAt(times))));
      if (container === 'gke-logentry') return; // one time per entry: its stageTimestamp (pod-events.test.ts)
      expect(epochMicros(read.stats.newestEventAt ?? '')).toBe(latest(times));
      expect(read.stats.newestEventAt).toBe(want);
    });
  }

  it('agrees with Date.parse on a long run of mixed shapes, in and out of order', async () => {
    // Deterministic: a small linear congruential generator, so a failure replays.
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const times = Array.from({ length: 3000 }, () => {
      const second = String(3 + next(3)).padStart(2, '0');
      const digits = next(10);
      const frac = digits === 0 ? '' : `.${String(next(10 ** Math.min(digits, 9))).padStart(digits, '0')}`;
      const t = `2026-12-07T01:02:${second}${frac}Z`;
      return next(50) === 0 ? t.replace(/\d(?=Z)/, 'x') : t;
    });
    const read = await readOne(memoryObject('mixed.jsonl', encodeAudit('audit-jsonl', leasesAt(times))));
    expect(read.stats.audit.read).toBe(times.length);
    expect(epochMicros(read.stats.newestEventAt ?? '')).toBe(latest(times));
  });

  it('keeps a later time another object already gave the same counts', async () => {
    const later = memoryObject('later.jsonl', encodeAudit('audit-jsonl', leasesAt([`${S}.900000Z`])));
    const earlier = memoryObject(
      'earlier.jsonl',
      encodeAudit('audit-jsonl', leasesAt([`${S}.100000Z`, `${S}.200000Z`])),
    );
    const read = await readAll([later, earlier]);
    expect(read.stats.newestEventAt).toBe(`${S}.900000Z`);
  });
});
