// The spool gives back what streamFindings handed out in analyzeFacts' order (deletion time,
// stable by hand-out order), keeps nothing on disk under a name, and never turns a failed
// write into fewer findings.
import { spawnSync } from 'child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { analyzeFacts, analyzeInto } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { RecreationSpool, SpoolError } from '../../lib/analyze/recreation-spool';
import { sortByKey } from '../../lib/analyze/sort-by-key';
import { epochMicros } from '../../lib/analyze/time';
import { CLASSIFICATIONS, type Classification, type Recreation } from '../../lib/model/findings';
import { laterConfirmedOperatorFacts } from '../facts/fixtures';

function rec(deletedAt: string, name: string, classification: Classification = 'unknown'): Recreation {
  return {
    namespace: 'kafka',
    kafkaCluster: 'orders',
    brokerId: '0',
    deletedPod: { name, uid: `uid-${name}`, deletedAt, deletedBy: 'system:serviceaccount:kafka:op' },
    createdPod: null,
    classification,
    fields: [{ path: 'spec.containers[0].image', from: { a: [1, 'é'] }, to: null, by: null }],
    wouldRestart: null,
    evidence: [`deleted at ${deletedAt}`],
  };
}

/** analyzeFacts' own sort, the order the spool must reproduce. */
function analyzeFactsOrder(rs: Recreation[]): Recreation[] {
  const copy = [...rs];
  sortByKey(copy, (r) => epochMicros(r.deletedPod.deletedAt));
  return copy;
}

const scratch: string[] = [];
function freshDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'ka-spool-test-'));
  scratch.push(d);
  return d;
}
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function spooled(rs: Recreation[], opts: { bufferBytes?: number } = {}): RecreationSpool {
  const spool = new RecreationSpool({ dir: freshDir(), ...opts });
  for (const r of rs) spool.add(r);
  return spool;
}

describe('order', () => {
  const cases: Array<{ name: string; handedOut: Array<[string, string]>; want: string[] }> = [
    { name: 'none', handedOut: [], want: [] },
    {
      name: 'broker by broker, interleaved in time',
      handedOut: [
        ['2026-11-02T10:00:00Z', 'b0-1'],
        ['2026-11-02T10:00:20Z', 'b0-2'],
        ['2026-11-02T10:00:10Z', 'b1-1'],
        ['2026-11-02T10:00:30Z', 'b1-2'],
      ],
      want: ['b0-1', 'b1-1', 'b0-2', 'b1-2'],
    },
    {
      name: 'equal times keep the hand-out order',
      handedOut: [
        ['2026-11-02T10:00:05Z', 'late'],
        ['2026-11-02T10:00:00Z', 'first'],
        ['2026-11-02T10:00:00.000Z', 'second'],
        ['2026-11-02T10:00:00.000000Z', 'third'],
      ],
      want: ['first', 'second', 'third', 'late'],
    },
    {
      name: 'times by value, not as text (fraction digits differ)',
      handedOut: [
        ['2026-11-02T10:00:39.5Z', 'half'],
        ['2026-11-02T10:00:39Z', 'whole'],
        ['2026-11-02T10:00:39.000001Z', 'micro'],
      ],
      want: ['whole', 'micro', 'half'],
    },
    {
      name: 'an offset time where its instant falls',
      handedOut: [
        ['2026-11-02T10:00:00Z', 'utc'],
        ['2026-11-02T10:59:00+01:00', 'offset'],
      ],
      want: ['offset', 'utc'],
    },
  ];
  it.each(cases)('$name', ({ handedOut, want }) => {
    const rs = handedOut.map(([at, name]) => rec(at, name));
    const spool = spooled(rs);
    try {
      const got = [...spool].map((r) => r.deletedPod.name);
      expect(got).toEqual(want);
      expect(got).toEqual(analyzeFactsOrder(rs).map((r) => r.deletedPod.name));
      expect(spool.length).toBe(rs.length);
    } finally {
      spool.close();
    }
  });

  it('an unreadable time lands where analyzeFacts puts it', () => {
    const rs = [
      rec('2026-11-02T10:00:30Z', 'a'),
      rec('not a time', 'odd'),
      rec('2026-11-02T10:00:10Z', 'b'),
      rec('2026-11-02T10:00:20Z', 'c'),
    ];
    const spool = spooled(rs);
    try {
      expect([...spool].map((r) => r.deletedPod.name)).toEqual(
        analyzeFactsOrder(rs).map((r) => r.deletedPod.name),
      );
    } finally {
      spool.close();
    }
  });
});

it('many recreations, many ties, small and oversized texts: each back once, in order, equal', () => {
  const rs: Recreation[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 20_000; i++) {
    const second = next() % 600;
    const at = new Date(Date.UTC(2026, 10, 2, 10, 0, 0) + second * 1000).toISOString();
    const r = rec(at, `pod-${i}`, CLASSIFICATIONS[next() % CLASSIFICATIONS.length]);
    // Every 997th is larger than the 4 KiB buffer, so it goes to the file in a write of its own.
    if (i % 997 === 0) r.evidence.push('ü'.repeat(5000));
    rs.push(r);
  }
  const spool = spooled(rs, { bufferBytes: 4096 });
  try {
    const want = analyzeFactsOrder(rs);
    const got = [...spool];
    expect(got.length).toBe(want.length);
    for (let i = 0; i < want.length; i++) expect(got[i]).toEqual(want[i]);
    expect([...spool.texts()]).toEqual(want.map((r) => JSON.stringify(r)));
    // Read again after more were added: the new ones take their places.
    spool.add(rec('2026-11-02T09:00:00Z', 'earliest'));
    expect(spool.toArray()[0].deletedPod.name).toBe('earliest');
    for (const c of CLASSIFICATIONS) {
      const n = rs.filter((r) => r.classification === c).length + (c === 'unknown' ? 1 : 0);
      expect(spool.count(c)).toBe(n);
    }
    expect([...spool.added(0, 3)].map((r) => r.deletedPod.name)).toEqual(['pod-0', 'pod-1', 'pod-2']);
  } finally {
    spool.close();
  }
});

/** Paths the process's open descriptors point at (Linux). */
function openPaths(): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      out.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // closed while listing
    }
  }
  return out;
}

describe('the temporary file', () => {
  it('has no name while in use, and is gone after close', () => {
    const dir = freshDir();
    const spool = new RecreationSpool({ dir, bufferBytes: 256 });
    for (let i = 0; i < 50; i++) spool.add(rec('2026-11-02T10:00:00Z', `p${i}`));
    expect(readdirSync(dir)).toEqual([]);
    const held = openPaths().filter((p) => p.startsWith(dir));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(/\(deleted\)$/);
    expect([...spool]).toHaveLength(50);
    spool.close();
    spool.close();
    expect(openPaths().filter((p) => p.startsWith(dir))).toEqual([]);
    expect(() => spool.add(rec('2026-11-02T10:00:00Z', 'late'))).toThrow(/after it was closed/);
  });

  it('is gone after an error part-way through reading it back', () => {
    const dir = freshDir();
    const spool = new RecreationSpool({ dir });
    for (let i = 0; i < 10; i++) spool.add(rec('2026-11-02T10:00:00Z', `p${i}`));
    expect(() => {
      try {
        for (const r of spool) if (r.deletedPod.name === 'p4') throw new Error('writer failed');
      } finally {
        spool.close();
      }
    }).toThrow('writer failed');
    expect(readdirSync(dir)).toEqual([]);
    expect(openPaths().filter((p) => p.startsWith(dir))).toEqual([]);
  });

  it('cannot be made in a folder that does not exist: an error naming the folder, not an empty spool', () => {
    const missing = path.join(freshDir(), 'missing');
    expect(() => new RecreationSpool({ dir: missing })).toThrow(SpoolError);
    expect(() => new RecreationSpool({ dir: missing })).toThrow(
      `the temporary folder ${missing} does not exist (set TMPDIR to a folder that exists)`,
    );
  });
});

it('a write the file refuses (a full disk, a file size limit) is an error, never fewer recreations', () => {
  // A real refusal: the child runs under a 4 KiB file size limit (Node ignores SIGXFSZ, so
  // writes past it fail with EFBIG), with a 1 KiB buffer so the spool writes early.
  const script = `
    const { RecreationSpool } = require(${JSON.stringify(path.resolve(__dirname, '../../lib/analyze/recreation-spool'))});
    const spool = new RecreationSpool({ bufferBytes: 1024 });
    const r = (i) => ({ namespace: 'kafka', kafkaCluster: 'orders', brokerId: '0',
      deletedPod: { name: 'p' + i, uid: null, deletedAt: '2026-11-02T10:00:00Z', deletedBy: null },
      createdPod: null, classification: 'unknown', fields: [], wouldRestart: null, evidence: ['x'.repeat(300)] });
    let added = 0;
    try {
      for (let i = 0; i < 100; i++) { spool.add(r(i)); added++; }
      const back = [...spool].length;
      console.log('no error: ' + added + ' added, ' + back + ' read back');
    } catch (e) {
      console.log('error after ' + added + ': ' + e.message);
      try { spool.add(r(999)); console.log('still usable'); } catch (again) { console.log('then: ' + again.message); }
    } finally { spool.close(); }`;
  const run = spawnSync(
    'bash',
    ['-c', 'ulimit -f 4; exec "$0" --require tsx/cjs -e "$1"', process.execPath, script],
    {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: freshDir() },
    },
  );
  expect(run.stderr).toBe('');
  const [first, then] = run.stdout.trim().split('\n');
  expect(first).toMatch(
    /^error after \d+: the recreations' temporary file in .+ failed: EFBIG: file too large/,
  );
  expect(Number(/after (\d+)/.exec(first)![1])).toBeLessThan(100);
  // Once failed, it stays failed: nothing later may pass for the whole set.
  expect(then).toMatch(/^then: the recreations' temporary file in .+ failed: EFBIG/);
});

describe('removals: brokers a downscale removed, counted apart from recreations', () => {
  const removal = (at: string, name: string): Recreation => ({
    ...rec(at, name, 'intent-change'),
    evidence: ['downscale: no successor pod, and the operator removed the broker'],
  });
  it.each([
    {
      name: 'none: no successor, but no downscale either',
      add: [rec('2026-11-02T10:00:01Z', 'a')],
      to: 1,
      want: 0,
    },
    {
      name: 'two removals among three',
      add: [
        removal('2026-11-02T10:00:01Z', 'a'),
        rec('2026-11-02T10:00:02Z', 'b'),
        removal('2026-11-02T10:00:03Z', 'c'),
      ],
      to: 3,
      want: 2,
    },
    {
      name: 'a truncation takes a removal back',
      add: [
        removal('2026-11-02T10:00:01Z', 'a'),
        rec('2026-11-02T10:00:02Z', 'b'),
        removal('2026-11-02T10:00:03Z', 'c'),
      ],
      to: 2,
      want: 1,
    },
  ])('$name', ({ add, to, want }) => {
    const spool = spooled(add);
    try {
      spool.truncate(to);
      expect(spool.removals()).toBe(want);
      // The classes stay right under the marker bit.
      expect(spool.count('intent-change')).toBe(
        add.slice(0, to).filter((r) => r.classification === 'intent-change').length,
      );
    } finally {
      spool.close();
    }
  });
});

describe('truncate: what an analysis restart takes back', () => {
  it.each([
    { name: 'all of it, still buffered', add: 5, to: 0, bufferBytes: 1 << 20 },
    { name: 'the tail, written to the file in several writes', add: 40, to: 25, bufferBytes: 1024 },
    { name: 'nothing (to the current length)', add: 6, to: 6, bufferBytes: 1024 },
  ])('$name', ({ add, to, bufferBytes }) => {
    const first = Array.from({ length: add }, (_, i) =>
      rec(
        `2026-11-02T10:00:${String(59 - i).padStart(2, '0')}Z`,
        `old${i}`,
        i % 2 ? 'unknown' : 'intent-change',
      ),
    );
    const spool = spooled(first, { bufferBytes });
    try {
      spool.truncate(to);
      const again = Array.from({ length: 7 }, (_, i) =>
        rec(`2026-11-02T10:00:${String(30 + i).padStart(2, '0')}Z`, `new${i}`, 'config-change'),
      );
      for (const r of again) spool.add(r);
      const want = analyzeFactsOrder([...first.slice(0, to), ...again]);
      expect(spool.toArray()).toEqual(want);
      expect(spool.length).toBe(to + again.length);
      for (const c of CLASSIFICATIONS)
        expect(spool.count(c)).toBe(want.filter((r) => r.classification === c).length);
    } finally {
      spool.close();
    }
  });

  it('beyond what it holds: an error', () => {
    const spool = spooled([rec('2026-11-02T10:00:00Z', 'a')]);
    try {
      expect(() => spool.truncate(2)).toThrow(RangeError);
    } finally {
      spool.close();
    }
  });
});

it('the analysis into the spool, restarting when a later broker confirms the operator: analyzeFacts exactly', () => {
  const facts = laterConfirmedOperatorFacts();
  const spool = new RecreationSpool({ dir: freshDir() });
  try {
    // Something else already in the spool (another cluster of the run) stays as it was.
    spool.add(rec('2026-11-03T07:00:00Z', 'other-cluster'));
    let restarts = 0;
    const { loops, recreations } = analyzeInto(facts, defaultAnalysisOptions(), {
      add: (r) => spool.add(r),
      clear: () => {
        restarts++;
        spool.truncate(1);
      },
    });
    expect(restarts).toBeGreaterThan(0);
    const want = analyzeFacts(facts, defaultAnalysisOptions());
    expect(recreations).toBe(want.recreations.length);
    expect(loops).toEqual(want.loops);
    expect([...spool.texts()]).toEqual([
      JSON.stringify(rec('2026-11-03T07:00:00Z', 'other-cluster')),
      ...want.recreations.map((r) => JSON.stringify(r)),
    ]);
  } finally {
    spool.close();
  }
});

it('read back into an array, the parts a loop repeats are shared again, frozen, and equal', () => {
  const a = rec('2026-11-02T10:00:00Z', 'a', 'external-mutation-revert');
  const b = rec('2026-11-02T10:00:08Z', 'b', 'external-mutation-revert');
  a.wouldRestart = { threeWayMerge: true, intentDiff: false };
  b.wouldRestart = { threeWayMerge: true, intentDiff: false };
  const c = { ...rec('2026-11-02T10:00:16Z', 'c'), fields: [] };
  const spool = spooled([a, b, c]);
  try {
    const [x, y, z] = spool.toArray();
    expect([x, y, z]).toEqual([a, b, c]);
    expect(x.fields).toBe(y.fields);
    expect(Object.isFrozen(x.fields)).toBe(true);
    expect(x.wouldRestart).toBe(y.wouldRestart);
    expect(z.fields).toEqual([]);
  } finally {
    spool.close();
  }
});
